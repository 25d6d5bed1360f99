import { ValidateIf } from 'class-validator';

/**
 * For PATCH fields that may be left out but not emptied: an absent field skips the field's
 * other rules (it stays as stored), while `null` runs them and fails with the field's own
 * message (400), as docs/api.md's PATCH convention says. `@IsOptional()` would let `null`
 * through as if the field were absent.
 */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);
