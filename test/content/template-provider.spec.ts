import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import type { ProviderTemplate } from '../../src/modules/content/templates/template-provider.port.js';
import { TemplateProviderError } from '../../src/modules/content/templates/template-provider.port.js';
import { TemplatesService } from '../../src/modules/content/templates/templates.service.js';
import { call } from '../inbox/inbox-http.js';
import type { FakeChannelGateway } from '../support/fake-channel-gateway.js';
import type { FakeTemplateGateway, FakeTemplateProvider } from '../support/fake-template-provider.js';
import type { InboxFactories } from '../support/inbox-factories.js';
import type { TestApp } from '../support/test-app.js';
import { type ContentWorkspace, contentWorkspace, createContentApp } from './content-support.js';

const NO_PROVIDER = { error: 'template sync needs a Cloud API number: this workspace has local templates only' };

const providerTemplate = (overrides: Partial<ProviderTemplate> = {}): ProviderTemplate => ({
  providerId: '1234567890',
  name: 'order_update',
  language: 'en_US',
  category: 'UTILITY',
  body: 'Hello {{1}}, order {{2}} has shipped.',
  status: 'APPROVED',
  quality: 'GREEN',
  ...overrides,
});

describe('templates through a provider (the Cloud API port)', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let gateway: FakeChannelGateway;
  let meta: FakeTemplateGateway;
  let provider: FakeTemplateProvider;
  let ws: ContentWorkspace;

  beforeAll(async () => {
    ({ t, inbox, gateway, meta, provider } = await createContentApp());
  });
  beforeEach(async () => {
    provider.reset();
    gateway.reset();
    meta.reset();
    ws = await contentWorkspace(t);
  });
  afterAll(async () => {
    await t?.close();
  });

  const list = async () => (await call(t, ws.key, 'get', '/api/templates')).body as Record<string, unknown>[];

  it('refuses a sync with 409 when no provider manages the workspace', async () => {
    const res = await call(t, ws.owner, 'post', '/api/templates/sync');
    expect({ status: res.status, body: res.body }).toEqual({ status: 409, body: NO_PROVIDER });
  });

  it("syncs the provider's first page by provider id, adopting a local template of the same name", async () => {
    const local = await call(t, ws.owner, 'post', '/api/templates', { name: 'welcome', language: 'en_US', body: 'Hi' });
    provider.manage(ws.workspaceId, [providerTemplate(), providerTemplate({ providerId: '42', name: 'welcome', body: 'Welcome {{1}}', quality: null })]);

    const res = await call(t, ws.owner, 'post', '/api/templates/sync');
    expect(res.status).toBe(200);
    expect(provider.listLimits).toEqual([100]);
    expect(res.body).toEqual([
      expect.objectContaining({ name: 'order_update', provider_id: '1234567890', status: 'APPROVED', quality: 'GREEN' }),
      {
        id: local.body.id,
        name: 'welcome',
        language: 'en_US',
        category: 'UTILITY',
        body: 'Welcome {{1}}',
        status: 'APPROVED',
        quality: null,
        provider_id: '42',
      },
    ]);

    // A second sync updates in place: no duplicates, the new status shows.
    provider.manage(ws.workspaceId, [providerTemplate({ status: 'PAUSED', quality: 'RED' })]);
    await call(t, ws.admin, 'post', '/api/templates/sync').expect(200);
    const after = await list();
    expect(after).toHaveLength(2);
    expect(after.find((row) => row.provider_id === '1234567890')).toMatchObject({ status: 'PAUSED', quality: 'RED' });
  });

  it('submits a create to the provider and stores what it answers', async () => {
    provider.manage(ws.workspaceId);
    const res = await call(t, ws.owner, 'post', '/api/templates', { name: 'promo', language: 'en_US', category: 'marketing', body: 'Sale: {{1}}' });
    expect(res.status).toBe(201);
    expect(provider.submitted).toEqual([
      { workspaceId: ws.workspaceId, input: { name: 'promo', language: 'en_US', category: 'MARKETING', body: 'Sale: {{1}}' } },
    ]);
    expect(res.body).toMatchObject({ name: 'promo', status: 'PENDING', quality: null, provider_id: expect.any(String) });
    expect(await list()).toEqual([res.body]);

    // A name and language the workspace has already is refused before it reaches the provider.
    const again = await call(t, ws.owner, 'post', '/api/templates', { name: 'promo', language: 'en_US', body: 'Other' });
    expect(again.status).toBe(409);
    expect(provider.submitted).toHaveLength(1);
  });

  it("answers the provider's refusal with 502 and its fields, and stores nothing", async () => {
    provider.manage(ws.workspaceId);
    provider.rejectWith(new TemplateProviderError('Invalid parameter', { code: 100, subcode: 2388023, title: 'Message template language is being deleted' }));
    const res = await call(t, ws.owner, 'post', '/api/templates', { name: 'promo', body: 'x' });
    expect({ status: res.status, body: res.body }).toEqual({
      status: 502,
      body: {
        error: 'provider rejected the template request: Invalid parameter',
        provider_code: 100,
        provider_subcode: 2388023,
        provider_title: 'Message template language is being deleted',
      },
    });
    expect(await list()).toEqual([]);
    const sync = await call(t, ws.owner, 'post', '/api/templates/sync');
    expect(sync.status).toBe(502);
    // Only the fields the provider gave.
    provider.rejectWith(new TemplateProviderError('Something went wrong'));
    const bare = await call(t, ws.owner, 'post', '/api/templates', { name: 'promo', body: 'x' });
    expect(bare.body).toEqual({ error: 'provider rejected the template request: Something went wrong' });
  });

  it('deletes at the provider first, and keeps the template when the provider refuses', async () => {
    provider.manage(ws.workspaceId, [providerTemplate()]);
    const [synced] = (await call(t, ws.owner, 'post', '/api/templates/sync')).body as { id: string }[];

    const patch = await call(t, ws.owner, 'patch', `/api/templates/${synced!.id}`, { body: 'edited' });
    expect({ status: patch.status, body: patch.body }).toEqual({
      status: 409,
      body: { error: "a provider's template cannot be changed here: edit it at the provider, then sync" },
    });

    provider.rejectWith(new TemplateProviderError('Template not deletable', { code: 100 }));
    expect((await call(t, ws.owner, 'delete', `/api/templates/${synced!.id}`)).status).toBe(502);
    expect(await list()).toHaveLength(1);

    provider.rejectWith(null);
    expect((await call(t, ws.owner, 'delete', `/api/templates/${synced!.id}`)).body).toEqual({ ok: true });
    expect(provider.removed).toEqual([{ workspaceId: ws.workspaceId, template: { providerId: '1234567890', name: 'order_update', language: 'en_US' } }]);
    expect(await list()).toEqual([]);
  });

  it("applies the provider's status and quality updates by provider id", async () => {
    provider.manage(ws.workspaceId, [providerTemplate({ status: 'PENDING', quality: null })]);
    await call(t, ws.owner, 'post', '/api/templates/sync').expect(200);
    const service = t.app.get(TemplatesService);

    expect(await service.applyProviderUpdate(ws.workspaceId, '1234567890', { status: 'approved' })).toMatchObject({ status: 'APPROVED', quality: null });
    expect(await service.applyProviderUpdate(ws.workspaceId, '1234567890', { quality: 'YELLOW' })).toMatchObject({ status: 'APPROVED', quality: 'YELLOW' });
    expect(await service.applyProviderUpdate(ws.workspaceId, 'unknown', { status: 'REJECTED' })).toBeNull();
    // Another workspace's provider id changes nothing here.
    const other = await contentWorkspace(t);
    expect(await service.applyProviderUpdate(other.workspaceId, '1234567890', { status: 'REJECTED' })).toBeNull();
    expect(await list()).toEqual([expect.objectContaining({ status: 'APPROVED', quality: 'YELLOW' })]);
  });

  it('sends a provider template by name on a meta conversation, and as text on a scan one', async () => {
    provider.manage(ws.workspaceId, [providerTemplate()]);
    const [synced] = (await call(t, ws.owner, 'post', '/api/templates/sync')).body as { id: string }[];
    const onMeta = await inbox.conversation(ws.workspaceId, { channel: 'meta' });
    const onScan = await inbox.conversation(ws.workspaceId);
    meta.connect(ws.workspaceId);
    gateway.connect(ws.workspaceId);

    const body = { type: 'template', template_id: synced!.id, parameters: ['Ada', 'A-7'] };
    const viaMeta = await call(t, ws.key, 'post', `/api/conversations/${onMeta.id}/messages`, body);
    expect(viaMeta.status).toBe(201);
    expect(viaMeta.body).toMatchObject({ content: 'Hello Ada, order A-7 has shipped.', status: 'sent', chat_message_id: 'wamid.FAKE1' });
    expect(meta.sentTemplates.map((s) => s.template)).toEqual([
      {
        name: 'order_update',
        language: 'en_US',
        parameters: [
          { key: '1', text: 'Ada' },
          { key: '2', text: 'A-7' },
        ],
        body: 'Hello Ada, order A-7 has shipped.',
        messageId: viaMeta.body.id,
      },
    ]);
    expect(meta.sent).toEqual([]);

    const viaScan = await call(t, ws.key, 'post', `/api/conversations/${onScan.id}/messages`, body);
    expect(viaScan.status).toBe(201);
    expect(gateway.sent.map((s) => s.outgoing)).toEqual([{ type: 'text', body: 'Hello Ada, order A-7 has shipped.', messageId: viaScan.body.id }]);
  });
});
