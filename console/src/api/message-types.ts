// The contract's `message_type` values and the precise kinds (`kind`), as the Console shows them.
// A copy: the Console's build does not reach the service's code. test/console/console-message-types.spec.ts
// checks that both equal the service's catalogue (src/modules/inbox/message-kinds.ts).
export const MESSAGE_TYPES = ['text', 'image', 'document'] as const;
export type MessageType = (typeof MESSAGE_TYPES)[number];

/** Each kind with its coarse `message_type`, in the service catalogue's order. */
export const MESSAGE_KIND_TYPES = {
  text: 'text',
  image: 'image',
  document: 'document',
  video: 'document',
  audio: 'document',
  voice: 'document',
  sticker: 'image',
  location: 'text',
  contacts: 'text',
  poll: 'text',
  unsupported: 'text',
} as const satisfies Record<string, MessageType>;

export type MessageKind = keyof typeof MESSAGE_KIND_TYPES;
export const MESSAGE_KINDS = Object.keys(MESSAGE_KIND_TYPES) as readonly MessageKind[];

/** What a kind is called where a message has no text of its own (a reply's quote, the reply bar). */
export const KIND_LABELS: Record<MessageKind, string> = {
  text: 'Message',
  image: '🖼 Image',
  document: '📄 Document',
  video: '🎬 Video',
  audio: '🎵 Audio',
  voice: '🎤 Voice message',
  sticker: 'Sticker',
  location: '📍 Location',
  contacts: '👤 Contact',
  poll: '📊 Poll',
  unsupported: 'Unsupported message',
};

/**
 * The kind of a message from a service that may predate `kind` (or know a newer one): its coarse
 * type stands in, so an older or newer service's messages still show.
 */
export function kindOf(message: { kind?: string; message_type: MessageType }): MessageKind {
  return message.kind && Object.hasOwn(MESSAGE_KIND_TYPES, message.kind) ? (message.kind as MessageKind) : message.message_type;
}

/**
 * The end of a switch over message types or kinds: one left unhandled does not compile. At run
 * time (a newer service than this build) the message just shows without it.
 */
export const unhandledType = (_type: never): null => null;
