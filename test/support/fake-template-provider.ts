import { Injectable, type OnModuleInit } from '@nestjs/common';
import type { ChannelConversation, ChannelName, OutgoingTemplate, SendReceipt } from '../../src/modules/channels/channel-gateway.port.js';
import {
  type ProviderTemplate,
  type ProviderTemplateRef,
  type TemplateProvider,
  TemplateProviderError,
  type TemplateSubmission,
} from '../../src/modules/content/templates/template-provider.port.js';
import { TemplateProviders } from '../../src/modules/content/templates/template-providers.js';
import { FakeChannelGateway } from './fake-channel-gateway.js';

/**
 * An in-memory template provider, as the Cloud API module registers one: it manages the
 * templates of the workspaces passed to `manage()`, serves `templates` as its first page, and
 * records submissions and removals. `rejectWith()` makes every call fail as the provider would.
 */
@Injectable()
export class FakeTemplateProvider implements TemplateProvider, OnModuleInit {
  readonly managed = new Set<string>();
  /** The provider's templates per workspace, as `list` answers them. */
  readonly templates = new Map<string, ProviderTemplate[]>();
  readonly submitted: { workspaceId: string; input: TemplateSubmission }[] = [];
  readonly removed: { workspaceId: string; template: ProviderTemplateRef }[] = [];
  listLimits: number[] = [];
  private rejection: TemplateProviderError | null = null;
  private counter = 0;

  constructor(private readonly registry: TemplateProviders) {}

  onModuleInit(): void {
    this.registry.register(this);
  }

  manage(workspaceId: string, templates: ProviderTemplate[] = []): void {
    this.managed.add(workspaceId);
    this.templates.set(workspaceId, templates);
  }

  rejectWith(error: TemplateProviderError | null): void {
    this.rejection = error;
  }

  reset(): void {
    this.managed.clear();
    this.templates.clear();
    this.submitted.length = 0;
    this.removed.length = 0;
    this.listLimits = [];
    this.rejection = null;
  }

  async handles(workspaceId: string): Promise<boolean> {
    return this.managed.has(workspaceId);
  }

  async list(workspaceId: string, limit: number): Promise<ProviderTemplate[]> {
    this.fail();
    this.listLimits.push(limit);
    return (this.templates.get(workspaceId) ?? []).slice(0, limit);
  }

  async submit(workspaceId: string, input: TemplateSubmission): Promise<ProviderTemplate> {
    this.fail();
    this.submitted.push({ workspaceId, input });
    const template = { ...input, providerId: `${9_000_000 + ++this.counter}`, status: 'PENDING', quality: null };
    this.templates.set(workspaceId, [...(this.templates.get(workspaceId) ?? []), template]);
    return template;
  }

  async remove(workspaceId: string, template: ProviderTemplateRef): Promise<void> {
    this.fail();
    this.removed.push({ workspaceId, template });
  }

  private fail(): void {
    if (this.rejection) throw this.rejection;
  }
}

export interface SentTemplateRecord {
  workspaceId: string;
  conversation: ChannelConversation;
  template: OutgoingTemplate;
  externalId: string;
}

/** The in-memory gateway as a `meta` channel that can send provider templates by name. */
@Injectable()
export class FakeTemplateGateway extends FakeChannelGateway {
  override readonly channel: ChannelName = 'meta';
  readonly sentTemplates: SentTemplateRecord[] = [];
  private templateCounter = 0;

  async sendTemplate(workspaceId: string, conversation: ChannelConversation, template: OutgoingTemplate): Promise<SendReceipt> {
    const externalId = `wamid.FAKE${++this.templateCounter}`;
    this.sentTemplates.push({ workspaceId, conversation, template, externalId });
    return { externalId };
  }

  override reset(): void {
    super.reset();
    this.sentTemplates.length = 0;
  }
}
