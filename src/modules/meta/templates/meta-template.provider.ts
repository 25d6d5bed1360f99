import { Injectable, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import {
  type ProviderTemplate,
  type ProviderTemplateRef,
  type TemplateProvider,
  TemplateProviderError,
  type TemplateSubmission,
} from '../../content/templates/template-provider.port.js';
import { TemplateProviders } from '../../content/templates/template-providers.js';
import { NOT_CONNECTED } from '../../inbox/messages/send-message.service.js';
import { GraphApi } from '../graph/graph-api.js';
import { GraphApiError, GraphUnreachableError, INVALID_TOKEN_CODE } from '../graph/graph-error.js';
import { type MetaCredentials, MetaSettingsService } from '../settings/meta-settings.service.js';
import { fromGraphTemplate, toGraphTemplate } from './meta-template.mapper.js';

/**
 * The Cloud API side of a workspace's templates (`/{waba_id}/message_templates`), registered with
 * the content module's `TemplateProviders`: it manages the templates of every workspace with a
 * Cloud API number. A refusal is a `TemplateProviderError` with the provider's text and fields
 * (the content routes answer 502); a number whose token was refused is 409 `chat is not
 * connected` until its settings are saved again, as for sends.
 */
@Injectable()
export class MetaTemplateProvider implements TemplateProvider, OnModuleInit, OnModuleDestroy {
  private unregister: (() => void) | null = null;

  constructor(
    private readonly registry: TemplateProviders,
    private readonly settings: MetaSettingsService,
    private readonly graph: GraphApi,
  ) {}

  onModuleInit(): void {
    this.unregister = this.registry.register(this);
  }

  onModuleDestroy(): void {
    this.unregister?.();
  }

  handles(workspaceId: string): Promise<boolean> {
    return this.settings.hasNumber(workspaceId);
  }

  async list(workspaceId: string, limit: number): Promise<ProviderTemplate[]> {
    const templates = await this.withProvider(workspaceId, (c) => this.graph.templates(c.token, c.wabaId, limit));
    return templates.slice(0, limit).map(fromGraphTemplate);
  }

  async submit(workspaceId: string, input: TemplateSubmission): Promise<ProviderTemplate> {
    const created = await this.withProvider(workspaceId, (c) => this.graph.createTemplate(c.token, c.wabaId, toGraphTemplate(input)));
    return {
      providerId: String(created.id),
      name: input.name,
      language: input.language,
      category: (created.category ?? input.category).toUpperCase(),
      body: input.body,
      status: (created.status ?? 'PENDING').toUpperCase(),
      quality: null,
    };
  }

  /**
   * Deletes the one template (name and id: by name alone the provider would delete every
   * language). When the provider refuses, a template it no longer has (deleted in WhatsApp
   * Manager) counts as deleted, so the inbox can let go of it too.
   */
  async remove(workspaceId: string, template: ProviderTemplateRef): Promise<void> {
    await this.withProvider(workspaceId, async (c) => {
      try {
        await this.graph.deleteTemplate(c.token, c.wabaId, template.name, template.providerId);
      } catch (error) {
        if (!(error instanceof GraphApiError) || error.code === INVALID_TOKEN_CODE) throw error;
        if (!(await this.gone(c.token, template.providerId))) throw error;
      }
    });
  }

  /** Whether the provider answers that the template does not exist (or is being deleted). */
  private async gone(token: string, providerId: string): Promise<boolean> {
    try {
      const status = (await this.graph.template(token, providerId)).status?.toUpperCase();
      return status === 'DELETED' || status === 'PENDING_DELETION';
    } catch (error) {
      return error instanceof GraphApiError && error.isUnknownObject;
    }
  }

  private async withProvider<T>(workspaceId: string, call: (credentials: MetaCredentials) => Promise<T>): Promise<T> {
    const credentials = await this.settings.credentials(workspaceId);
    if (!credentials?.connected) throw ApiError.conflict(NOT_CONNECTED);
    try {
      return await call(credentials);
    } catch (error) {
      if (error instanceof GraphApiError) {
        if (error.code === INVALID_TOKEN_CODE) await this.settings.tokenRefused(workspaceId, error.message);
        const { provider_code: code, provider_subcode: subcode, provider_title: title } = error.providerFields;
        throw new TemplateProviderError(error.message, { code, subcode, title });
      }
      if (error instanceof GraphUnreachableError) throw new TemplateProviderError(error.message, {}, error.noAnswer);
      throw error;
    }
  }
}
