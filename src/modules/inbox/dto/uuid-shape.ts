/**
 * A UUID for `@Matches` in body DTOs: the schema rules turn it into the field's `pattern`
 * (class-validator's `@IsUUID` has no counterpart in src/infra/http/schema-rules.ts). Without
 * flags, as JSON Schema patterns have none.
 */
export const UUID_SHAPE = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;
