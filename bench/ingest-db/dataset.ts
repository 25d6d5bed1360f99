import type { InboundMessage } from '../../src/modules/inbox/ingest/inbound-message.js';

export interface Dataset {
  messages: InboundMessage[];
  /** Messages grouped by chat, each list in timestamp order (what one chat's socket delivers). */
  byChat: InboundMessage[][];
}

/**
 * N messages over C one-to-one chats, round-robin, one second apart, a quarter of them outbound
 * (sent from the phone), with realistic text lengths. Deterministic, so runs compare.
 */
export function buildDataset(n: number, chats: number, start = Date.UTC(2026, 0, 1)): Dataset {
  const phones = Array.from({ length: chats }, (_, i) => `4915${String(10_000_000 + i).padStart(9, '0')}`);
  const messages: InboundMessage[] = [];
  const byChat: InboundMessage[][] = phones.map(() => []);
  for (let i = 0; i < n; i++) {
    const chat = i % chats;
    const phone = phones[chat]!;
    const outbound = i % 4 === 3;
    const message: InboundMessage = {
      channel: 'scan',
      externalId: `3EB0${i.toString(16).toUpperCase().padStart(16, '0')}`,
      chatJid: `${phone}@s.whatsapp.net`,
      direction: outbound ? 'outbound' : 'inbound',
      senderJid: outbound ? '4915000000000@s.whatsapp.net' : `${phone}@s.whatsapp.net`,
      senderName: outbound ? '' : `Contact ${chat}`,
      contact: { phone, name: `Contact ${chat}` },
      content: `Message ${i}: ${'lorem ipsum dolor sit amet '.repeat(1 + (i % 4))}`.trim(),
      timestamp: new Date(start + i * 1000),
    };
    messages.push(message);
    byChat[chat]!.push(message);
  }
  return { messages, byChat };
}
