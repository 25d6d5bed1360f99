import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';

/** The JSON Schema keywords this file reads and writes (OpenAPI 3.0: `nullable`). */
export interface SchemaRules {
  type?: string;
  format?: string;
  pattern?: string;
  enum?: unknown[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
  example?: unknown;
  description?: string;
  $ref?: string;
  items?: SchemaRules;
  allOf?: SchemaRules[];
  oneOf?: SchemaRules[];
  anyOf?: SchemaRules[];
  not?: SchemaRules;
  properties?: Record<string, SchemaRules>;
  required?: string[];
}

/** A string that is not only whitespace: what a trimmed field with a minimum length needs. */
export const NON_BLANK = '\\S';

/**
 * Addresses class-validator's `isEmail` takes: dot-separated atoms of at most 64 characters, then a
 * host name with an alphabetic top-level domain. Stricter than JSON Schema's `format: email` (which
 * allows `a@b`), so a client that follows the document is never refused.
 */
export const EMAIL_PATTERN = '^(?=[^@]{1,64}@)[A-Za-z0-9_%+-]+(\\.[A-Za-z0-9_%+-]+)*@([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$';

const CLASS_RULES = Symbol('schema-rules');

/**
 * Rules of a request class that no single field's validator states: which fields go together
 * (`oneOf` by message type), checked by the service. Merged into the class's schema by
 * `applyValidationRules`; keep them next to the checks they describe.
 */
export const ApiSchemaRules =
  (rules: Pick<SchemaRules, 'oneOf' | 'anyOf' | 'allOf' | 'not'>): ClassDecorator =>
  (target) =>
    void Reflect.defineMetadata(CLASS_RULES, rules, target);

type Type = abstract new (...args: never[]) => unknown;
const storage = getMetadataStorage();
type ValidationMetadata = ReturnType<typeof storage.getTargetValidationMetadatas>[number];
const rulesOf = (type: Type): ValidationMetadata[] => storage.getTargetValidationMetadatas(type, '', false, false);
// The kinds of metadata that check a value (not `@IsOptional()`, `@ValidateIf()`, `@Allow()`).
const CHECKS = new Set(['customValidation', 'isDefined', 'nestedValidation']);
const IGNORED = new Set(['conditionalValidation', 'whitelistValidation', 'nestedValidation', 'isDefined']);

/**
 * The schema keywords of one class-validator rule. A rule with no counterpart stops the
 * document from being built: a rule the document leaves out is a 400 no client can foresee.
 */
function keywordsOf(rule: ValidationMetadata, where: string): SchemaRules {
  const [a, b] = (rule.constraints ?? []) as unknown[];
  switch (rule.name) {
    case 'isString':
      return { type: 'string' };
    case 'isBoolean':
      return { type: 'boolean' };
    case 'isInt':
      return { type: 'integer' };
    case 'isNumber':
      return { type: 'number' };
    case 'isArray':
      return { type: 'array' };
    case 'isObject':
      return { type: 'object' };
    case 'isUUID':
      return { type: 'string', format: 'uuid' };
    case 'isEmail':
      return { type: 'string', format: 'email', pattern: EMAIL_PATTERN };
    case 'isLength':
      return { type: 'string', minLength: a as number, ...(typeof b === 'number' ? { maxLength: b } : {}) };
    case 'minLength':
    case 'isNotEmpty':
      return { type: 'string', minLength: rule.name === 'isNotEmpty' ? 1 : (a as number) };
    case 'maxLength':
      return { type: 'string', maxLength: a as number };
    case 'matches': {
      const flags = a instanceof RegExp ? a.flags : ((b as string | undefined) ?? '');
      if (flags.replace(/[gu]/g, '')) throw new Error(`${where}: a pattern with flags /${flags} has no JSON Schema form`);
      return { type: 'string', pattern: a instanceof RegExp ? a.source : String(a) };
    }
    case 'isIn':
      return { enum: [...(a as unknown[])] };
    case 'isEnum':
      return { enum: Object.values(a as object) };
    case 'equals':
      return { enum: [a] };
    case 'arrayNotEmpty':
      return { type: 'array', minItems: 1 };
    case 'arrayMinSize':
      return { type: 'array', minItems: a as number };
    case 'arrayMaxSize':
      return { type: 'array', maxItems: a as number };
    case 'min':
      return { minimum: a as number };
    case 'max':
      return { maximum: a as number };
    default:
      if (IGNORED.has(rule.type) || (rule.name !== undefined && IGNORED.has(rule.name))) return {};
      throw new Error(`${where}: the validation rule ${rule.name ?? rule.type} has no counterpart in the OpenAPI document (add it to schema-rules.ts)`);
  }
}

/** Adds `extra` to `schema`, the stricter bound winning where both have one. */
function tighten(schema: SchemaRules, extra: SchemaRules): void {
  const lower = ['minLength', 'minimum', 'minItems'] as const;
  const upper = ['maxLength', 'maximum', 'maxItems'] as const;
  for (const key of lower) if (extra[key] !== undefined) schema[key] = Math.max(schema[key] ?? -Infinity, extra[key]!);
  for (const key of upper) if (extra[key] !== undefined) schema[key] = Math.min(schema[key] ?? Infinity, extra[key]!);
  if (extra.type && !schema.$ref) schema.type = extra.type;
  if (extra.format) schema.format = extra.format;
  if (extra.pattern) schema.pattern = extra.pattern;
  // A declared enum is the input alphabet (it may list aliases a transform maps): it stays.
  if (extra.enum && !schema.enum) schema.enum = extra.enum;
}

/** Which properties of `plain` the class's validation refuses, run as the validation pipe runs it. */
function refused(type: Type, plain: Record<string, unknown>): Set<string> {
  const instance = plainToInstance(type as new () => object, plain, { enableImplicitConversion: false });
  return new Set(validateSync(instance, { whitelist: true, forbidNonWhitelisted: false }).map((error) => error.property));
}

/**
 * Derives one property's schema from its validation: the keywords of each rule, and by running
 * the validation on probe values, whether it is required (`{}` is refused), nullable (`null` gets
 * past every rule) and whether a blank string counts as empty (a trimmed field).
 */
function deriveProperty(type: Type, name: string, rules: ValidationMetadata[], schema: Record<string, SchemaRules>, required: Set<string>): void {
  const where = `${type.name}.${name}`;
  // A validated field without @ApiProperty is documented all the same, from its rules.
  let property = (schema[name] ??= {});
  const refuses = (value: unknown): boolean => refused(type, value === undefined ? {} : { [name]: value }).has(name);
  if (refuses(undefined)) required.add(name);
  if (refuses(null)) delete property.nullable;
  else if (property.$ref) property = schema[name] = { allOf: [{ $ref: property.$ref }], nullable: true };
  else property.nullable = true;
  for (const rule of rules) {
    const keywords = keywordsOf(rule, where);
    if (!rule.each) tighten(property, keywords);
    else if (property.items && !property.items.$ref) tighten(property.items, keywords);
  }
  for (const value of property.enum ?? []) {
    if (refuses(value)) throw new Error(`${where}: the document allows ${JSON.stringify(value)} but its validation refuses it`);
  }
  if (property.example !== undefined && refuses(property.example))
    throw new Error(`${where}: its example ${JSON.stringify(property.example)} is refused by its own validation`);
  if (property.type === 'string' && !property.pattern && !property.enum && !property.format && refuses(' '.repeat(Math.max(1, property.minLength ?? 1)))) {
    property.pattern = NON_BLANK;
  }
}

/** Every request class a route takes (bodies and their nested classes), by schema name. */
function requestClasses(app: INestApplication): Map<string, Type> {
  const found = new Map<string, Type>();
  const visit = (type: unknown): void => {
    if (typeof type !== 'function' || found.get(type.name) === type) return;
    const rules = rulesOf(type as Type);
    if (rules.length === 0) return;
    if (found.has(type.name)) throw new Error(`two request classes are named ${type.name}: the OpenAPI document cannot tell them apart`);
    found.set(type.name, type as Type);
    for (const rule of rules) visit(Reflect.getMetadata('design:type', type.prototype as object, rule.propertyName));
  };
  for (const module of app.get(ModulesContainer).values()) {
    for (const controller of module.controllers.values()) {
      const prototype = controller.metatype?.prototype as object | undefined;
      if (!prototype) continue;
      for (const method of Object.getOwnPropertyNames(prototype)) {
        for (const param of (Reflect.getMetadata('design:paramtypes', prototype, method) as unknown[] | undefined) ?? []) visit(param);
      }
    }
  }
  return found;
}

/**
 * Puts the rules the validation enforces into the document, derived from the same declarations
 * (class-validator's metadata), so the two cannot drift: lengths, patterns, formats, enums, array
 * sizes, required fields, which fields take `null`, and the class-level `@ApiSchemaRules`.
 */
export function applyValidationRules(app: INestApplication, document: OpenAPIObject): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaRules>;
  for (const [name, type] of requestClasses(app)) {
    const schema = schemas[name];
    if (!schema) continue;
    const properties = (schema.properties ??= {});
    const required = new Set(schema.required ?? []);
    const byProperty = new Map<string, ValidationMetadata[]>();
    for (const rule of rulesOf(type)) byProperty.set(rule.propertyName, [...(byProperty.get(rule.propertyName) ?? []), rule]);
    for (const [property, rules] of byProperty) {
      // Without a rule of its own a field is the service's to check: its declaration stands.
      if (rules.some((rule) => CHECKS.has(rule.type))) deriveProperty(type, property, rules, properties, required);
    }
    if (required.size) schema.required = [...required];
    Object.assign(schema, Reflect.getMetadata(CLASS_RULES, type) ?? {});
  }
}
