import { createHmac, timingSafeEqual } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Webhook } from 'standardwebhooks';
import { callback, callbackBytes, type ChangeSpec, contact, messagesChange, signCallback, templateStatusUpdate, textMessage } from '../fakes/graph-api/index.js';
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

/** `meta.chat`: the provider's callback forwarded to each workspace's webhooks, unchanged and signed with its secret. */
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
  async function subscribed(number: { wabaId?: string } = {}): Promise<ConnectedWorkspace & { path: string; secret: string }> {
    const w = await connectedWorkspace(m, number);
    const path = `/meta-${w.workspaceId}`;
    return { ...w, path, secret: await addMetaWebhook(m, w, receiver.url(path)) };
  }

  const settle = () => eventually('callbacks processed and deliveries finished', () => forwardingSettled(m.t));

  it('forwards a payload with two changes for A and one for B once to each, byte for byte, signed with each one’s secret', async () => {
    const [a, b] = [await subscribed(), await subscribed()];
    const scanOnly = `/scan-only-${a.workspaceId}`;
    await addMetaWebhook(m, a, receiver.url(scanOnly), ['scan.chat']);
    const [p1, p2, p3] = [newPhone(), newPhone(), newPhone()];
    const payload = callback(
      { wabaId: a.wabaId, changes: [text(a, p1, 'Grüße 👋 from A'), text(a, p2, 'second change for A')] },
      { wabaId: b.wabaId, changes: [text(b, p3, 'for B')] },
    );
    const res = await deliver(m, payload);
    expect([res.status, res.body]).toEqual([200, { ok: true }]);
    await settle();

    const [toA] = receiver.at(a.path);
    const [toB] = receiver.at(b.path);
    expect([receiver.at(a.path).length, receiver.at(b.path).length, receiver.at(scanOnly).length]).toEqual([1, 1, 0]);
    for (const [request, own, other] of [
      [toA!, a.secret, b.secret],
      [toB!, b.secret, a.secret],
    ] as const) {
      expect(request.body.equals(res.sent)).toBe(true);
      expect(request.headers['x-svc-event']).toBe('meta.chat');
      expect(request.headers['content-type']).toBe('application/json');
      expect(hubSignatureValid(request, own)).toBe(true);
      expect(hubSignatureValid(request, other)).toBe(false);
      // Not the provider's signature: the service signs with the workspace's secret.
      expect(request.headers['x-hub-signature-256']).not.toBe(signCallback(APP_SECRET, res.sent));
      expect(new Webhook(own).verify(request.body.toString('utf8'), request.headers as Record<string, string>)).toEqual(JSON.parse(res.sent.toString('utf8')));
      expect(() => new Webhook(other).verify(request.body.toString('utf8'), request.headers as Record<string, string>)).toThrow();
    }
    expect(toA!.headers['webhook-id']).not.toBe(toB!.headers['webhook-id']);
    // The payload is also ingested, each change for its own workspace.
    expect((await metaMessages(m.t, a.workspaceId)).map((x) => x.content).sort()).toEqual(['Grüße 👋 from A', 'second change for A']);
    expect((await metaMessages(m.t, b.workspaceId)).map((x) => x.content)).toEqual(['for B']);
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
    const stranger = callback({ wabaId: a.wabaId, changes: [messagesChange(graphId(), { contacts: [contact({ phone: newPhone() })], messages: [textMessage({ phone: newPhone() }, 'nobody’s')] })] });
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
    const accountOnly = await deliver(m, callback({ wabaId: a.wabaId, changes: [{ field: 'account_update', value: { event: 'VERIFIED_ACCOUNT', phone_number: '15550783881' } }] }));
    // A messages change with other fields beside it (and fields the service does not know): forwarded unchanged, once.
    const payload = callback({
      wabaId: a.wabaId,
      changes: [
        { field: 'account_update', value: { event: 'PARTNER_ADDED' } },
        { ...text(a, newPhone(), 'mixed'), future_change_field: { nested: [1, 2] } } as ChangeSpec,
        { field: 'phone_number_quality_update', value: { display_phone_number: '15550783881', event: 'FLAGGED', current_limit: 'TIER_1K' } },
      ],
    });
    const mixed = await deliver(m, { ...payload, future_top_level: true });
    await receiver.waitFor(1, a.path);
    await settle();
    expect(await forwardedCopies(m.t, accountOnly.sent)).toBe(0);
    expect(receiver.at(a.path).map((r) => r.body.equals(mixed.sent))).toEqual([true]);
  });

  it('forwards a template status update to every workspace with a number of the WABA', async () => {
    const a = await subscribed();
    const sibling = await subscribed({ wabaId: a.wabaId });
    const other = await subscribed();
    const res = await deliver(m, callback({ wabaId: a.wabaId, time: 1767225600, changes: [templateStatusUpdate({ id: graphId(), name: 'order_update', event: 'APPROVED' })] }));
    await eventually('the callback to be processed', () => callbacksSettled(m.t));
    await receiver.waitFor(1, sibling.path);
    await settle();
    expect([a.path, sibling.path, other.path].map((path) => receiver.at(path).map((r) => r.body.equals(res.sent)))).toEqual([[true], [true], []]);
  });
});
