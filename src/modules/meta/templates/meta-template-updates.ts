import { Injectable, Logger } from '@nestjs/common';
import { isDependencyUnavailable } from '../../../infra/http/dependency-errors.js';
import { TemplatesService } from '../../content/templates/templates.service.js';
import type { CallbackChange } from '../callback/callback-payload.js';
import { templateUpdateOf } from './meta-template.mapper.js';

/**
 * `message_template_status_update` and `message_template_quality_update` of a callback, applied
 * to the workspace's stored template with that provider id (a template the workspace has not
 * synced yet is left to the next sync). Applying one twice changes nothing.
 */
@Injectable()
export class MetaTemplateUpdates {
  private readonly logger = new Logger('MetaTemplates');

  constructor(private readonly templates: TemplatesService) {}

  async apply(workspaceId: string, change: CallbackChange): Promise<void> {
    const update = templateUpdateOf(change);
    if (!update) return;
    try {
      await this.templates.applyProviderUpdate(workspaceId, update.providerId, { status: update.status, quality: update.quality });
    } catch (error) {
      // An outage fails the job (retried); anything else is this one update's problem.
      if (isDependencyUnavailable(error)) throw error;
      this.logger.error({ err: error, workspaceId, providerId: update.providerId }, 'template update not applied');
    }
  }
}
