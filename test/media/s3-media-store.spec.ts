import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { ConfigError, loadConfig } from '../../src/infra/config/app-config.js';
import type { ScanMedia } from '../../src/modules/chat/driver/scan-driver.port.js';
import { S3MediaStore } from '../../src/modules/media/s3-media.store.js';
import { createInboundTestApp, eventually, type InboundTestApp, scanMessage, storedMessage } from '../chat/inbound-support.js';
import { startS3Server, type TestS3Server } from '../support/s3-server.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), Buffer.from('pixels of a shared image')]);
const PDF = Buffer.from('%PDF-1.4\n% stored once, served by every replica\n');
const WORKSPACE = '0b6f1c4e-8a4d-4c3e-9f5e-2d1a7b9c0e11';

describe('MEDIA_STORE=s3: media in an S3-compatible bucket', () => {
  let s3: TestS3Server;
  // Two processes on two machines: the worker side (`all`, downloads media) and an api replica,
  // each with a local MEDIA_DIR of its own that must stay empty.
  let writer: InboundTestApp;
  let reader: TestApp;
  let readerDir: string;
  let workspaceId: string;
  let key: string;
  let imageUrl: string;
  let documentUrl: string;

  beforeAll(async () => {
    s3 = await startS3Server();
    writer = await createInboundTestApp(s3.env);
    readerDir = await mkdtemp(join(tmpdir(), 'inbox-media-replica-'));
    reader = await createTestApp({ replicaOf: writer.t, env: { ...s3.env, ROLE: 'api', MEDIA_DIR: readerDir } });

    const owned = await writer.t.factories.workspaceWithOwner();
    workspaceId = owned.workspace.id;
    ({ key } = await writer.t.factories.apiKey(workspaceId, 'read'));
    const media = (ref: string, bytes: Buffer, overrides: Partial<ScanMedia>): ScanMedia => {
      writer.driver.media.set(ref, bytes);
      return { mimeType: 'image/png', fileName: '', fileSize: bytes.length, ref, ...overrides };
    };
    const image = scanMessage({ type: 'image', content: 'shared', media: media(`s3-image-${workspaceId}`, PNG, { mimeType: 'image/png' }) });
    const document = scanMessage({
      type: 'document',
      content: 'the contract',
      media: media(`s3-doc-${workspaceId}`, PDF, { mimeType: 'application/pdf', fileName: 'Vertrag Größe ½.pdf' }),
    });
    await writer.handler.handle(workspaceId, { type: 'messages', kind: 'notify', messages: [image, document] });
    const urlOf = (externalId: string): Promise<string> =>
      eventually(`media_url of ${externalId}`, async () => ((await storedMessage(writer.t.dataSource, workspaceId, externalId))?.media_url as string) || null);
    imageUrl = await urlOf(image.externalId);
    documentUrl = await urlOf(document.externalId);
  });
  afterAll(async () => {
    await reader?.close();
    await writer?.close();
    await rm(readerDir, { recursive: true, force: true });
    await s3?.stop();
  });

  it('serves a file downloaded by one process from another process with a separate disk', async () => {
    const image = await reader.http().get(imageUrl).set('Authorization', `Bearer ${key}`).buffer(true);
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-length']).toBe(String(PNG.length));
    expect(Buffer.from(image.body as Buffer)).toEqual(PNG);

    const document = await reader.http().get(documentUrl).set('Authorization', `Bearer ${key}`).buffer(true);
    expect(document.status).toBe(200);
    // Not an allowlisted inline type: a download, with its own type.
    expect(document.headers['content-type']).toBe('application/pdf');
    // The non-ASCII file name survives S3's ASCII-only metadata.
    expect(document.headers['content-disposition']).toBe(
      `attachment; filename="Vertrag Gr__e _.pdf"; filename*=UTF-8''${encodeURIComponent('Vertrag Größe ½.pdf')}`,
    );
    expect(Buffer.from(document.body as Buffer)).toEqual(PDF);
  });

  it('keeps the bytes in the bucket under <workspace>/<file>, and nothing on either local disk', async () => {
    const client = new S3Client({
      endpoint: s3.url,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    });
    try {
      const file = imageUrl.split('/').pop()!;
      const object = await client.send(new GetObjectCommand({ Bucket: s3.bucket, Key: `${workspaceId}/${file}` }));
      expect(Buffer.from(await object.Body!.transformToByteArray())).toEqual(PNG);
    } finally {
      client.destroy();
    }
    expect(await readdir(writer.mediaDir)).toEqual([]);
    expect(await readdir(readerDir)).toEqual([]);
  });

  it('answers 404 for a file that is not in the bucket and for another workspace', async () => {
    const missing = imageUrl.replace(/[a-f0-9]{32}\.png$/, `${'0'.repeat(32)}.png`);
    const res = await reader.http().get(missing).set('Authorization', `Bearer ${key}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'media not found' });

    const other = await writer.t.factories.workspaceWithOwner();
    const { key: otherKey } = await writer.t.factories.apiKey(other.workspace.id, 'read');
    const foreign = await reader.http().get(imageUrl).set('Authorization', `Bearer ${otherKey}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: 'media not found' });
  });

  it('answers 503 (retry later), not 500, while the bucket is unreachable', async () => {
    const down = await createTestApp({ replicaOf: writer.t, env: { ...s3.env, S3_ENDPOINT: 'http://127.0.0.1:9', ROLE: 'api', MEDIA_DIR: readerDir } });
    try {
      const res = await down.http().get(imageUrl).set('Authorization', `Bearer ${key}`);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'service temporarily unavailable, please retry' });
    } finally {
      await down.close();
    }
  });

  it('overwrites in place, keeps S3_KEY_PREFIX, and reports existence (the store on its own)', async () => {
    const store = new S3MediaStore({ ...loadConfig({ ...s3.env, S3_KEY_PREFIX: 'tenant-files/media/' }).s3! });
    try {
      const file = `${'ab'.repeat(16)}.txt`;
      expect(await store.exists(WORKSPACE, file)).toBe(false);
      expect(await store.get(WORKSPACE, file)).toBeNull();
      await store.put(WORKSPACE, file, Buffer.from('first'), { mimeType: 'text/plain', fileName: null });
      await store.put(WORKSPACE, file, Buffer.from('second version'), { mimeType: 'text/plain', fileName: 'notes.txt' });
      expect(await store.exists(WORKSPACE, file)).toBe(true);
      const stored = await store.get(WORKSPACE, file);
      expect(stored).toMatchObject({ mimeType: 'text/plain', fileName: 'notes.txt', size: 'second version'.length });
      const chunks: Buffer[] = [];
      for await (const chunk of stored!.stream) chunks.push(chunk as Buffer);
      expect(Buffer.concat(chunks).toString()).toBe('second version');
      expect(await readdir(join(s3.directory, s3.bucket, 'tenant-files', 'media', WORKSPACE))).toContain(`${file}._S3rver_object`);
      // Whatever a caller passes, no other key can be named.
      await expect(store.put(WORKSPACE, '../escape.txt', Buffer.from('x'), { mimeType: 'text/plain', fileName: null })).rejects.toThrow(/refused key/);
      await expect(store.get('not-a-uuid', file)).rejects.toThrow(/refused key/);
    } finally {
      store.onApplicationShutdown();
    }
  });

  it('refuses to start with MEDIA_STORE=s3 but no bucket, or half a key pair', () => {
    const problems = (env: Record<string, string>): string[] => {
      try {
        loadConfig(env);
        return [];
      } catch (error) {
        return (error as ConfigError).problems;
      }
    };
    expect(problems({ MEDIA_STORE: 's3' })).toEqual(['S3_BUCKET is required when MEDIA_STORE=s3']);
    expect(problems({ MEDIA_STORE: 's3', S3_BUCKET: 'media', S3_ACCESS_KEY_ID: 'AKIA' })).toEqual([
      'S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together (or neither, for the AWS default credential chain)',
    ]);
    expect(problems({ MEDIA_STORE: 'nfs' })[0]).toMatch(/^MEDIA_STORE must be one of the following values: local, s3/);
    expect(problems({ MEDIA_STORE: 's3', S3_BUCKET: 'Bad_Bucket' })[0]).toMatch(/^S3_BUCKET must be a bucket name/);
    expect(loadConfig({ MEDIA_STORE: 's3', S3_BUCKET: 'media' }).s3).toEqual({
      endpoint: undefined,
      bucket: 'media',
      region: 'us-east-1',
      credentials: undefined,
      forcePathStyle: false,
      keyPrefix: '',
    });
  });
});
