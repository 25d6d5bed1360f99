import { Injectable } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { GraphApi } from '../graph/graph-api.js';
import { GraphApiError, INVALID_TOKEN_CODE } from '../graph/graph-error.js';
import { providerFailure } from '../provider-errors.js';
import { type MetaCredentials, MetaSettingsService } from '../settings/meta-settings.service.js';
import { fromGraphTemplate, type ProviderTemplate, type TemplateDraft, toGraphTemplate } from './meta-template.mapper.js';

export const TEMPLATE_REJECTED = 'provider rejected the template request';
export const NO_CLOUD_NUMBER = 'templates need a connected cloud number';

/** The template sync reads the first page from the provider, up to this many (contract section 8). */
export const TEMPLATE_SYNC_LIMIT = 100;

/**
 * The provider side of a cloud workspace's templates (`/{waba_id}/message_templates`): list the
 * first page, submit one for review, delete one. A provider refusal is the contract's 502
 * `provider rejected the template request: <provider text>` with the provider fields.
 */
@Injectable()
export class MetaTemplatesService {
  constructor(
    private readonly settings: MetaSettingsService,
    private readonly graph: GraphApi,
  ) {}

  async list(workspaceId: string): Promise<ProviderTemplate[]> {
    const templates = await this.withProvider(workspaceId, (c) => this.graph.templates(c.token, c.wabaId, TEMPLATE_SYNC_LIMIT));
    return templates.slice(0, TEMPLATE_SYNC_LIMIT).map(fromGraphTemplate);
  }

  async submit(workspaceId: string, draft: TemplateDraft): Promise<ProviderTemplate> {
    const created = await this.withProvider(workspaceId, (c) => this.graph.createTemplate(c.token, c.wabaId, toGraphTemplate(draft)));
    return {
      providerId: String(created.id),
      name: draft.name,
      language: draft.language,
      category: (created.category ?? draft.category).toUpperCase(),
      body: draft.body,
      status: (created.status ?? 'PENDING').toUpperCase(),
      quality: 'UNKNOWN',
    };
  }

  async remove(workspaceId: string, template: { name: string; providerId: string | null }): Promise<void> {
    await this.withProvider(workspaceId, (c) => this.graph.deleteTemplate(c.token, c.wabaId, template.name, template.providerId ?? undefined));
  }

  private async withProvider<T>(workspaceId: string, call: (credentials: MetaCredentials) => Promise<T>): Promise<T> {
    const credentials = await this.settings.credentials(workspaceId);
    if (!credentials?.connected) throw ApiError.conflict(NO_CLOUD_NUMBER);
    try {
      return await call(credentials);
    } catch (error) {
      if (error instanceof GraphApiError && error.code === INVALID_TOKEN_CODE) await this.settings.tokenRefused(workspaceId, error.message);
      throw providerFailure(TEMPLATE_REJECTED, error);
    }
  }
}
