import { ValidateIf } from 'class-validator';

/**
 * For fields that may be left out but are never `null`: an absent field skips the field's other
 * rules (a PATCH leaves it as stored, a create takes its default), while `null` runs them and
 * fails with the field's own message (400), as docs/api.md says. `@IsOptional()` would let
 * `null` through as if the field were absent (and the document then calls it nullable).
 */
export const OptionalNotNull = (): PropertyDecorator => ValidateIf((_object: object, value: unknown) => value !== undefined);
