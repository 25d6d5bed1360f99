import { type BaileysEventMap, proto } from '@whiskeysockets/baileys';
import type { ScanHistoryBatch } from '../../scan-driver.port.js';
import type { OwnJids } from './baileys-content.types.js';
import { mapLidMappings } from './baileys-lid.mapper.js';
import { mapMessages } from './baileys-message.mapper.js';

/**
 * A history-sync chunk: its messages mapped like live ones (messages only: no updates, no
 * protocol traffic), names from its chats and contacts, its LID mappings.
 */
export function mapHistory(set: BaileysEventMap['messaging-history.set'], own: OwnJids, now?: Date): ScanHistoryBatch {
  const chatNames: Record<string, string> = {};
  for (const contact of set.contacts ?? []) {
    const name = contact.name || contact.notify || contact.verifiedName;
    if (contact.id && name) chatNames[contact.id] = name;
  }
  for (const chat of set.chats ?? []) {
    if (chat.id && chat.name) chatNames[chat.id] = chat.name;
  }
  return {
    messages: mapMessages(set.messages ?? [], own, now),
    chatNames,
    lidMappings: mapLidMappings(set.lidPnMappings ?? []),
    progress: typeof set.progress === 'number' ? set.progress : null,
    // The phone's last batch of the initial sync says 100 %. Baileys' own `isLatest` only marks
    // the first batch it processed after the link (more batches follow), and on-demand batches
    // are not part of the initial sync.
    isLatest: set.progress === 100 && set.syncType !== proto.HistorySync.HistorySyncType.ON_DEMAND,
  };
}
