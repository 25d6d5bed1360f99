import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { TcpProxy } from '../support/tcp-proxy.js';
import { createTestDatabase, dropTestDatabase } from '../support/test-env.js';
import { createInboundTestApp, type InboundTestApp, scanMessage, storedMessage } from './inbound-support.js';

/**
 * A scan message that arrives while Postgres is unreachable waits for it (in order, its receipt to
 * WhatsApp held until it is stored), rather than being dropped or failing at once: the number
 * need not reconnect for WhatsApp to deliver it again.
 */
describe('scan inbound while Postgres is unreachable', () => {
  let s: InboundTestApp;
  let proxy: TcpProxy;
  let database: { name: string; url: string };
  let workspaceId: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    proxy = await TcpProxy.start(database.url);
    s = await createInboundTestApp({ DATABASE_URL: proxy.rewrite(database.url) });
    workspaceId = (await s.t.factories.workspaceWithOwner()).workspace.id;
  });
  afterAll(async () => {
    await proxy?.open();
    await s?.close();
    await proxy?.close();
    await dropTestDatabase(database.name);
  });

  it('stores a message that arrived meanwhile once Postgres is back, exactly once', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const message = scanMessage({ content: 'sent during the outage' });
    await proxy.close();
    const handled = s.handler.handle(workspaceId, { type: 'messages', kind: 'notify', messages: [message] });
    await new Promise((resolve) => setTimeout(resolve, 800));
    await proxy.open();
    await handled;
    const rows: { n: number }[] = await s.t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND external_id = $2`, [
      workspaceId,
      message.externalId,
    ]);
    expect(rows[0]!.n).toBe(1);
    expect(await storedMessage(s.t.dataSource, workspaceId, message.externalId)).toMatchObject({ content: 'sent during the outage', direction: 'inbound' });
  });
});
