import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GRAPH_ERRORS } from '../fakes/graph-api/index.js';
import { InboxFactories } from '../support/inbox-factories.js';
import { type ConnectedWorkspace, connectedWorkspace, createMetaTestApp, type MetaTestApp, metaMessages } from './meta-support.js';
import { sendHelpers } from './send-support.js';

type Json = Record<string, unknown>;

/** Interactive messages (reply buttons, lists) through the Cloud API: the exact Graph API request, what is stored, what is refused. */
describe('interactive messages on the Cloud API', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    // Room for files over the Cloud API's limits in one JSON body.
    m = await createMetaTestApp({ env: { BODY_LIMIT: '20mb' } });
  });
  afterAll(async () => {
    await m?.close();
  });

  const { post, lastSent, refused } = sendHelpers(() => m);
  const conversationWith = async (w: ConnectedWorkspace): Promise<string> => (await sendHelpers(() => m).conversationWith(w)).conversationId;

  const buttons = (count: number, title = (i: number) => `Option ${i + 1}`) =>
    Array.from({ length: count }, (_, i) => ({ id: `opt-${i + 1}`, title: title(i) }));

  it('sends reply buttons and a list as the provider documents them, stored as their readable text', async () => {
    const w = await connectedWorkspace(m);
    const conversationId = await conversationWith(w);
    const reply = await post(w, conversationId, {
      type: 'interactive',
      interactive: {
        type: 'buttons',
        header: 'Your delivery',
        body: 'Shall we deliver tomorrow at 9?',
        footer: 'Lucky Shrub',
        buttons: [
          { id: 'yes', title: 'Yes, please' },
          { id: 'later', title: 'Another day' },
        ],
      },
    });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual(
      expect.objectContaining({
        kind: 'text',
        message_type: 'text',
        status: 'sent',
        content: 'Your delivery\nShall we deliver tomorrow at 9?\nLucky Shrub\n[Yes, please] [Another day]',
      }),
    );
    expect(lastSent(w)).toEqual({
      type: 'interactive',
      interactive: {
        type: 'button',
        header: { type: 'text', text: 'Your delivery' },
        body: { text: 'Shall we deliver tomorrow at 9?' },
        footer: { text: 'Lucky Shrub' },
        action: {
          buttons: [
            { type: 'reply', reply: { id: 'yes', title: 'Yes, please' } },
            { type: 'reply', reply: { id: 'later', title: 'Another day' } },
          ],
        },
      },
    });

    const list = await post(w, conversationId, {
      type: 'interactive',
      interactive: {
        type: 'list',
        body: 'Which shipping option do you prefer?',
        button: 'Shipping options',
        sections: [
          { title: 'Fast', rows: [{ id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' }] },
          { title: 'Cheap', rows: [{ id: 'ground', title: 'Ground' }] },
        ],
      },
    });
    expect(list.status).toBe(201);
    expect(list.body.content).toBe(
      'Which shipping option do you prefer?\n[Shipping options]\nFast:\n- Priority Mail Express (Next Day to 2 Days)\nCheap:\n- Ground',
    );
    expect(lastSent(w)).toEqual({
      type: 'interactive',
      interactive: {
        type: 'list',
        body: { text: 'Which shipping option do you prefer?' },
        action: {
          button: 'Shipping options',
          sections: [
            { title: 'Fast', rows: [{ id: 'priority_express', title: 'Priority Mail Express', description: 'Next Day to 2 Days' }] },
            { title: 'Cheap', rows: [{ id: 'ground', title: 'Ground' }] },
          ],
        },
      },
    });
  });

  it('refuses interactive messages the provider would, before anything is stored', async () => {
    const w = await connectedWorkspace(m);
    const conversationId = await conversationWith(w);
    const send = (interactive: Json, error: string) => refused(w, conversationId, { type: 'interactive', interactive }, error);
    await send({ type: 'buttons', body: 'Pick', buttons: buttons(4) }, 'interactive.buttons must hold at most 3 buttons');
    await send(
      { type: 'buttons', body: 'Pick', buttons: buttons(1, () => 'A title of 21 chars..') },
      'interactive.buttons.0.title must be shorter than or equal to 20 characters',
    );
    await send(
      { type: 'buttons', body: 'Pick', buttons: buttons(2, () => 'Same') },
      "interactive.buttons.1.title repeats another button's title: titles must be unique",
    );
    await send(
      {
        type: 'buttons',
        body: 'Pick',
        buttons: [
          { id: 'a', title: 'One' },
          { id: 'a', title: 'Two' },
        ],
      },
      "interactive.buttons.1.id repeats another button's id: ids must be unique",
    );
    await send({ type: 'buttons', body: 'x'.repeat(1025), buttons: buttons(1) }, 'interactive.body must be at most 1024 characters with reply buttons');
    await send({ type: 'buttons', body: 'Pick' }, 'interactive.buttons is required for reply buttons');
    await send({ type: 'carousel', body: 'Pick', buttons: buttons(1) }, 'interactive.type must be buttons or list');
    const rows = (count: number, from = 0) => Array.from({ length: count }, (_, i) => ({ id: `row-${from + i}`, title: `Row ${from + i}` }));
    await send(
      {
        type: 'list',
        body: 'Pick',
        button: 'Open',
        sections: [
          { title: 'A', rows: rows(6) },
          { title: 'B', rows: rows(5, 6) },
        ],
      },
      'interactive.sections hold 11 rows: a list holds at most 10 in all its sections',
    );
    await send(
      { type: 'list', body: 'Pick', button: 'Open', sections: [{ title: 'A', rows: rows(1) }, { rows: rows(1, 1) }] },
      'interactive.sections.1.title is required when the list has more than one section',
    );
    await send(
      { type: 'list', body: 'Pick', button: 'Open', sections: [{ rows: [...rows(1), ...rows(1)] }] },
      "interactive.sections.0.rows.1.id repeats another row's id: ids must be unique",
    );
    await send(
      { type: 'list', body: 'Pick', sections: [{ rows: rows(1) }] },
      'interactive.button is required for a list (the label of the button that opens it)',
    );
    await send(
      { type: 'list', body: 'Pick', button: 'Open', sections: [{ rows: [{ id: ' padded', title: 'Row' }] }] },
      'interactive.sections.0.rows.0.id must not be empty or start or end with a space',
    );
    await refused(w, conversationId, { type: 'interactive' }, 'interactive is required for interactive messages');
  });

  it('sends interactive messages only on a Cloud API number', async () => {
    const { workspace, key } = await m.t.factories.workspaceWithOwner({ subscriptionStatus: 'active' });
    const conversation = await new InboxFactories(m.t.app).conversation(workspace.id);
    const res = await m.t
      .http()
      .post(`/api/conversations/${conversation.id}/messages`)
      .set('Authorization', `Bearer ${key}`)
      .send({ type: 'interactive', interactive: { type: 'buttons', body: 'Pick', buttons: buttons(2) } });
    expect([res.status, res.body]).toEqual([400, { error: 'interactive messages need a Cloud API number' }]);
    const rows: unknown[] = await m.t.dataSource.query(`SELECT 1 FROM messages WHERE workspace_id = $1 AND direction = 'outbound'`, [workspace.id]);
    expect(rows).toEqual([]);
  });

  it("answers the provider's refusal outside the customer-service window as any refused send", async () => {
    const w = await connectedWorkspace(m);
    const conversationId = await conversationWith(w);
    m.graph.failNext({ method: 'POST', path: `/${w.phoneNumberId}/messages` }, GRAPH_ERRORS.reEngagement);
    const res = await post(w, conversationId, { type: 'interactive', interactive: { type: 'buttons', body: 'Still there?', buttons: buttons(1) } });
    expect([res.status, res.body]).toEqual([500, { error: '(#131047) Re-engagement message', provider_code: 131047, provider_title: 'Re-engagement message' }]);
    expect((await metaMessages(m.t, w.workspaceId)).at(-1)).toEqual(expect.objectContaining({ status: 'failed', content: 'Still there?\n[Option 1]' }));
  });
});
