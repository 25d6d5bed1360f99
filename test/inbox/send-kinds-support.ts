// What the send-kinds tests share (send-kinds-*.spec.ts): the inbox with the scan channel's
// gateway, its sessions recorded (what reaches the channel), a loopback file host for `media.url`
// sends, a connected conversation with one inbound message, and the reads every kind is checked with.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type supertest from 'supertest';
import type { ScanOutgoing } from '../../src/modules/chat/driver/scan-driver.port.js';
import { eventually } from '../chat/chat-support.js';
import { createInboundTestApp, type InboundTestApp, scanMessage } from '../chat/inbound-support.js';
import { randomPhone } from '../support/inbox-factories.js';

/** This number's own jid, as its echoes name it. */
export const OWN = '4915100000001@s.whatsapp.net';
export const b64 = (data: Buffer): string => data.toString('base64');

/** A connected scan conversation with one inbound message from the contact (a group's from a member). */
export interface SendChat {
  ws: string;
  key: string;
  id: string;
  jid: string;
  inboundId: string;
  member: string;
}

export interface SendKinds {
  s: InboundTestApp;
  /** The file host's address (`${filesUrl}/note.ogg`). */
  filesUrl: string;
  /** What the file host serves, by path. */
  hosted: Map<string, { type: string; data: Buffer }>;
  chat(group?: boolean): Promise<SendChat>;
  post(key: string, path: string, body: object): supertest.Test;
  send(c: { key: string; id: string }, body: object): supertest.Test;
  /** What the scan channel was asked to send for a workspace. */
  sentBy(ws: string): ScanOutgoing[];
  /** How many outbound messages a workspace stores. */
  outbound(ws: string): Promise<number>;
  /** The stored row of a message (every column). */
  stored(id: string): Promise<Record<string, unknown>>;
  /**
   * The stored row once the message left the number's outbound queue: scan sends answer 201
   * `pending` and reach the channel moments later (its WhatsApp id then in `external_id`).
   */
  sent(id: string): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

/** Starts the app (private media urls allowed, for the loopback file host) and the file host. */
export async function startSendKinds(): Promise<SendKinds> {
  const s = await createInboundTestApp({ ALLOW_PRIVATE_MEDIA_URLS: 'true' });
  const hosted = new Map<string, { type: string; data: Buffer }>();
  const files: Server = createServer((req, res) => {
    const file = hosted.get(req.url ?? '');
    if (!file) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': file.type }).end(file.data);
  });
  await new Promise<void>((resolve) => files.listen(0, '127.0.0.1', resolve));
  const filesUrl = `http://127.0.0.1:${(files.address() as AddressInfo).port}`;

  const stored = async (id: string): Promise<Record<string, unknown>> =>
    ((await s.t.dataSource.query('SELECT * FROM messages WHERE id = $1', [id])) as Record<string, unknown>[])[0]!;
  const post = (key: string, path: string, body: object): supertest.Test => s.t.http().post(path).set('Authorization', `Bearer ${key}`).send(body);
  return {
    s,
    filesUrl,
    hosted,
    async chat(group = false) {
      const { workspace, key } = await s.t.factories.workspaceWithOwner();
      const jid = group ? `120363${Math.floor(Math.random() * 1e12)}@g.us` : `${randomPhone()}@s.whatsapp.net`;
      const member = group ? `${randomPhone()}@s.whatsapp.net` : jid;
      const inbound = scanMessage({ chatJid: jid, isGroup: group, senderJid: member, content: 'the original', timestamp: new Date(Date.now() - 5_000) });
      await s.handler.handle(workspace.id, { type: 'messages', kind: 'notify', messages: [inbound] });
      const [row]: { id: string; m: string }[] = await s.t.dataSource.query(
        'SELECT c.id, m.id AS m FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE c.workspace_id = $1',
        [workspace.id],
      );
      s.sessions.connected.add(workspace.id);
      return { ws: workspace.id, key, id: row!.id, jid, inboundId: row!.m, member };
    },
    post,
    send: (c, body) => post(c.key, `/api/conversations/${c.id}/messages`, body),
    sentBy: (ws) => s.sessions.sends.filter((call) => call.workspaceId === ws).map((call) => call.outgoing),
    outbound: async (ws) =>
      ((await s.t.dataSource.query(`SELECT count(*)::int AS n FROM messages WHERE workspace_id = $1 AND direction = 'outbound'`, [ws])) as { n: number }[])[0]!
        .n,
    stored,
    sent: (id) =>
      eventually(`message ${id} out of the queue`, async () => {
        const row = await stored(id);
        return row.status !== 'pending' ? row : undefined;
      }),
    async close() {
      await new Promise((resolve) => files.close(resolve));
      await s.close();
    },
  };
}
