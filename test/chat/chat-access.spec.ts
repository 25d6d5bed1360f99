import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { chat, createChatApp, type ChatCaller, type ChatTestApp } from './chat-support.js';

type Who = 'readKey' | 'writeKey' | 'owner' | 'admin' | 'agent' | 'outsider' | 'none';

const CONSOLE_DENIALS: [Who, number, string][] = [
  ['readKey', 403, 'API keys cannot administer workspaces'],
  ['writeKey', 403, 'API keys cannot administer workspaces'],
  ['agent', 403, 'admin required'],
  ['outsider', 403, 'forbidden'],
  ['none', 401, 'unauthorized'],
];

// The contract's endpoints: docs/contract.md#endpoints.
describe('chat endpoints: who may call them (contract section 4)', () => {
  let t: ChatTestApp;
  let callers: Record<Who, ChatCaller>;

  beforeAll(async () => {
    t = await createChatApp();
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    const session = async (role: 'admin' | 'agent'): Promise<ChatCaller> => ({
      cookie: (await t.factories.signedInMember(workspace.id, role)).cookie,
      workspaceId: workspace.id,
    });
    const stranger = await t.factories.user();
    callers = {
      readKey: { key: (await t.factories.apiKey(workspace.id, 'read')).key },
      writeKey: { key },
      owner: { cookie: owner.cookie, workspaceId: workspace.id },
      admin: await session('admin'),
      agent: await session('agent'),
      outsider: { cookie: await t.factories.sessionCookie(stranger.id), workspaceId: workspace.id },
      none: 'none',
    };
  });
  afterAll(async () => {
    await t?.close();
  });

  it.each(['/api/chat/connect', '/api/chat/disconnect'])('%s refuses keys, agents, non-members and anonymous callers', async (path) => {
    for (const [who, status, error] of CONSOLE_DENIALS) {
      const res = await chat(t, callers[who], 'post', path);
      expect({ who, status: res.status, body: res.body }).toEqual({ who, status, body: { error } });
    }
  });

  it('connect and disconnect work for the owner and an admin', async () => {
    const owner = await chat(t, callers.owner, 'post', '/api/chat/connect');
    expect(owner.status).toBe(200);
    expect(owner.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    const admin = await chat(t, callers.admin, 'post', '/api/chat/connect');
    expect(admin.status).toBe(200);
    expect(admin.body).toEqual({ connected: false, logged_in: false, qr_pending: true });
    const off = await chat(t, callers.admin, 'post', '/api/chat/disconnect');
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ connected: false, logged_in: false, qr_pending: false });
    expect((await chat(t, callers.owner, 'post', '/api/chat/disconnect')).body).toEqual({ connected: false, logged_in: false, qr_pending: false });
  });

  it.each(['/api/chat/qr', '/api/chat/status'])('%s answers keys of either scope and every member', async (path) => {
    for (const who of ['readKey', 'writeKey', 'owner', 'admin', 'agent'] as const) {
      const res = await chat(t, callers[who], 'get', path);
      expect({ who, status: res.status }).toEqual({ who, status: 200 });
      expect(res.body).toMatchObject(path.endsWith('qr') ? { pending: false, image: '' } : { connected: false, logged_in: false, qr_pending: false });
    }
    const outsider = await chat(t, callers.outsider, 'get', path);
    expect([outsider.status, outsider.body]).toEqual([403, { error: 'forbidden' }]);
    const none = await chat(t, 'none', 'get', path);
    expect([none.status, none.body]).toEqual([401, { error: 'unauthorized' }]);
  });

  it('documents every status of the chat routes in the OpenAPI document', async () => {
    const doc = (await t.http().get('/api/openapi.json')).body as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const statuses = (path: string, method: string): string[] => Object.keys(doc.paths[path]![method]!.responses).sort();
    expect(statuses('/api/chat/connect', 'post')).toEqual(['200', '400', '401', '402', '403', '500', '503']);
    expect(statuses('/api/chat/disconnect', 'post')).toEqual(['200', '400', '401', '403', '500', '503']);
    expect(statuses('/api/chat/qr', 'get')).toEqual(['200', '400', '401', '402', '403', '500', '503']);
    expect(statuses('/api/chat/status', 'get')).toEqual(['200', '400', '401', '402', '403', '500', '503']);
    expect(doc.paths['/api/chat/connect']!.post!.responses['403']!.description).toContain('API keys cannot administer workspaces');
    // Workspace selection (400) and dependency outages (503) apply to every workspace route.
    expect(doc.paths['/api/chat/qr']!.get!.responses['400']!.description).toContain('workspace required (X-Tenant-ID)');
  });
});
