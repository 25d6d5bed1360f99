import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { Allow, IsBoolean, IsIn, IsOptional, Length } from 'class-validator';
import {
  ACTION_TYPES,
  AUTOMATION_TRIGGERS,
  type AutomationTrigger,
  CONDITION_FIELDS,
  CONDITION_OPS,
  MATCH_MODES,
  MAX_ACTIONS,
  MAX_CONDITIONS,
  type MatchMode,
} from '../automation-rules.js';
import { OptionalNotNull } from '../../../../infra/http/optional-not-null.decorator.js';
import { ACTION_ITEM, CONDITION_ITEM } from './automation-request.schema.js';

const trim = ({ value }: { value: unknown }): unknown => (typeof value === 'string' ? value.trim() : value);
const NAME = 'name is required (1 to 100 characters)';
const ENABLED = 'enabled must be true or false';
const TRIGGER = 'trigger must be message.inbound or conversation.created';
const MATCH = 'match must be all or any';

/** The OpenAPI picture of a condition; the service validates it (`parseConditions`). */
export class ConditionDoc {
  @ApiProperty({ enum: CONDITION_FIELDS })
  field: string;

  @ApiProperty({ enum: CONDITION_OPS, description: '`is_group` supports only `equals`' })
  op: string;

  @ApiProperty({
    oneOf: [{ type: 'string' }, { type: 'boolean' }],
    description: 'a string (a case-insensitive regular expression for `matches`), or true/false for `is_group`',
  })
  value: string | boolean;
}

/** The OpenAPI picture of an action; the service validates it (`parseActions`). */
export class ActionDoc {
  @ApiProperty({ enum: ACTION_TYPES })
  type: string;

  @ApiPropertyOptional({ description: '`reply`: the text to send' })
  body?: string;

  @ApiPropertyOptional({ format: 'uuid', description: '`reply_template`: the template to send' })
  template_id?: string;

  @ApiPropertyOptional({ type: [String], description: "`reply_template`: the template's parameters" })
  parameters?: string[];

  @ApiPropertyOptional({ format: 'uuid', nullable: true, type: String, description: '`assign`: a member, or null to unassign' })
  user_id?: string | null;

  @ApiPropertyOptional({ minimum: 0, maximum: 1, description: '`answer_from_knowledge`: rank needed (default `KNOWLEDGE_ANSWER_MIN_RANK`)' })
  min_rank?: number;

  @ApiPropertyOptional({ format: 'uuid', description: '`add_label`: the label to put on the conversation' })
  label_id?: string;

  @ApiPropertyOptional({ enum: ['open', 'pending', 'snoozed', 'closed'], description: '`set_status`: the status to set' })
  status?: string;

  @ApiPropertyOptional({ minimum: 1, maximum: 525_600, description: '`set_status` with `snoozed` (required then): minutes until it opens again' })
  snooze_minutes?: number;
}

/** `POST /api/automations`. */
export class CreateAutomationDto {
  @ApiProperty({ example: 'Refund keyword', minLength: 1, maxLength: 100 })
  @Transform(trim)
  @Length(1, 100, { message: NAME })
  name: string;

  @ApiPropertyOptional({ default: true })
  @OptionalNotNull()
  @IsBoolean({ message: ENABLED })
  enabled?: boolean;

  @ApiProperty({ enum: AUTOMATION_TRIGGERS })
  @IsIn(AUTOMATION_TRIGGERS, { message: TRIGGER })
  trigger: AutomationTrigger;

  @ApiPropertyOptional({ enum: MATCH_MODES, default: 'all' })
  @OptionalNotNull()
  @IsIn(MATCH_MODES, { message: MATCH })
  match?: MatchMode;

  @ApiPropertyOptional({
    type: 'array',
    items: CONDITION_ITEM,
    nullable: true,
    maxItems: MAX_CONDITIONS,
    description: 'none (absent, `null` or `[]`): the automation runs on every trigger',
  })
  @IsOptional()
  conditions?: unknown;

  @ApiProperty({ type: 'array', items: ACTION_ITEM, minItems: 1, maxItems: MAX_ACTIONS, description: 'run in order' })
  @Allow()
  actions: unknown;
}

/**
 * `PATCH /api/automations/:id`: the fields present replace the stored ones (lists as a whole).
 * `null` clears the conditions (the automation then runs on every trigger) and is 400 elsewhere.
 */
export class UpdateAutomationDto {
  @ApiPropertyOptional({ minLength: 1, maxLength: 100 })
  @OptionalNotNull()
  @Transform(trim)
  @Length(1, 100, { message: NAME })
  name?: string;

  @ApiPropertyOptional()
  @OptionalNotNull()
  @IsBoolean({ message: ENABLED })
  enabled?: boolean;

  @ApiPropertyOptional({ enum: AUTOMATION_TRIGGERS })
  @OptionalNotNull()
  @IsIn(AUTOMATION_TRIGGERS, { message: TRIGGER })
  trigger?: AutomationTrigger;

  @ApiPropertyOptional({ enum: MATCH_MODES })
  @OptionalNotNull()
  @IsIn(MATCH_MODES, { message: MATCH })
  match?: MatchMode;

  @ApiPropertyOptional({
    type: 'array',
    items: CONDITION_ITEM,
    nullable: true,
    maxItems: MAX_CONDITIONS,
    description: '`null` or `[]` removes every condition',
  })
  @IsOptional()
  conditions?: unknown;

  @ApiPropertyOptional({ type: 'array', items: ACTION_ITEM, minItems: 1, maxItems: MAX_ACTIONS, description: 'cannot be emptied (`null` is 400)' })
  @OptionalNotNull()
  actions?: unknown;
}
