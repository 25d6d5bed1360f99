import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { ApiError } from '../../src/infra/http/api-error.js';
import { MetaTemplatesService } from '../../src/modules/meta/templates/meta-templates.service.js';
import { templateUpdateOf } from '../../src/modules/meta/templates/meta-template.mapper.js';
import { changesOf } from '../../src/modules/meta/callback/callback-payload.js';
import { callback, GRAPH_ERRORS, templateQualityUpdate, templateStatusUpdate } from '../fakes/graph-api/index.js';
import { connectedWorkspace, createMetaTestApp, type MetaTestApp } from './meta-support.js';

/** The provider side of templates (`/{waba_id}/message_templates`) against the fake Graph API. */
describe('cloud templates at the provider', () => {
  let m: MetaTestApp;
  let templates: MetaTemplatesService;
  beforeAll(async () => {
    m = await createMetaTestApp();
    templates = m.t.app.get(MetaTemplatesService);
  });
  afterAll(async () => {
    await m?.close();
  });

  it('lists the first page, up to 100, in the inbox’s words', async () => {
    const w = await connectedWorkspace(m);
    for (let i = 0; i < 120; i++) m.graph.world.addTemplate(w.wabaId, { name: `t_${i}`, components: [{ type: 'HEADER', format: 'TEXT', text: 'Hi' }, { type: 'BODY', text: `Body {{1}} ${i}` }], quality: i === 0 ? 'GREEN' : undefined });
    m.graph.reset();
    const listed = await templates.list(w.workspaceId);
    expect(listed).toHaveLength(100);
    expect(listed[0]).toEqual({ providerId: expect.any(String), name: 't_0', language: 'en_US', category: 'UTILITY', body: 'Body {{1}} 0', status: 'APPROVED', quality: 'GREEN' });
    expect(listed[1]!.quality).toBe('UNKNOWN');
    expect(m.graph.received().map((r) => [r.path, r.query.limit, r.token])).toEqual([[`/${w.wabaId}/message_templates`, '100', w.token]]);
  });

  it('submits a template with sample values for its parameters', async () => {
    const w = await connectedWorkspace(m);
    const created = await templates.submit(w.workspaceId, { name: 'order_update', language: 'en_US', category: 'utility', body: 'Hi {{1}}, order {{2}} shipped', examples: ['Ada'] });
    expect(created).toEqual({ providerId: expect.any(String), name: 'order_update', language: 'en_US', category: 'UTILITY', body: 'Hi {{1}}, order {{2}} shipped', status: 'PENDING', quality: 'UNKNOWN' });
    const [request] = m.graph.received({ method: 'POST', path: `/${w.wabaId}/message_templates` });
    expect(request!.json).toEqual({
      name: 'order_update',
      language: 'en_US',
      category: 'UTILITY',
      components: [{ type: 'BODY', text: 'Hi {{1}}, order {{2}} shipped', example: { body_text: [['Ada', 'sample 2']] } }],
    });
  });

  it('answers a rejection with 502 provider rejected the template request and the provider fields', async () => {
    const w = await connectedWorkspace(m);
    m.graph.world.addTemplate(w.wabaId, { name: 'welcome' });
    const rejected = await templates.submit(w.workspaceId, { name: 'welcome', language: 'en_US', category: 'MARKETING', body: 'Hello' }).catch((e: unknown) => e);
    expect(rejected).toBeInstanceOf(ApiError);
    expect([(rejected as ApiError).getStatus(), (rejected as ApiError).getResponse()]).toEqual([
      502,
      {
        error: 'provider rejected the template request: There is already English (US) content for this template. You can create a new template and try again.',
        provider_code: 100,
        provider_subcode: 2388024,
        provider_title: 'Message template already exists',
      },
    ]);
    m.graph.failNext({ method: 'GET', path: `/${w.wabaId}/message_templates` }, GRAPH_ERRORS.rateLimited);
    const failed = (await templates.list(w.workspaceId).catch((e: unknown) => e)) as ApiError;
    expect([failed.getStatus(), failed.getResponse()]).toEqual([502, { error: 'provider rejected the template request: (#130429) Rate limit hit', provider_code: 130429, provider_title: 'Rate limit hit' }]);
  });

  it('deletes a template at the provider by name and id', async () => {
    const w = await connectedWorkspace(m);
    const stored = m.graph.world.addTemplate(w.wabaId, { name: 'bye' });
    await templates.remove(w.workspaceId, { name: 'bye', providerId: stored.id });
    expect(m.graph.world.templates.get(w.wabaId)).toEqual([]);
    const [request] = m.graph.received({ method: 'DELETE' });
    expect(request!.query).toEqual({ name: 'bye', hsm_id: stored.id });
  });

  it('reads status and quality updates from a callback', () => {
    const changes = changesOf(
      callback({
        wabaId: '102290129340398',
        changes: [
          templateStatusUpdate({ id: 594425479261596, name: 'order_update', event: 'APPROVED' }),
          templateQualityUpdate({ id: '594425479261596', name: 'order_update', previous: 'GREEN', quality: 'YELLOW' }),
        ],
      }),
    );
    expect(changes.map(templateUpdateOf)).toEqual([
      { wabaId: '102290129340398', providerId: '594425479261596', name: 'order_update', language: 'en_US', status: 'APPROVED' },
      { wabaId: '102290129340398', providerId: '594425479261596', name: 'order_update', language: 'en_US', quality: 'YELLOW' },
    ]);
  });
});
