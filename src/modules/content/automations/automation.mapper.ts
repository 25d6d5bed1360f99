import type { AutomationResponse } from './dto/automation.response.js';
import type { AutomationEntity } from './entities/automation.entity.js';

export type AutomationRow = Omit<AutomationEntity, 'workspace'>;

export function toAutomationResponse(row: AutomationRow): AutomationResponse {
  return {
    id: row.id,
    name: row.name,
    enabled: row.enabled,
    trigger: row.trigger,
    match: row.match,
    conditions: row.conditions,
    actions: row.actions,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
