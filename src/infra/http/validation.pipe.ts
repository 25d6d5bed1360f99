import { type ArgumentMetadata, ValidationPipe, type ValidationError } from '@nestjs/common';
import { ApiError } from './api-error.js';

/** What Nest's pipe says when a body DTO receives an array or a bare value instead of an object. */
const NOT_AN_OBJECT = 'Validation failed (object is expected)';
export const BODY_NOT_AN_OBJECT = 'request body must be a JSON object';

// Rules that say a value is missing: first when there is no value.
const PRESENCE = new Set(['isDefined', 'isNotEmpty', 'isNotEmptyObject', 'arrayNotEmpty']);
const saysRequired = (name: string, text: string): boolean => PRESENCE.has(name) || /\bis required\b/.test(text);
// Type and format rules (`isString`, `isInt`, `isEmail`, `isIn`, …): before length and range.
const isTypeRule = (name: string): boolean => /^is[A-Z]/.test(name) && !PRESENCE.has(name);

/**
 * The one message of a field that breaks several rules: the first a person would fix. Missing
 * (undefined or null): "is required" before the type; present: the type before "is required"
 * (`name: 5` is not a string, rather than empty); length, range and pattern last. class-validator
 * lists constraints in reverse declaration order, so among equals the one declared first wins.
 */
function firstProblem(error: ValidationError): string | undefined {
  const rules = Object.entries(error.constraints ?? {}).reverse();
  if (rules.length === 0) return undefined;
  const missing = error.value === undefined || error.value === null;
  const rank = ([name, text]: [string, string]): number => {
    if (saysRequired(name, text)) return missing ? 0 : 1;
    if (isTypeRule(name)) return missing ? 1 : 0;
    return 2;
  };
  return rules.reduce((best, rule) => (rank(rule) < rank(best) ? rule : best))[1];
}

function flatten(errors: ValidationError[], parent = ''): string[] {
  return errors.flatMap((error) => {
    const path = parent ? `${parent}.${error.property}` : error.property;
    const text = firstProblem(error);
    if (text === NOT_AN_OBJECT && !parent) return [BODY_NOT_AN_OBJECT];
    const own = text === undefined ? [] : [text.startsWith(error.property) ? (parent ? `${parent}.${text}` : text) : `${path}: ${text}`];
    return [...own, ...flatten(error.children ?? [], path)];
  });
}

// Problems named one by one in a 400; the rest are counted. A body of 400,000 bad array elements
// otherwise answered a 27 MB message, one clause per element.
const PROBLEMS_NAMED = 10;

function sentence(problems: string[]): string {
  if (problems.length === 0) return 'invalid request body';
  if (problems.length <= PROBLEMS_NAMED) return problems.join('; ');
  const more = problems.length - PROBLEMS_NAMED;
  return `${problems.slice(0, PROBLEMS_NAMED).join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}`;
}

/**
 * Global DTO validation: unknown fields are stripped (never rejected), values are converted to
 * the DTO's types, and failures are a 400 with every problem in one readable sentence: one
 * message per field (see `firstProblem`), fields joined with "; ", the first ten of them named.
 */
export function createValidationPipe(): ValidationPipe {
  return new BodyValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    transformOptions: { enableImplicitConversion: false },
    // Kept so fields of nested objects named alike say it once.
    exceptionFactory: (errors) => ApiError.badRequest(sentence([...new Set(flatten(errors))])),
  });
}

/**
 * A JSON array where a route takes an object (a DTO) is one clear 400 before validation: Nest
 * would otherwise validate an empty stand-in and list every required field (or answer in its own
 * words). Bare values never get here: the JSON parser is strict. Array DTOs (`Dto[]`) and
 * single-field bodies (`@Body('x')`) are not touched.
 */
class BodyValidationPipe extends ValidationPipe {
  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.data === undefined && Array.isArray(value) && metadata.metatype && this.toValidate(metadata)) {
      throw ApiError.badRequest(BODY_NOT_AN_OBJECT);
    }
    return super.transform(value, metadata);
  }
}
