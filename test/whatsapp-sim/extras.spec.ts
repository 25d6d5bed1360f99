import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { BaileysClient, textOf } from './baileys-client.js';
import { startHttpControl } from './http-control.js';
import { linkClient } from './link.js';
import { WhatsAppSimulator } from './whatsapp-simulator.js';

const PHONE = '15550004444';

describe('simulator: media, history sync and the HTTP control API', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;
  let control: Awaited<ReturnType<typeof startHttpControl>>;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
    sim.setInitialHistory(PHONE, [
      { contact: '4915100000020', name: 'Carol', messages: [{ text: 'old question' }, { text: 'old answer', fromMe: true }] },
    ]);
    ({ client } = await linkClient(sim, PHONE));
    control = await startHttpControl(sim);
  });
  afterAll(async () => {
    client.stop();
    control.server.close();
    await sim.stop();
  });

  const post = async (path: string, body: unknown): Promise<{ status: number; body: Record<string, unknown> }> => {
    const res = await fetch(`${control.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it('gives a new device the initial history the phone holds', async () => {
    const batch = client.histories.find((h) => h.messages.length > 0) ?? (await client.next('history', (h) => h.messages.length > 0))[0];
    expect(batch.messages.map(textOf)).toEqual(['old question', 'old answer']);
    expect(batch.messages.map((m) => m.key.fromMe)).toEqual([false, true]);
    expect(batch.chats.map((c) => c.id)).toEqual(['4915100000020@s.whatsapp.net']);
  });

  it('pushes a later history batch', async () => {
    const next = client.next('history', (h) => h.messages.some((m) => textOf(m) === 'from the archive'));
    await sim.pushHistory(PHONE, [{ contact: '4915100000021', messages: [{ text: 'from the archive' }] }]);
    const [batch] = await next;
    expect(batch.chats.map((c) => c.id)).toEqual(['4915100000021@s.whatsapp.net']);
  });

  it('delivers an image and a document with their captions, mimetypes and file name', async () => {
    const imageId = await sim.deliverMedia({ to: PHONE, from: '4915100000022', kind: 'image', mimetype: 'image/jpeg', caption: 'look' });
    const docId = await sim.deliverMedia({
      to: PHONE,
      from: '4915100000022',
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'invoice.pdf',
    });
    const image = await client.message((m) => m.key.id === imageId);
    const doc = await client.message((m) => m.key.id === docId);
    expect(image.message?.imageMessage?.caption).toBe('look');
    expect(image.message?.imageMessage?.mimetype).toBe('image/jpeg');
    expect(doc.message?.documentMessage?.fileName).toBe('invoice.pdf');
    expect(doc.message?.documentMessage?.mimetype).toBe('application/pdf');
  });

  it('drives the same world over HTTP: deliver, read what was sent, refuse bad input with 400', async () => {
    const delivered = await post('/messages', { to: PHONE, from: '4915100000023', text: 'over http', name: 'Dan' });
    expect(delivered.status).toBe(200);
    const message = await client.message((m) => m.key.id === delivered.body.id);
    expect(textOf(message)).toBe('over http');

    const sentKey = (await client.sock!.sendMessage('4915100000023@s.whatsapp.net', { text: 'answer over http' }))?.key;
    await sim.waitForSent((m) => m.id === sentKey?.id);
    const sent = (await (await fetch(`${control.url}/sent?phone=${PHONE}`)).json()) as { messages: { id: string; text?: string }[] };
    expect(sent.messages.find((m) => m.id === sentKey?.id)?.text).toBe('answer over http');

    const status = (await (await fetch(`${control.url}/status`)).json()) as { accounts: { phone: string; online: boolean }[] };
    expect(status.accounts).toEqual([expect.objectContaining({ phone: PHONE, online: true })]);

    expect(await post('/messages', { to: PHONE, text: 'no sender' })).toEqual({ status: 400, body: { error: 'from must be a non-empty string' } });
    expect(await post('/receipts', { id: 'x', type: 'seen' })).toEqual({ status: 400, body: { error: 'type must be delivered or read' } });
    expect((await post('/nowhere', {})).status).toBe(404);
  });
});
