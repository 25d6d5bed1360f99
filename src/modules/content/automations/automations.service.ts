import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { LabelsService } from '../../inbox/labels/labels.service.js';
import { MembershipRepository } from '../../tenants/members/membership.repository.js';
import { TemplatesService } from '../templates/templates.service.js';
import { AutomatedWorkspaces } from './automated-workspaces.js';
import { toAutomationResponse } from './automation.mapper.js';
import { type AutomationFields, AutomationRepository } from './automation.repository.js';
import { type Action, parseActions, parseConditions } from './automation-rules.js';
import type { CreateAutomationDto, UpdateAutomationDto } from './dto/automation.dto.js';
import type { AutomationResponse } from './dto/automation.response.js';

/** Listed like every content list: the 500 newest. */
export const AUTOMATION_LIST_CAP = 500;
export const AUTOMATION_NOT_FOUND = 'automation not found';

@Injectable()
export class AutomationsService {
  constructor(
    private readonly automations: AutomationRepository,
    private readonly templates: TemplatesService,
    private readonly memberships: MembershipRepository,
    private readonly automated: AutomatedWorkspaces,
    private readonly labels: LabelsService,
  ) {}

  async list(workspaceId: string): Promise<AutomationResponse[]> {
    return (await this.automations.list(workspaceId, AUTOMATION_LIST_CAP)).map(toAutomationResponse);
  }

  async create(workspaceId: string, dto: CreateAutomationDto): Promise<AutomationResponse> {
    const fields: AutomationFields = {
      name: dto.name,
      enabled: dto.enabled ?? true,
      trigger: dto.trigger,
      match: dto.match ?? 'all',
      conditions: dto.conditions === undefined || dto.conditions === null ? [] : parseConditions(dto.conditions),
      actions: parseActions(dto.actions),
    };
    await this.checkReferences(workspaceId, fields.actions);
    const created = await this.automations.insert(workspaceId, fields);
    this.automated.forget(workspaceId);
    return toAutomationResponse(created);
  }

  /** The fields present replace the stored ones; conditions and actions as whole lists. */
  async update(workspaceId: string, id: string, dto: UpdateAutomationDto): Promise<AutomationResponse> {
    const changes: Partial<AutomationFields> = {
      name: dto.name ?? undefined,
      enabled: dto.enabled ?? undefined,
      trigger: dto.trigger ?? undefined,
      match: dto.match ?? undefined,
      conditions: dto.conditions === undefined ? undefined : dto.conditions === null ? [] : parseConditions(dto.conditions),
      // Actions cannot be emptied: `null` is refused by parseActions like any other non-list.
      actions: dto.actions === undefined ? undefined : parseActions(dto.actions),
    };
    if (changes.actions) await this.checkReferences(workspaceId, changes.actions);
    const updated = await this.automations.update(workspaceId, id, changes);
    if (!updated) throw ApiError.notFound(AUTOMATION_NOT_FOUND);
    this.automated.forget(workspaceId);
    return toAutomationResponse(updated);
  }

  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    if (!(await this.automations.delete(workspaceId, id))) throw ApiError.notFound(AUTOMATION_NOT_FOUND);
    this.automated.forget(workspaceId);
    return { ok: true };
  }

  /**
   * What the actions name must exist when the automation is saved: the template (with the right
   * parameters), the assignee and the label. Any may go away later; the action is then skipped and logged.
   */
  private async checkReferences(workspaceId: string, actions: readonly Action[]): Promise<void> {
    for (const [index, action] of actions.entries()) {
      if (action.type === 'reply_template') {
        try {
          await this.templates.render(workspaceId, action.template_id, action.parameters);
        } catch (error) {
          if (error instanceof ApiError) throw ApiError.badRequest(`actions[${index}]: ${error.text}`);
          throw error;
        }
      }
      if (action.type === 'add_label' && !(await this.labels.exists(workspaceId, action.label_id))) {
        throw ApiError.badRequest(`actions[${index}].label_id: label not found`);
      }
      if (action.type === 'assign' && action.user_id && !(await this.memberships.find(workspaceId, action.user_id))) {
        throw ApiError.badRequest(`actions[${index}].user_id: assignee must be a member of this workspace`);
      }
    }
  }
}
