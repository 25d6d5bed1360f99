import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getQueueToken } from '@nestjs/bullmq';
import type { Queue } from 'bullmq';
import { QueueName } from '../../src/infra/queue/queue-names.js';
import { callback, contact, mediaMessage, messagesChange, wamid } from '../fakes/graph-api/index.js';
import { mp4, oggOpus } from '../support/media-fixtures.js';
import { connectedWorkspace, createMetaTestApp, deliverAndSettle, eventually, graphId, type MetaTestApp, metaMessages, newPhone } from './meta-support.js';

/** Inbound files: fetched by media id with the workspace token into the media store. */
describe('cloud inbound media', () => {
  let m: MetaTestApp;
  beforeAll(async () => {
    m = await createMetaTestApp();
  });
  afterAll(async () => {
    await m?.close();
  });

  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

  it('downloads an image and a document, checks their hash, and serves them', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const image = m.graph.world.addMedia({ data: PNG, mimeType: 'image/png', phoneNumberId: w.phoneNumberId });
    const pdf = m.graph.world.addMedia({ data: Buffer.from('%PDF-1.7 report'), mimeType: 'application/pdf', phoneNumberId: w.phoneNumberId });
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            contacts: [contact({ phone })],
            messages: [
              mediaMessage({ phone }, 'image', {
                id: image.id,
                mimeType: 'image/png',
                sha256: Buffer.from(image.sha256, 'hex').toString('base64'),
                caption: 'look',
              }),
              mediaMessage({ phone }, 'document', { id: pdf.id, mimeType: 'application/pdf', sha256: pdf.sha256, filename: 'report.pdf' }),
            ],
          }),
        ],
      }),
    );
    const stored = await eventually('both files', async () => {
      const rows = await metaMessages(m.t, w.workspaceId);
      return rows.length === 2 && rows.every((row) => row.media_url !== '') && rows;
    });
    const byType = Object.fromEntries(stored.map((row) => [row.message_type, row]));
    expect(byType.image).toEqual(
      expect.objectContaining({ content: 'look', media_url: expect.stringMatching(new RegExp(`^/api/media/${w.workspaceId}/[a-f0-9]+\\.png$`)) }),
    );
    const served = await m.t.http().get(byType.image!.media_url).set('Authorization', `Bearer ${w.key}`).buffer(true);
    expect([served.status, served.headers['content-type'], Buffer.compare(served.body as Buffer, PNG)]).toEqual([200, 'image/png', 0]);
    const doc = await m.t.http().get(byType.document!.media_url).set('Authorization', `Bearer ${w.key}`).buffer(true);
    expect([doc.status, doc.headers['content-disposition']]).toEqual([200, expect.stringContaining('report.pdf')]);

    const lookups = m.graph.received({ method: 'GET', path: `/${image.id}` });
    expect(lookups.map((r) => [r.token, r.query.phone_number_id])).toEqual([[w.token, w.phoneNumberId]]);
    expect(m.graph.received({ path: `/__media/${image.id}` }).map((r) => r.token)).toEqual([w.token]);
  });

  it("reads a voice note's, an audio file's and a video's playing time from the file, as the provider sends none", async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const files = {
      voice: m.graph.world.addMedia({ data: oggOpus(7), mimeType: 'audio/ogg; codecs=opus', phoneNumberId: w.phoneNumberId }),
      audio: m.graph.world.addMedia({ data: oggOpus(64), mimeType: 'audio/ogg', phoneNumberId: w.phoneNumberId }),
      video: m.graph.world.addMedia({ data: mp4(21), mimeType: 'video/mp4', phoneNumberId: w.phoneNumberId }),
      // An MP3 has no header that says: it stays 0.
      mp3: m.graph.world.addMedia({ data: Buffer.concat([Buffer.from('ID3'), Buffer.alloc(300, 5)]), mimeType: 'audio/mpeg', phoneNumberId: w.phoneNumberId }),
    };
    const ids = { voice: wamid(), audio: wamid(), video: wamid(), mp3: wamid() };
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            contacts: [contact({ phone })],
            messages: [
              mediaMessage({ phone }, 'audio', { id: files.voice.id, mimeType: 'audio/ogg; codecs=opus', sha256: files.voice.sha256, voice: true }, ids.voice),
              mediaMessage({ phone }, 'audio', { id: files.audio.id, mimeType: 'audio/ogg', sha256: files.audio.sha256, voice: false }, ids.audio),
              mediaMessage({ phone }, 'video', { id: files.video.id, mimeType: 'video/mp4', sha256: files.video.sha256 }, ids.video),
              mediaMessage({ phone }, 'audio', { id: files.mp3.id, mimeType: 'audio/mpeg', sha256: files.mp3.sha256, voice: false }, ids.mp3),
            ],
          }),
        ],
      }),
    );
    const rows = await eventually('every file', async () => {
      const stored = await metaMessages(m.t, w.workspaceId);
      return stored.length === 4 && stored.every((row) => row.media_url !== '') && stored;
    });
    const list = await m.t.http().get(`/api/conversations/${rows[0]!.conversation_id}/messages`).set('Authorization', `Bearer ${w.key}`);
    const shown = (list.body as { messages: { chat_message_id: string; kind: string; duration_s: number }[] }).messages;
    const of = (id: string) => shown.find((x) => x.chat_message_id === id)!;
    expect(Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, [of(id).kind, of(id).duration_s]]))).toEqual({
      voice: ['voice', 7],
      audio: ['audio', 64],
      video: ['video', 21],
      mp3: ['audio', 0],
    });
  });

  it('gives up at once on a media id the provider does not know; the message stays without its file', async () => {
    const w = await connectedWorkspace(m);
    const phone = newPhone();
    const missing = graphId();
    await deliverAndSettle(
      m,
      callback({
        wabaId: w.wabaId,
        changes: [
          messagesChange(w.phoneNumberId, {
            contacts: [contact({ phone })],
            messages: [mediaMessage({ phone }, 'image', { id: missing, mimeType: 'image/jpeg' })],
          }),
        ],
      }),
    );
    const [message] = await metaMessages(m.t, w.workspaceId);
    const queue = m.t.app.get<Queue>(getQueueToken(QueueName.MetaMedia));
    const jobId = `meta-media-${message!.id}`;
    await eventually('the download job to fail', async () => (await queue.getJobState(jobId)) === 'failed');
    // Read the job only once it has failed: a copy read while it was still active says 0 attempts.
    const job = (await queue.getJob(jobId))!;
    // Failed for good after one attempt (the provider's 4xx is final), not retried with backoff.
    expect(job.attemptsMade).toBe(1);
    expect(m.graph.received({ path: `/${missing}` })).toHaveLength(1);
    expect((await metaMessages(m.t, w.workspaceId)).map((row) => [row.message_type, row.media_url])).toEqual([['image', '']]);
  });
});
