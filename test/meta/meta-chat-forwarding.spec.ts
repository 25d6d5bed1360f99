import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import {
  callback,
  callbackBytes,
  type ChangeSpec,
  contact,
  messagesChange,
  signCallback,
  templateStatusUpdate,
  textMessage,
} from '../fakes/graph-api/index.js';
import { sample } from '../metrics/prometheus-text.js';
import { Receiver, type Received } from '../webhooks/webhook-support.js';
import {
  addMetaWebhook,
  APP_SECRET,
  callbacksSettled,
  type ConnectedWorkspace,
  connectedWorkspace,
  createMetaTestApp,
  deliver,
  eventually,
  forwardedCopies,
  forwardingSettled,
  graphId,
  type MetaTestApp,
  metaMessages,
  newPhone,
  WEBHOOK_ENV,
} from './meta-support.js';

/** The contract's check, with nothing but node:crypto: hex HMAC-SHA256 keyed with the secret string, over the raw body. */
function hubSignatureValid(request: Received, secret: string): boolean {
  const header = String(request.headers['x-hub-signature-256'] ?? '');
  const expected = `sha256=${createHmac('sha256', secret).update(request.body).digest('hex')}`;
  return header.length === expected.length && timingSafeEqual(Buffer.from(header), Buffer.from(expected));
}

const text = (w: ConnectedWorkspace, phone: string, body: string) =>
  messagesChange(w.phoneNumberId, { contacts: [contact({ phone })], messages: [textMessage({ phone }, body)] });

/**
 * `meta.chat`: the provider's callback forwarded to each workspace's webhooks, signed with its
 * secret: unchanged when it is all the workspace's, else only the workspace's own entries.
 */
describe('meta.chat forwarding', () => {
  let m: MetaTestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    [m, receiver] = await Promise.all([createMetaTestApp({ env: WEBHOOK_ENV }), Receiver.start()]);
  });
  afterAll(async () => {
    await receiver?.close();
    await m?.close();
  });

  /** A connected workspace with a `meta.chat` webhook on its own path of the receiver. */
  async function subscribed(number: { wabaId?: string; phoneNumberId?: string } = {}): Promise<ConnectedWorkspace & { path: string; secret: string }> {
    const w = await connectedWorkspace(m, number);
    const path = `/meta-${w.workspaceId}`;
    return { ...w, path, secret: await addMetaWebhook(m, w, receiver.url(path)) };
  }

  const settle = () => eventually('callbacks processed and deliveries finished', () => forwardingSettled(m.t));
  /** The digits of the workspace's display number as its settings show it (`+1 555-0123` → `15550123`), as Meta's number-level fields name it. */
  const displayDigits = async (w: ConnectedWorkspace): Promise<string> =>
    String((await m.t.http().get('/api/meta/settings').set(w.owner)).body.display_phone_number).replace(/\D/g, '');

  /** A forwarded body's `{object, entry}`. */
  const parsed = (body: Buffer): { object: string; entry: Record<string, unknown>[] } => JSON.parse(body.toString('utf8'));
  const metaEvents = async (workspaceId: string): Promise<number> =>
    (
      (await m.t.dataSource.query(`SELECT count(*)::int AS n FROM webhook_events WHERE workspace_id = $1 AND event = 'meta.chat'`, [workspaceId])) as {
        n: number;
      }[]
    )[0]!.n;
  const unrouted = async (reason: 'unknown_number' | 'unknown_waba'): Promise<number> =>
    sample((await m.t.http().get('/metrics')).text, 'inbox_meta_callback_entries_unrouted_total', { reason }) ?? 0;
  const unknownNumberEntries = () => unrouted('unknown_number');

  it('forwards a callback batching A’s and B’s entries and an unknown number’s: each gets only its own entries, once, signed with its secret; the unknown entry reaches nobody and is counted', async () => {
    const [a, b] = [await subscribed(), await subscribed()];
    const scanOnly = `/scan-only-${a.workspaceId}`;
    await addMetaWebhook(m, a, receiver.url(scanOnly), ['scan.chat']);
    const unknownBefore = await unknownNumberEntries();
    const [p1, p2, p3, stranger] = [newPhone(), newPhone(), newPhone(), graphId()];
    const payload = callback(
      { wabaId: a.wabaId, changes: [text(a, p1, 'Grüße 👋 from A'), text(a, p2, 'second change for A')] },
      { wabaId: b.wabaId, time: 1767225600, changes: [text(b, p3, 'for B')] },
      {
        wabaId: graphId(),
        changes: [messagesChange(stranger, { contacts: [contact({ phone: newPhone() })], messages: [textMessage({ phone: newPhone() }, 'nobody’s')] })],
      },
    );
    const res = await deliver(m, payload);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    await settle();

    const sent = parsed(res.sent);
    const [toA] = receiver.at(a.path);
    const [toB] = receiver.at(b.path);
    expect([receiver.at(a.path).length, receiver.at(b.path).length, receiver.at(scanOnly).length]).toEqual([1, 1, 0]);
    for (const [request, own, other, entries] of [
      [toA!, a.secret, b.secret, [sent.entry[0]!]],
      [toB!, b.secret, a.secret, [sent.entry[1]!]],
    ] as const) {
      expect(parsed(request.body)).toEqual({ object: 'whatsapp_business_account', entry: entries });
      // Each entry is the very bytes Meta sent for it (non-ASCII escaped as \uXXXX), not a re-serialisation.
      for (const entry of entries) expect(request.body.includes(callbackBytes(entry))).toBe(true);
      expect(request.body.includes(stranger)).toBe(false);
      expect(request.headers['x-svc-event']).toBe('meta.chat');
      expect(request.headers['content-type']).toBe('application/json');
      expect(hubSignatureValid(request, own)).toBe(true);
      expect(hubSignatureValid(request, other)).toBe(false);
      // Not the provider's signature: the service signs with the workspace's secret.
      expect(request.headers['x-hub-signature-256']).not.toBe(signCallback(APP_SECRET, request.body));
      expect(new Webhook(own).verify(request.body.toString('utf8'), request.headers as Record<string, string>)).toEqual(parsed(request.body));
      expect(() => new Webhook(other).verify(request.body.toString('utf8'), request.headers as Record<string, string>)).toThrow();
    }
    expect(toA!.headers['webhook-id']).not.toBe(toB!.headers['webhook-id']);
    expect(await forwardedCopies(m.t, res.sent)).toBe(0);
    // The payload is also ingested, each change for its own workspace.
    expect((await metaMessages(m.t, a.workspaceId)).map((x) => x.content).sort()).toEqual(['Grüße 👋 from A', 'second change for A']);
    expect((await metaMessages(m.t, b.workspaceId)).map((x) => x.content)).toEqual(['for B']);
    await eventually('the unknown number’s entry counted', async () => (await unknownNumberEntries()) === unknownBefore + 1);
  });

  it('cuts an entry whose changes are for numbers of two workspaces: each gets the entry with its own changes and the entry’s other keys', async () => {
    const a = await subscribed();
    const b = await subscribed({ wabaId: a.wabaId });
    const [toA, toB] = [text(a, newPhone(), 'A’s customer'), text(b, newPhone(), 'B’s customer')];
    const account = { field: 'account_update', value: { event: 'PARTNER_ADDED' } };
    const res = await deliver(m, callback({ wabaId: a.wabaId, time: 1767225600, changes: [toA, toB, account] }));
    await settle();
    const entry = { id: a.wabaId, time: 1767225600 };
    // account_update names no number: it is the WABA's, and both have a number of it.
    expect(receiver.at(a.path).map((r) => parsed(r.body))).toEqual([{ object: 'whatsapp_business_account', entry: [{ ...entry, changes: [toA, account] }] }]);
    expect(receiver.at(b.path).map((r) => parsed(r.body))).toEqual([{ object: 'whatsapp_business_account', entry: [{ ...entry, changes: [toB, account] }] }]);
    expect(await forwardedCopies(m.t, res.sent)).toBe(0);
    expect((await metaMessages(m.t, b.workspaceId)).map((x) => x.content)).toEqual(['B’s customer']);
  });

  it('forwards a callback whose entries are all one workspace’s byte for byte, and nothing new for a retry of a mixed one', async () => {
    const [a, b] = [await subscribed(), await subscribed()];
    const own = await deliver(
      m,
      callback({ wabaId: a.wabaId, changes: [text(a, newPhone(), 'first entry')] }, { wabaId: a.wabaId, changes: [text(a, newPhone(), 'second entry')] }),
    );
    const mixed = callback(
      { wabaId: a.wabaId, changes: [text(a, newPhone(), 'mixed for A')] },
      { wabaId: b.wabaId, changes: [text(b, newPhone(), 'mixed for B')] },
    );
    const first = await deliver(m, mixed);
    await settle();
    const retry = await deliver(m, mixed);
    expect([retry.status, retry.sent.equals(first.sent)]).toEqual([200, true]);
    // Later callbacks for both, delivered after the retry: once they are in, the retry had its chance.
    const laterA = await deliver(m, callback({ wabaId: a.wabaId, changes: [text(a, newPhone(), 'later A')] }));
    const laterB = await deliver(m, callback({ wabaId: b.wabaId, changes: [text(b, newPhone(), 'later B')] }));
    await receiver.waitFor(3, a.path);
    await receiver.waitFor(2, b.path);
    await settle();
    const [ownBody, mixedA, lastA] = receiver.at(a.path).map((r) => r.body);
    expect([receiver.at(a.path).length, receiver.at(b.path).length]).toEqual([3, 2]);
    expect([ownBody!.equals(own.sent), lastA!.equals(laterA.sent), receiver.at(b.path)[1]!.body.equals(laterB.sent)]).toEqual([true, true, true]);
    expect(parsed(mixedA!).entry).toEqual([parsed(first.sent).entry[0]]);
    expect(parsed(receiver.at(b.path)[0]!.body).entry).toEqual([parsed(first.sent).entry[1]]);
    expect([await metaEvents(a.workspaceId), await metaEvents(b.workspaceId)]).toEqual([3, 2]);
  });

  it('forwards nothing new and stores nothing new for a retry of the same bytes', async () => {
    const a = await subscribed();
    const phone = newPhone();
    const payload = callback({ wabaId: a.wabaId, changes: [text(a, phone, 'only once')] });
    const first = await deliver(m, payload);
    await settle();
    const retry = await deliver(m, payload);
    expect([retry.status, retry.body, retry.sent.equals(first.sent)]).toEqual([200, { ok: true }, true]);
    // A later callback for the same workspace, delivered after the retry: once it is in, the retry had its chance.
    const later = await deliver(m, callback({ wabaId: a.wabaId, changes: [text(a, phone, 'later')] }));
    await receiver.waitFor(2, a.path);
    await settle();
    expect(receiver.at(a.path).map((r) => r.body.toString('utf8'))).toEqual([first.sent.toString('utf8'), later.sent.toString('utf8')]);
    expect((await metaMessages(m.t, a.workspaceId)).map((x) => x.content)).toEqual(['only once', 'later']);
    expect(await forwardedCopies(m.t, first.sent)).toBe(1);
  });

  it('acknowledges and drops a payload for an unknown phone_number_id, and forwards nothing without a valid signature', async () => {
    const a = await subscribed();
    const stranger = callback({
      wabaId: a.wabaId,
      changes: [messagesChange(graphId(), { contacts: [contact({ phone: newPhone() })], messages: [textMessage({ phone: newPhone() }, 'nobody’s')] })],
    });
    const res = await deliver(m, stranger);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    const forged = callbackBytes(callback({ wabaId: a.wabaId, changes: [text(a, newPhone(), 'forged')] }));
    expect((await deliver(m, forged, { signature: signCallback('not-the-app-secret', forged) })).status).toBe(401);
    await settle();
    expect(await forwardedCopies(m.t, res.sent)).toBe(0);
    expect(await forwardedCopies(m.t, forged)).toBe(0);
    expect(receiver.at(a.path)).toEqual([]);
    expect(await metaMessages(m.t, a.workspaceId)).toEqual([]);
  });

  it('forwards only payloads with a forwarded field for the workspace, and then whole, the other fields included', async () => {
    const a = await subscribed();
    // Only a field that is not forwarded (account_update): not forwarded.
    const accountOnly = await deliver(
      m,
      callback({ wabaId: a.wabaId, changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT', phone_number: '15550783881' } }] }),
    );
    // A messages change with other fields beside it (and fields the service does not know): forwarded unchanged, once.
    const payload = callback({
      wabaId: a.wabaId,
      changes: [
        { field: 'account_update', value: { event: 'PARTNER_ADDED' } },
        { ...text(a, newPhone(), 'mixed'), future_change_field: { nested: [1, 2] } } as ChangeSpec,
        { field: 'phone_number_quality_update', value: { display_phone_number: await displayDigits(a), event: 'FLAGGED', current_limit: 'TIER_1K' } },
      ],
    });
    const mixed = await deliver(m, { ...payload, future_top_level: true });
    await receiver.waitFor(1, a.path);
    await settle();
    expect(await forwardedCopies(m.t, accountOnly.sent)).toBe(0);
    expect(receiver.at(a.path).map((r) => r.body.equals(mixed.sent))).toEqual([true]);
  });

  it('gives a change naming a number only by its display number to that number’s workspace alone; other number-level fields naming none reach nobody', async () => {
    const a = await subscribed();
    // Two numbers of one WABA with different display numbers (the fake derives them from the id's last digits).
    let siblingNumber = graphId();
    while (siblingNumber.slice(-4) === a.phoneNumberId.slice(-4)) siblingNumber = graphId();
    const b = await subscribed({ wabaId: a.wabaId, phoneNumberId: siblingNumber });
    const [toA, toB] = [text(a, newPhone(), 'A’s customer'), text(b, newPhone(), 'B’s customer')];
    const quality = {
      field: 'phone_number_quality_update',
      value: { display_phone_number: await displayDigits(a), event: 'DOWNGRADE', current_limit: 'TIER_250' },
    };
    const name = {
      field: 'phone_number_name_update',
      value: { display_phone_number: await displayDigits(b), decision: 'APPROVED', requested_verified_name: 'B Shop' },
    };
    const strangers = { field: 'security', value: { display_phone_number: '19995550123', event: 'PIN_CHANGED' } };
    const unnamed = { field: 'future_number_field', value: { event: 'SOMETHING_ABOUT_A_NUMBER' } };
    const review = { field: 'account_review_update', value: { decision: 'APPROVED' } };
    const res = await deliver(m, callback({ wabaId: a.wabaId, time: 1767225600, changes: [toA, toB, quality, name, strangers, unnamed, review] }));
    await settle();
    const entry = { id: a.wabaId, time: 1767225600 };
    expect(receiver.at(a.path).map((r) => parsed(r.body))).toEqual([
      { object: 'whatsapp_business_account', entry: [{ ...entry, changes: [toA, quality, review] }] },
    ]);
    expect(receiver.at(b.path).map((r) => parsed(r.body))).toEqual([
      { object: 'whatsapp_business_account', entry: [{ ...entry, changes: [toB, name, review] }] },
    ]);
    expect(await forwardedCopies(m.t, res.sent)).toBe(0);
  });

  it('forwards a template status update to every workspace with a number of the WABA', async () => {
    const a = await subscribed();
    const sibling = await subscribed({ wabaId: a.wabaId });
    const other = await subscribed();
    const res = await deliver(
      m,
      callback({ wabaId: a.wabaId, time: 1767225600, changes: [templateStatusUpdate({ id: graphId(), name: 'order_update', event: 'APPROVED' })] }),
    );
    await eventually('the callback to be processed', () => callbacksSettled(m.t));
    await receiver.waitFor(1, sibling.path);
    await settle();
    expect([a.path, sibling.path, other.path].map((path) => receiver.at(path).map((r) => r.body.equals(res.sent)))).toEqual([[true], [true], []]);
    // A template update for a WABA no workspace has a number of reaches nobody, and is counted.
    const before = await unrouted('unknown_waba');
    const stray = await deliver(
      m,
      callback({ wabaId: graphId(), changes: [templateStatusUpdate({ id: graphId(), name: 'order_update', event: 'REJECTED' })] }),
    );
    await eventually('the stray template update counted', async () => (await unrouted('unknown_waba')) === before + 1);
    expect(await forwardedCopies(m.t, stray.sent)).toBe(0);
  });
});
