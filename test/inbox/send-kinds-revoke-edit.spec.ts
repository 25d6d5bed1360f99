import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createInboxTestApp, type InboxTestApp } from '../support/inbox-test-app.js';
import { PNG } from '../support/media-fixtures.js';
import { b64, type SendChat, type SendKinds, startSendKinds } from './send-kinds-support.js';

/**
 * Deleting for everyone and editing a sent message, through the API and the scan channel's gateway
 * (its sessions recorded), and a channel that can do neither (nor react).
 */
describe('deleting and editing a sent message', () => {
  let k: SendKinds;
  let s: SendKinds['s'];

  beforeAll(async () => {
    k = await startSendKinds();
    ({ s } = k);
  });
  afterAll(async () => {
    await k?.close();
  });

  const chat = (group?: boolean): Promise<SendChat> => k.chat(group);
  const send = (c: SendChat, body: object) => k.send(c, body);
  const sentBy = (ws: string) => k.sentBy(ws);
  const stored = (id: string) => k.stored(id);
  const queued = (id: string) => k.sent(id);

  it('deletes a sent message for everyone: the channel revokes it, the row says deleted and keeps its text', async () => {
    const c = await chat();
    const sent = await send(c, { body: 'oops, wrong chat' });
    const { external_id: externalId } = await queued(sent.body.id);
    const path = `/api/conversations/${c.id}/messages/${sent.body.id}`;
    const del = await s.t.http().delete(path).set('Authorization', `Bearer ${c.key}`);
    expect(del.status).toBe(200);
    expect(del.body).toMatchObject({ id: sent.body.id, deleted: true, content: 'oops, wrong chat' });
    expect(sentBy(c.ws)[1]).toEqual({
      type: 'revoke',
      target: { externalId, fromMe: true, participant: null, type: 'text', content: 'oops, wrong chat' },
    });
    // A repeat answers the same and asks the channel nothing.
    const again = await s.t.http().delete(path).set('Authorization', `Bearer ${c.key}`);
    expect([again.status, again.body.deleted]).toEqual([200, true]);
    expect(sentBy(c.ws)).toHaveLength(2);
    expect((await stored(sent.body.id)).deleted_at).not.toBeNull();

    const old = await send(c, { body: 'from last week' });
    await queued(old.body.id);
    await s.t.dataSource.query(`UPDATE messages SET timestamp = now() - interval '49 hours' WHERE id = $1`, [old.body.id]);
    const failed = await send(c, { body: 'never went out' });
    await queued(failed.body.id);
    await s.t.dataSource.query(`UPDATE messages SET status = 'failed', external_id = NULL WHERE id = $1`, [failed.body.id]);
    const cases: [string, number, string][] = [
      [c.inboundId, 400, 'only a message this number sent can be deleted for everyone'],
      [old.body.id, 400, 'a message can be deleted for everyone only within 48 hours of sending it'],
      [failed.body.id, 400, 'the message was not sent: it has no WhatsApp id yet'],
      ['00000000-0000-4000-8000-000000000000', 404, 'message not found'],
      ['nope', 400, 'invalid message id'],
    ];
    for (const [id, status, error] of cases) {
      const res = await s.t.http().delete(`/api/conversations/${c.id}/messages/${id}`).set('Authorization', `Bearer ${c.key}`);
      expect({ id, status: res.status, error: res.body.error }).toEqual({ id, status, error });
    }
    expect(sentBy(c.ws)).toHaveLength(4);
  });

  it('edits a sent text within 15 minutes: the channel gets the new text, the row says edited', async () => {
    const c = await chat();
    const sent = await send(c, { body: 'see you at 5' });
    const { external_id: externalId } = await queued(sent.body.id);
    const patch = (id: string, body: object) =>
      s.t.http().patch(`/api/conversations/${c.id}/messages/${id}`).set('Authorization', `Bearer ${c.key}`).send(body);
    const res = await patch(sent.body.id, { content: '  see you at 6  ' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: sent.body.id, content: 'see you at 6', edited: true, deleted: false });
    expect(sentBy(c.ws)[1]).toEqual({
      type: 'edit',
      target: { externalId, fromMe: true, participant: null, type: 'text', content: 'see you at 5' },
      body: 'see you at 6',
    });
    const [conversation]: { last_message_preview: string }[] = await s.t.dataSource.query('SELECT last_message_preview FROM conversations WHERE id = $1', [
      c.id,
    ]);
    expect(conversation!.last_message_preview).toBe('see you at 6');

    const image = await send(c, { type: 'image', media: { data_base64: b64(PNG), mime_type: 'image/png' }, caption: 'a photo' });
    const late = await send(c, { body: 'an hour ago' });
    await queued(image.body.id);
    await queued(late.body.id);
    await s.t.dataSource.query(`UPDATE messages SET timestamp = now() - interval '16 minutes' WHERE id = $1`, [late.body.id]);
    const cases: [string, object, string][] = [
      [c.inboundId, { body: 'x' }, 'only a message this number sent can be edited'],
      [image.body.id, { body: 'x' }, 'only a text can be edited'],
      [late.body.id, { body: 'x' }, 'a message can be edited only within 15 minutes of sending it'],
      [sent.body.id, { body: '   ' }, 'message body is required'],
      [sent.body.id, { body: 'a', content: 'b' }, 'body and content differ: they are the same field (content is an alias of body), send one of them'],
    ];
    for (const [id, body, error] of cases) {
      const r = await patch(id, body);
      expect({ id, status: r.status, error: r.body.error }).toEqual({ id, status: 400, error });
    }
    expect(sentBy(c.ws)).toHaveLength(4);
    expect((await stored(late.body.id)).content).toBe('an hour ago');
  });

  it('answers 409 without a connection and 403 to a read-only key, changing nothing', async () => {
    const c = await chat();
    const sent = await send(c, { body: 'hello' });
    await queued(sent.body.id);
    const read = await s.t.factories.apiKey(c.ws, 'read');
    const path = `/api/conversations/${c.id}/messages/${sent.body.id}`;
    const denied = await s.t.http().delete(path).set('Authorization', `Bearer ${read.key}`);
    const deniedEdit = await s.t.http().patch(path).set('Authorization', `Bearer ${read.key}`).send({ body: 'x' });
    expect([denied.status, deniedEdit.status]).toEqual([403, 403]);
    s.sessions.connected.delete(c.ws);
    const offline = await s.t.http().delete(path).set('Authorization', `Bearer ${c.key}`);
    const offlineReaction = await send(c, { reaction: { message_id: c.inboundId, emoji: '👍' } });
    expect([offline.status, offline.body.error, offlineReaction.status]).toEqual([409, 'chat is not connected', 409]);
    expect((await stored(sent.body.id)).deleted_at).toBeNull();
    expect(sentBy(c.ws)).toHaveLength(1);
  });
});

describe('a channel without reactions, deletes or edits', () => {
  let t: InboxTestApp['t'];
  let inbox: InboxTestApp['inbox'];
  let gateway: InboxTestApp['gateway'];

  beforeAll(async () => {
    ({ t, inbox, gateway } = await createInboxTestApp());
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 400 naming what the channel cannot do, connected or not, and changes nothing', async () => {
    const { workspace, key } = await t.factories.workspaceWithOwner();
    const { message, conversation } = await inbox.message(workspace.id);
    gateway.connect(workspace.id);
    const sent = await t.http().post(`/api/conversations/${conversation.id}/messages`).set('Authorization', `Bearer ${key}`).send({ body: 'hi' });
    expect(sent.status).toBe(201);
    const path = `/api/conversations/${conversation.id}/messages/${String(sent.body.id)}`;
    for (const connected of [true, false]) {
      if (!connected) gateway.disconnect(workspace.id);
      const reaction = await t
        .http()
        .post(`/api/conversations/${conversation.id}/messages`)
        .set('Authorization', `Bearer ${key}`)
        .send({ reaction: { message_id: message.id, emoji: '👍' } });
      const revoke = await t.http().delete(path).set('Authorization', `Bearer ${key}`);
      const edit = await t.http().patch(path).set('Authorization', `Bearer ${key}`).send({ body: 'hello' });
      expect([reaction.body.error, revoke.body.error, edit.body.error]).toEqual([
        'this channel cannot send reactions',
        'this channel cannot delete messages for everyone',
        'this channel cannot edit messages',
      ]);
      expect([reaction.status, revoke.status, edit.status]).toEqual([400, 400, 400]);
    }
    const [row]: { reactions: unknown[]; deleted_at: Date | null; edited_at: Date | null }[] = await t.dataSource.query(
      'SELECT reactions, deleted_at, edited_at FROM messages WHERE id = $1',
      [sent.body.id],
    );
    expect(row).toEqual({ reactions: [], deleted_at: null, edited_at: null });
    expect(gateway.sent).toHaveLength(1);
  });
});
