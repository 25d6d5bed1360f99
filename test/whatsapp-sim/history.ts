// History sync from the phone, inline in the notification (zlib-deflated HistorySync). WhatsApp
// inlines only the first (INITIAL_BOOTSTRAP) batch and uploads the others, but Baileys fetches
// those from mmg.whatsapp.net whatever the media host (the notification names no host), which a
// loopback simulator cannot be; it accepts an inline payload for any batch, so every batch is
// inline here. `progress` is the phone's figure for the initial sync: absent on the bootstrap
// batch, as on a real phone, and 100 on the last batch.
import { proto } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import type { World } from './sim-model.js';

export interface HistoryOptions {
  /** The phone's progress of the initial sync (0–100); 100 marks its last batch. Absent: not said. */
  progress?: number;
  syncType?: proto.HistorySync.HistorySyncType;
  chunkOrder?: number;
}

export interface HistoryConversation {
  /** The contact's phone number (a 1:1 chat). */
  contact: string;
  name?: string;
  /** `message`: any content (a reply, say: content-messages.ts), else the plain `text`. */
  messages: { text: string; message?: proto.IMessage; fromMe?: boolean; id?: string; t?: number }[];
}

export const historyMessage = (
  world: World,
  conversations: HistoryConversation[],
  syncType: proto.HistorySync.HistorySyncType,
  progress?: number,
  chunkOrder = 0,
): proto.IMessage => {
  const history = proto.HistorySync.encode({
    syncType,
    ...(progress === undefined ? {} : { progress }),
    chunkOrder,
    conversations: conversations.map((c) => {
      const contact = world.contact(c.contact, c.name);
      return {
        id: contact.pnJid,
        name: contact.name,
        messages: c.messages.map((m) => ({
          message: {
            key: { remoteJid: contact.pnJid, fromMe: m.fromMe ?? false, id: m.id ?? randomBytes(8).toString('hex').toUpperCase() },
            message: m.message ?? { conversation: m.text },
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
        ...(progress === undefined ? {} : { progress }),
        chunkOrder,
        initialHistBootstrapInlinePayload: deflateSync(history),
      },
    },
  };
};
