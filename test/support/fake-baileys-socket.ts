import { Boom } from '@hapi/boom';
import {
  type AnyMessageContent,
  type Contact,
  type GroupMetadata,
  makeEventBuffer,
  type UserFacingSocketConfig,
  type WAMessage,
  type WAMessageKey,
} from '@whiskeysockets/baileys';
import pino from 'pino';
import type { BaileysSocket, MakeBaileysSocket } from '../../src/modules/chat/driver/baileys/baileys-socket.types.js';

/**
 * A stand-in for Baileys' socket with Baileys' real event buffer as `ev`, so events reach the
 * driver through the same `ev.process` path (and buffering) as in production. Tests emit
 * objects in the shapes Baileys 7 emits and read what the driver asked of the socket.
 */
export class FakeBaileysSocket implements BaileysSocket {
  readonly ev = makeEventBuffer(pino({ level: 'silent' }));
  user: Contact | undefined;
  readonly sent: { jid: string; content: AnyMessageContent }[] = [];
  readonly read: WAMessageKey[][] = [];
  readonly ended: (Error | undefined)[] = [];
  readonly groupQueries: string[] = [];
  loggedOut = false;
  sendError: Error | null = null;
  private nextId = 1;

  constructor(readonly config: UserFacingSocketConfig) {}

  sendMessage = async (jid: string, content: AnyMessageContent): Promise<WAMessage | undefined> => {
    if (this.sendError) throw this.sendError;
    this.sent.push({ jid, content });
    return { key: { remoteJid: jid, fromMe: true, id: `3EB0OUT${this.nextId++}` } };
  };

  readMessages = async (keys: WAMessageKey[]): Promise<void> => {
    this.read.push(keys);
  };

  groupMetadata = async (jid: string): Promise<GroupMetadata> => {
    this.groupQueries.push(jid);
    return { id: jid, subject: 'Team', owner: undefined, participants: [{ id: '88888888888888@lid' }], addressingMode: 'lid' } as GroupMetadata;
  };

  /** As Baileys' `logout()`: tells the server, then ends with 401 "Intentional Logout". */
  logout = async (): Promise<void> => {
    this.loggedOut = true;
    await this.end(new Boom('Intentional Logout', { statusCode: 401 }));
  };

  /** As Baileys' `end()`: once, emits the close with `lastDisconnect`, then drops every listener. */
  end = async (error: Error | undefined): Promise<void> => {
    if (this.ended.length > 0) return;
    this.ended.push(error);
    this.ev.emit('connection.update', { connection: 'close', lastDisconnect: { error, date: new Date() } });
    this.ev.removeAllListeners('connection.update');
    this.ev.destroy();
  };

  /** Closes as the server would: `end(new Boom(message, { statusCode }))`. */
  closeWith(statusCode: number, message: string): Promise<void> {
    return this.end(new Boom(message, { statusCode }));
  }
}

/** A socket factory that records every socket it makes. */
export function fakeSocketFactory(): { make: MakeBaileysSocket; sockets: FakeBaileysSocket[] } {
  const sockets: FakeBaileysSocket[] = [];
  return {
    sockets,
    make: (config) => {
      const socket = new FakeBaileysSocket(config);
      sockets.push(socket);
      return socket;
    },
  };
}
