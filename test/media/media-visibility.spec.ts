import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MEDIA_STORE, type MediaStore } from '../../src/modules/media/media-store.port.js';
import { mediaFileName } from '../../src/modules/media/media-file-name.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { call, type Caller } from '../inbox/inbox-http.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

/**
 * Media is part of its message: whoever cannot see the conversation over REST (an agent, a
 * conversation assigned to someone else) cannot download its files either (contract: 404 for
 * what is not visible to an agent). Owners, admins and keys see the whole workspace.
 */
describe('GET /api/media/:workspace/:file: agents only get media of conversations they can see', () => {
  let t: TestApp;
  let inbox: InboxFactories;
  let store: MediaStore;

  beforeAll(async () => {
    t = await createTestApp();
    inbox = new InboxFactories(t.app);
    store = t.app.get<MediaStore>(MEDIA_STORE);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** An image message with its stored file in `workspaceId`; answers the file's API path. */
  const imageIn = async (workspaceId: string): Promise<{ conversationId: string; path: string }> => {
    const { message, conversation } = await inbox.message(workspaceId, { type: 'image', content: '' });
    const file = mediaFileName(message.id, 'image/jpeg');
    await store.put(workspaceId, file, Buffer.from('jpeg bytes'), { mimeType: 'image/jpeg', fileName: null });
    return { conversationId: conversation.id, path: `/api/media/${workspaceId}/${file}` };
  };

  it('an agent gets media of unassigned and own conversations, 404 for one assigned to someone else', async () => {
    const { workspace, owner, key } = await t.factories.workspaceWithOwner();
    const ws = workspace.id;
    const asOwner: Caller = { cookie: owner.cookie, workspaceId: ws };
    const admin = await t.factories.signedInMember(ws, 'admin');
    const agentA = await t.factories.signedInMember(ws, 'agent');
    const agentB = await t.factories.signedInMember(ws, 'agent');
    const asA: Caller = { cookie: agentA.cookie, workspaceId: ws };
    const asB: Caller = { cookie: agentB.cookie, workspaceId: ws };

    const unassigned = await imageIn(ws);
    const ofB = await imageIn(ws);
    await call(t, asOwner, 'post', `/api/conversations/${ofB.conversationId}/assign`, { user_id: agentB.id }).expect(200);

    // The conversation itself is hidden from agent A, and so is its media: same 404 as a missing file.
    await call(t, asA, 'get', `/api/conversations/${ofB.conversationId}`).expect(404);
    const hidden = await call(t, asA, 'get', ofB.path);
    expect([hidden.status, hidden.body]).toEqual([404, { error: 'media not found' }]);

    const bytes = (caller: Caller, path: string) =>
      call(t, caller, 'get', path)
        .buffer(true)
        .parse((res, done) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => done(null, Buffer.concat(chunks)));
        });
    for (const caller of [asB, asOwner, { cookie: admin.cookie, workspaceId: ws }, { key }]) {
      const res = await bytes(caller, ofB.path);
      expect([res.status, (res.body as Buffer).toString()]).toEqual([200, 'jpeg bytes']);
    }
    for (const caller of [asA, asB]) expect((await bytes(caller, unassigned.path)).status).toBe(200);

    // Reassigned to A: now A sees it and B does not.
    await call(t, asOwner, 'post', `/api/conversations/${ofB.conversationId}/assign`, { user_id: agentA.id }).expect(200);
    expect((await bytes(asA, ofB.path)).status).toBe(200);
    expect((await call(t, asB, 'get', ofB.path)).status).toBe(404);
  });

  it('a stored file that belongs to no message of the workspace is 404 for agents', async () => {
    const { workspace, owner } = await t.factories.workspaceWithOwner();
    const agent = await t.factories.signedInMember(workspace.id, 'agent');
    const orphan = `${'ab'.repeat(16)}.jpg`;
    await store.put(workspace.id, orphan, Buffer.from('x'), { mimeType: 'image/jpeg', fileName: null });
    expect((await call(t, { cookie: owner.cookie, workspaceId: workspace.id }, 'get', `/api/media/${workspace.id}/${orphan}`)).status).toBe(200);
    const res = await call(t, { cookie: agent.cookie, workspaceId: workspace.id }, 'get', `/api/media/${workspace.id}/${orphan}`);
    expect([res.status, res.body]).toEqual([404, { error: 'media not found' }]);
  });
});
