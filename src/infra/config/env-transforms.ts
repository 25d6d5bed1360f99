// Environment values arrive as strings: these turn the ones that are booleans and numbers into
// them before validation (anything else is left as it is, for the validator to name).

export const toBool = ({ value }: { value: unknown }): unknown => {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off', ''].includes(v)) return false;
  return value;
};

export const toInt = ({ value }: { value: unknown }): unknown => (typeof value === 'string' && /^\d+$/.test(value.trim()) ? Number(value.trim()) : value);

export const toNumber = ({ value }: { value: unknown }): unknown =>
  typeof value === 'string' && /^\d+(\.\d+)?$|^\.\d+$/.test(value.trim()) ? Number(value.trim()) : value;
