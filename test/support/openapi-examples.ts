/**
 * Reading the served OpenAPI document the way a schema-driven client or fuzzer does: a small
 * validator for the JSON Schema subset the document uses, and examples built from the document
 * alone (its `example`s where present), each checked against its schema before a test sends it.
 */

export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  example?: unknown;
  default?: unknown;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  not?: Schema;
  discriminator?: { propertyName: string; mapping?: Record<string, string> };
}

export interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  schema?: Schema;
  description?: string;
}

export interface Operation {
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { description?: string }>;
  'x-access'?: string;
  'x-raw-body'?: unknown;
}

export interface OpenApiDocument {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

export const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// The HTML living standard's address rule, which JSON Schema validators use for `format: email`.
const EMAIL = /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

export const resolve = (doc: OpenApiDocument, schema: Schema): Schema =>
  schema.$ref ? resolve(doc, doc.components.schemas[schema.$ref.split('/').pop()!]!) : schema;

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value);

/** The problems of `value` against `schema` (OpenAPI 3.0: `nullable`), empty when it is valid. */
export function problems(doc: OpenApiDocument, schema: Schema, value: unknown, at = '$'): string[] {
  const s = resolve(doc, schema);
  if (value === null) {
    if (s.nullable) return [];
    if (s.type || s.properties || s.enum) return [`${at}: null is not allowed`];
  }
  const found: string[] = [];
  const add = (text: string): void => void found.push(`${at}: ${text}`);
  const actual = typeOf(value);
  if (s.type && !(s.type === actual || (s.type === 'number' && actual === 'integer') || (s.type === 'object' && actual === 'object' && value !== null))) {
    return [`${at}: expected ${s.type}, got ${actual}`];
  }
  if (s.enum && !s.enum.some((option) => option === value)) add(`not one of ${JSON.stringify(s.enum)}`);
  if (typeof value === 'string') {
    if (s.minLength !== undefined && [...value].length < s.minLength) add(`shorter than ${s.minLength}`);
    if (s.maxLength !== undefined && [...value].length > s.maxLength) add(`longer than ${s.maxLength}`);
    if (s.pattern !== undefined && !new RegExp(s.pattern, 'u').test(value)) add(`does not match ${s.pattern}`);
    if (s.format === 'uuid' && !UUID.test(value)) add('not a uuid');
    if (s.format === 'email' && !EMAIL.test(value)) add('not an email address');
  }
  if (typeof value === 'number') {
    if (s.minimum !== undefined && value < s.minimum) add(`below ${s.minimum}`);
    if (s.maximum !== undefined && value > s.maximum) add(`above ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (s.minItems !== undefined && value.length < s.minItems) add(`fewer than ${s.minItems} items`);
    if (s.maxItems !== undefined && value.length > s.maxItems) add(`more than ${s.maxItems} items`);
    if (s.items) value.forEach((item, index) => found.push(...problems(doc, s.items!, item, `${at}[${index}]`)));
  }
  if (actual === 'object') {
    const object = value as Record<string, unknown>;
    for (const name of s.required ?? []) if (!(name in object)) add(`${name} is required`);
    for (const [name, property] of Object.entries(s.properties ?? {})) {
      if (name in object) found.push(...problems(doc, property, object[name], `${at}.${name}`));
    }
  }
  for (const part of s.allOf ?? []) found.push(...problems(doc, part, value, at));
  if (s.not && problems(doc, s.not, value, at).length === 0) add('matches the schema under not');
  if (s.anyOf && !s.anyOf.some((part) => problems(doc, part, value, at).length === 0)) add('matches none of anyOf');
  if (s.oneOf) {
    const matching = s.oneOf.filter((part) => problems(doc, part, value, at).length === 0).length;
    if (matching !== 1) add(`matches ${matching} of oneOf, not exactly one`);
  }
  return found;
}

/** Values that must name something real for a body to be accepted (ids, tokens), by field name. */
export type KnownValues = Record<string, unknown>;

/** Strings tried in turn for a string schema without an example: the first valid one is used. */
const STRING_CANDIDATES = ['x', 'example', 'Example text', '15551234567', 'abcd'];

function stringExample(doc: OpenApiDocument, s: Schema, original: Schema, name: string): string {
  if (s.format === 'uuid') return PLACEHOLDER_ID;
  if (s.format === 'email') return 'ada@example.com';
  if (s.format === 'date-time') return '2026-01-01T00:00:00.000Z';
  const candidates = [...STRING_CANDIDATES, 'x'.repeat(Math.max(1, s.minLength ?? 1))];
  const found = candidates.find((candidate) => problems(doc, original, candidate).length === 0);
  if (found === undefined) throw new Error(`no example for string ${name} (${JSON.stringify(original)}): give it an \`example\``);
  return found;
}

interface Shape {
  properties: Record<string, Schema>;
  required: Set<string>;
  /** `not: {required: [...]}`: fields that may not all be present. */
  forbidden: string[][];
  /** Fields a variant other than the chosen one requires. */
  others: Set<string>;
}

/** An object schema flattened: its own fields, its allOf parts and the chosen oneOf/anyOf branch. */
function shapeOf(doc: OpenApiDocument, schema: Schema, variant: number, shape: Shape): Shape {
  const s = resolve(doc, schema);
  for (const [name, property] of Object.entries(s.properties ?? {})) {
    shape.properties[name] = shape.properties[name] ? { allOf: [shape.properties[name]!, property] } : property;
  }
  for (const name of s.required ?? []) shape.required.add(name);
  const not = s.not ? resolve(doc, s.not) : undefined;
  if (not?.required) shape.forbidden.push(not.required);
  // `not: {anyOf: [{required: [a]}, {required: [b]}]}`: each of them may not be present.
  for (const part of not?.anyOf ?? []) {
    const required = resolve(doc, part).required;
    if (required) shape.forbidden.push(required);
  }
  for (const part of s.allOf ?? []) shapeOf(doc, part, 0, shape);
  const variants = s.oneOf ?? s.anyOf;
  if (variants) {
    const chosen = variants[variant % variants.length]!;
    for (const other of variants) if (other !== chosen) for (const name of resolve(doc, other).required ?? []) shape.others.add(name);
    shapeOf(doc, chosen, 0, shape);
  }
  return shape;
}

const isObjectSchema = (doc: OpenApiDocument, s: Schema): boolean =>
  s.type === 'object' || Boolean(s.properties || s.oneOf || s.anyOf) || (s.allOf ?? []).some((part) => isObjectSchema(doc, resolve(doc, part)));

/**
 * One valid value for `schema`: its `example` when it has one, else built. `full` fills every
 * property the chosen variant allows (not only the required ones) and one array item per variant
 * of the items; `variant` picks the oneOf/anyOf branch of an object; `known` gives the values of
 * fields that must name something real.
 */
export function exampleOf(
  doc: OpenApiDocument,
  schema: Schema,
  options: { full?: boolean; variant?: number; known?: KnownValues; name?: string } = {},
): unknown {
  const { full = false, known = {}, name = '', variant = 0 } = options;
  const s = resolve(doc, schema);
  if (name in known && problems(doc, s, known[name]).length === 0) return known[name];
  if (s.example !== undefined) return s.example;
  if (isObjectSchema(doc, s)) {
    const shape = shapeOf(doc, s, variant, { properties: {}, required: new Set(), forbidden: [], others: new Set() });
    const names = Object.keys(shape.properties).filter((field) => shape.required.has(field) || (full && !shape.others.has(field)));
    for (const group of shape.forbidden) {
      const optional = group.filter((field) => names.includes(field) && !shape.required.has(field));
      if (group.every((field) => names.includes(field)) && optional.length) names.splice(names.indexOf(optional.at(-1)!), 1);
    }
    return Object.fromEntries(names.map((field) => [field, exampleOf(doc, shape.properties[field]!, { full, known, name: field })]));
  }
  const merged: Schema = Object.assign({}, ...(s.allOf ?? []).map((part) => resolve(doc, part)), { ...s, allOf: undefined });
  if (merged.example !== undefined) return merged.example;
  if (merged.enum) return merged.enum[0];
  switch (merged.type) {
    case 'string':
      return stringExample(doc, merged, s, name);
    case 'integer':
    case 'number':
      return merged.minimum ?? 1;
    case 'boolean':
      return true;
    case 'array': {
      const items = merged.items ? resolve(doc, merged.items) : { type: 'string' };
      const kinds = (items.oneOf ?? items.anyOf)?.length ?? 1;
      const count = full ? Math.min(merged.maxItems ?? Infinity, Math.max(merged.minItems ?? 0, kinds)) : (merged.minItems ?? 0);
      return Array.from({ length: count }, (_, index) => exampleOf(doc, items, { full, known, name, variant: index }));
    }
    default:
      throw new Error(`no example for ${name} (${JSON.stringify(s)})`);
  }
}

/** How many top-level variants (oneOf/anyOf branches) a body schema has; 1 without any. */
export const variantCount = (doc: OpenApiDocument, schema: Schema): number => {
  const s = resolve(doc, schema);
  return (s.oneOf ?? s.anyOf)?.length ?? 1;
};

/** Every operation of the document as `[method, path template, operation]`. */
export const operationsOf = (doc: OpenApiDocument): [string, string, Operation][] =>
  Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => [method, path, operation] as [string, string, Operation]),
  );

/** The JSON request body schema of an operation, when it takes one parsed by the service. */
export const bodySchemaOf = (operation: Operation): Schema | undefined =>
  operation['x-raw-body'] === undefined ? operation.requestBody?.content?.['application/json']?.schema : undefined;

/** The exact texts an operation documents for a status (the backticked ones). */
export const documentedTexts = (operation: Operation, status: string): string[] =>
  [...(operation.responses[status]?.description ?? '').matchAll(/`([^`]+)`/g)].map((match) => match[1]!);
