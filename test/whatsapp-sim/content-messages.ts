// Message content a contact's WhatsApp client writes, beside text and media: a place, contact
// cards, a poll, a reply or mentions, and what acts on an earlier message (a reaction, a revoke,
// an edit). Plain protos, for `sim.deliverMessage({ to, from, message })`; shaped as WhatsApp's
// clients send them, from the proto, not from Baileys' own builders.
import { proto } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';

const { REVOKE, MESSAGE_EDIT } = proto.Message.ProtocolMessage.Type;

/** What a poll and an edit carry beside their content: a secret (votes and edits are encrypted with it). */
const secret = (): proto.IMessageContextInfo => ({ messageSecret: randomBytes(32) });

export function location(place: { latitude: number; longitude: number; name?: string; address?: string; url?: string }): proto.IMessage {
  return {
    locationMessage: {
      degreesLatitude: place.latitude,
      degreesLongitude: place.longitude,
      ...(place.name ? { name: place.name } : {}),
      ...(place.address ? { address: place.address } : {}),
      ...(place.url ? { url: place.url } : {}),
    },
  };
}

/** A live location as it starts: its first position (later moves are updates of the sharing). */
export function liveLocation(position: { latitude: number; longitude: number; caption?: string }): proto.IMessage {
  return {
    liveLocationMessage: {
      degreesLatitude: position.latitude,
      degreesLongitude: position.longitude,
      accuracyInMeters: 12,
      sequenceNumber: 1,
      ...(position.caption ? { caption: position.caption } : {}),
    },
  };
}

/** A vCard 3.0 as WhatsApp's clients write one: each number with its `waid`. */
export function vcard(name: string, phones: readonly string[]): string {
  const tels = phones.map((phone) => `TEL;type=CELL;type=VOICE;waid=${phone}:+${phone}`);
  return ['BEGIN:VCARD', 'VERSION:3.0', `N:;${name};;;`, `FN:${name}`, ...tels, 'END:VCARD'].join('\n');
}

/** One card is a `contactMessage`, several a `contactsArrayMessage`. */
export function contacts(cards: readonly { name: string; phones: readonly string[] }[]): proto.IMessage {
  const messages = cards.map((card) => ({ displayName: card.name, vcard: vcard(card.name, card.phones) }));
  if (messages.length === 1) return { contactMessage: messages[0] };
  return { contactsArrayMessage: { displayName: `${messages.length} contacts`, contacts: messages } };
}

/** A poll as current clients send it (V3); `multiple` lets each voter pick any number of options. */
export function poll(question: string, options: readonly string[], multiple = false): proto.IMessage {
  return {
    pollCreationMessageV3: { name: question, options: options.map((optionName) => ({ optionName })), selectableOptionsCount: multiple ? 0 : 1 },
    messageContextInfo: secret(),
  };
}

/** A text that quotes an earlier message of the chat (`participant`: who wrote it, in a group) and mentions jids. */
export function text(body: string, context: { quote?: { id: string; participant?: string; text: string }; mentions?: string[] } = {}): proto.IMessage {
  const { quote, mentions } = context;
  return {
    extendedTextMessage: {
      text: body,
      contextInfo: {
        ...(quote ? { stanzaId: quote.id, ...(quote.participant ? { participant: quote.participant } : {}), quotedMessage: { conversation: quote.text } } : {}),
        ...(mentions ? { mentionedJid: mentions } : {}),
      },
    },
  };
}

/**
 * A key naming an earlier message of the chat as the sender sees it: `fromMe` when the sender
 * wrote it (Baileys turns the key to the receiver's side). `chat` is any jid of the chat (Baileys
 * puts the chat the update arrived in).
 */
const key = (target: { id: string; fromMe?: boolean; chat?: string; participant?: string }): proto.IMessageKey => ({
  remoteJid: target.chat ?? '',
  fromMe: target.fromMe ?? false,
  id: target.id,
  ...(target.participant ? { participant: target.participant } : {}),
});

/** A reaction to a message; an empty emoji takes it back. */
export function reaction(target: { id: string; fromMe?: boolean; chat?: string; participant?: string }, emoji: string): proto.IMessage {
  return { reactionMessage: { key: key(target), text: emoji, senderTimestampMs: Date.now() } };
}

/** Deleted for everyone by its sender. */
export function revoke(target: { id: string; chat?: string }): proto.IMessage {
  return { protocolMessage: { type: REVOKE, key: key({ ...target, fromMe: true }) } };
}

/** Its sender changes a text (in the `editedMessage` wrapper, as current clients send an edit). */
export function edit(target: { id: string; chat?: string }, newText: string): proto.IMessage {
  return {
    editedMessage: {
      message: {
        protocolMessage: { type: MESSAGE_EDIT, key: key({ ...target, fromMe: true }), editedMessage: { conversation: newText }, timestampMs: Date.now() },
      },
    },
    messageContextInfo: secret(),
  };
}
