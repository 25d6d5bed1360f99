import { Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { ApiError } from '../../../infra/http/api-error.js';
import { MessageTemplates, type RenderedTemplate, type TemplateRenderer } from '../../inbox/messages/message-templates.js';
import type { CreateTemplateDto, UpdateTemplateDto } from './dto/template.dto.js';
import type { TemplateResponse } from './dto/template.response.js';
import type { TemplateEntity } from './entities/template.entity.js';
import { bindParameters, fillBody, localBodyProblem } from './template-body.js';
import { toTemplateResponse } from './template.mapper.js';
import { type TemplateFields, TemplateRepository, type TemplateWrite } from './template.repository.js';
import { TemplateProviderError, type TemplateProvider } from './template-provider.port.js';
import { TemplateProviders } from './template-providers.js';

/** docs/contract.md#limits: templates are listed 500 newest; a sync takes the provider's first page, up to 100. */
export const TEMPLATE_LIST_CAP = 500;
export const TEMPLATE_SYNC_LIMIT = 100;
export const TEMPLATE_NOT_FOUND = 'template not found';
export const TEMPLATE_EXISTS = 'a template with this name and language already exists';
export const NO_PROVIDER = 'template sync needs a Cloud API number: this workspace has local templates only';
export const PROVIDER_TEMPLATE_READ_ONLY = "a provider's template cannot be changed here: edit it at the provider, then sync";

/** Templates: the routes' rules, the inbox's renderer for template sends, and the provider's entry points. */
@Injectable()
export class TemplatesService implements TemplateRenderer, OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('Templates');
  private unplug: (() => void) | null = null;

  constructor(
    private readonly templates: TemplateRepository,
    private readonly providers: TemplateProviders,
    private readonly messageTemplates: MessageTemplates,
  ) {}

  onModuleInit(): void {
    this.unplug = this.messageTemplates.provide(this);
  }

  onModuleDestroy(): void {
    this.unplug?.();
  }

  async list(workspaceId: string): Promise<TemplateResponse[]> {
    return (await this.templates.list(workspaceId, TEMPLATE_LIST_CAP)).map(toTemplateResponse);
  }

  /** A local template, or on a Cloud API workspace one submitted to the provider first (502 when it refuses). */
  async create(workspaceId: string, dto: CreateTemplateDto): Promise<TemplateResponse> {
    const fields: TemplateFields = { name: dto.name, language: dto.language ?? 'en', category: dto.category ?? 'UTILITY', body: dto.body };
    const provider = await this.providers.for(workspaceId);
    if (!provider) {
      const problem = localBodyProblem(fields.body);
      if (problem) throw ApiError.badRequest(problem);
      return toTemplateResponse(written(await this.templates.insert(workspaceId, fields)));
    }
    // Refused before it reaches the provider, which would otherwise hold a template the inbox cannot list.
    if (await this.templates.exists(workspaceId, fields.name, fields.language)) throw ApiError.conflict(TEMPLATE_EXISTS);
    const submitted = await providerCall(() => provider.submit(workspaceId, { ...fields }));
    return toTemplateResponse(await this.templates.upsertFromProvider(workspaceId, submitted));
  }

  async update(workspaceId: string, id: string, dto: UpdateTemplateDto): Promise<TemplateResponse> {
    const problem = dto.body ? localBodyProblem(dto.body) : null;
    if (problem) throw ApiError.badRequest(problem);
    const current = await this.require(workspaceId, id);
    if (current.providerId) throw ApiError.conflict(PROVIDER_TEMPLATE_READ_ONLY);
    const changes = { name: dto.name ?? undefined, language: dto.language ?? undefined, category: dto.category ?? undefined, body: dto.body ?? undefined };
    const updated = await this.templates.update(workspaceId, id, changes);
    if (!updated) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
    return toTemplateResponse(written(updated));
  }

  /** A provider's template is deleted at the provider first (while the workspace still has one). */
  async delete(workspaceId: string, id: string): Promise<{ ok: true }> {
    const template = await this.require(workspaceId, id);
    if (template.providerId) {
      const provider = await this.providers.for(workspaceId);
      if (provider) {
        const ref = { providerId: template.providerId, name: template.name, language: template.language };
        await providerCall(() => provider.remove(workspaceId, ref));
      }
    }
    if (!(await this.templates.delete(workspaceId, id))) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
    return { ok: true };
  }

  /** The provider's first page (up to 100), stored by provider id; answers the templates synced. */
  async sync(workspaceId: string): Promise<TemplateResponse[]> {
    const provider = await this.requireProvider(workspaceId);
    const page = await providerCall(() => provider.list(workspaceId, TEMPLATE_SYNC_LIMIT));
    const synced: TemplateResponse[] = [];
    for (const template of page.slice(0, TEMPLATE_SYNC_LIMIT)) {
      synced.push(toTemplateResponse(await this.templates.upsertFromProvider(workspaceId, template)));
    }
    return synced;
  }

  /**
   * For the provider's callbacks (`message_template_status_update`, `…_quality_update`): moves the
   * stored template with this provider id; null when the workspace has none (sync picks it up).
   */
  async applyProviderUpdate(workspaceId: string, providerId: string, update: { status?: string; quality?: string }): Promise<TemplateResponse | null> {
    const updated = await this.templates.applyProviderUpdate(workspaceId, providerId, {
      status: update.status?.toUpperCase(),
      quality: update.quality?.toUpperCase(),
    });
    if (!updated) this.logger.debug({ workspaceId, providerId }, 'provider update for a template that is not stored');
    return updated ? toTemplateResponse(updated) : null;
  }

  /** `TemplateRenderer` of the inbox: a send's template, filled in (404 unknown, 400 parameters). */
  async render(workspaceId: string, templateId: string, values: readonly string[]): Promise<RenderedTemplate> {
    const template = await this.require(workspaceId, templateId);
    const parameters = bindParameters(template.body, values);
    const body = fillBody(template.body, parameters);
    return {
      body,
      provider: template.providerId ? { name: template.name, language: template.language, parameters } : null,
    };
  }

  private async require(workspaceId: string, id: string): Promise<TemplateEntity> {
    const template = await this.templates.find(workspaceId, id);
    if (!template) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
    return template;
  }

  private async requireProvider(workspaceId: string): Promise<TemplateProvider> {
    const provider = await this.providers.for(workspaceId);
    if (!provider) throw ApiError.conflict(NO_PROVIDER);
    return provider;
  }
}

function written(result: TemplateWrite): TemplateEntity {
  if (result === 'conflict') throw ApiError.conflict(TEMPLATE_EXISTS);
  return result;
}

/** The contract's 502 for a provider's refusal, with the provider's fields it gave; its 503 when the provider gave no answer. */
async function providerCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TemplateProviderError)) throw error;
    if (error.unavailable) throw new ApiError(503, error.message);
    const { code, subcode, title } = error.details;
    throw new ApiError(502, `provider rejected the template request: ${error.message}`, {
      ...(code !== undefined ? { provider_code: code } : {}),
      ...(subcode !== undefined ? { provider_subcode: subcode } : {}),
      ...(title !== undefined ? { provider_title: title } : {}),
    });
  }
}
