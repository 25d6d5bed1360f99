import { ApiProperty } from '@nestjs/swagger';
import { AUTOMATION_TRIGGERS, MATCH_MODES } from '../automation-rules.js';
import { ActionDoc, ConditionDoc } from './automation.dto.js';

/** docs/content.md#automations: an automation, with its conditions and actions as stored (normalised). */
export class AutomationResponse {
  @ApiProperty({ format: 'uuid' })
  id: string;

  @ApiProperty()
  name: string;

  @ApiProperty()
  enabled: boolean;

  @ApiProperty({ enum: AUTOMATION_TRIGGERS })
  trigger: string;

  @ApiProperty({ enum: MATCH_MODES })
  match: string;

  @ApiProperty({ type: [ConditionDoc] })
  conditions: object[];

  @ApiProperty({ type: [ActionDoc] })
  actions: object[];

  @ApiProperty({ format: 'date-time' })
  created_at: string;

  @ApiProperty({ format: 'date-time' })
  updated_at: string;
}
