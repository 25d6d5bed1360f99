// History sync from the phone: Baileys accepts the first (INITIAL_BOOTSTRAP) batch inline in the
// notification (zlib-deflated HistorySync), so no media host is needed.
import { proto } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { World } from './sim-model.js';

export interface HistoryConversation {
  /** The contact's phone number (a 1:1 chat). */
  contact: string;
  name?: string;
  messages: { text: string; fromMe?: boolean; id?: string; t?: number }[];
}

export const historyMessage = (
  world: World,
  conversations: HistoryConversation[],
  syncType: proto.HistorySync.HistorySyncType,
): proto.IMessage => {
  const history = proto.HistorySync.encode({
    syncType,
    progress: 100,
    conversations: conversations.map((c) => {
      const contact = world.contact(c.contact, c.name);
      return {
        id: contact.pnJid,
        name: contact.name,
        messages: c.messages.map((m) => ({
          message: {
            key: { remoteJid: contact.pnJid, fromMe: m.fromMe ?? false, id: m.id ?? randomBytes(8).toString('hex').toUpperCase() },
            message: { conversation: m.text },
            messageTimestamp: m.t ?? Math.floor(Date.now() / 1000),
            ...(m.fromMe ? {} : { pushName: contact.name }),
          },
        })),
      };
    }),
  }).finish();
  return {
    protocolMessage: {
      type: proto.Message.ProtocolMessage.Type.HISTORY_SYNC_NOTIFICATION,
      historySyncNotification: {
        syncType,
        progress: 100,
        chunkOrder: 0,
        initialHistBootstrapInlinePayload: deflateSync(history),
      },
    },
  };
};
