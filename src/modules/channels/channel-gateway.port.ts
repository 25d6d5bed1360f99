import type { ContactCard, LocationDetails } from '../inbox/message-details.js';
import type { MediaKind, MessageKind } from '../inbox/message-kinds.js';

/** The two ways a workspace reaches WhatsApp (docs/contract.md#the-service). */
export const CHANNEL_NAMES = ['scan', 'meta'] as const;
export type ChannelName = (typeof CHANNEL_NAMES)[number];

/** What a gateway needs to know about the chat it sends to. */
export interface ChannelConversation {
  id: string;
  channel: ChannelName;
  chatJid: string;
  chatPhone: string;
  isGroup: boolean;
}

export interface OutgoingMedia {
  /** Exactly one of `url` and `data` is set. */
  url?: string;
  data?: Buffer;
  mimeType: string;
  fileName: string;
}

/** Interactive messages (the Cloud API's, inside the customer-service window): reply buttons or a list. */
export type OutgoingInteractive =
  | { kind: 'buttons'; body: string; header: string; footer: string; buttons: { id: string; title: string }[] }
  | {
      kind: 'list';
      body: string;
      header: string;
      footer: string;
      /** The label of the button that opens the list. */
      button: string;
      sections: { title: string; rows: { id: string; title: string; description: string }[] }[];
    };

/** What a send says, by kind. `durationS`: a timed file's playing time, when the inbox could read it. */
export type OutgoingContent =
  | { type: 'text'; body: string }
  | { type: MediaKind; media: OutgoingMedia; caption: string; durationS?: number }
  | { type: 'location'; location: LocationDetails }
  | { type: 'contacts'; contacts: ContactCard[] }
  | { type: 'interactive'; interactive: OutgoingInteractive };

/** The types of OutgoingContent. */
export type OutgoingType = OutgoingContent['type'];

/**
 * A stored message of the chat a send refers to: the one a reply quotes (`reply_to`), or the one
 * a reaction, an edit or a delete acts on. Enough for either channel to name it (Baileys quotes
 * the message's key and content; the Cloud API its id).
 */
export interface MessageTarget {
  externalId: string;
  /** This number sent it. */
  fromMe: boolean;
  /** Who wrote it (a group's participant). */
  senderJid: string;
  kind: MessageKind;
  content: string;
}

type WithReply<T> = T extends unknown ? T & { replyTo?: MessageTarget | null } : never;

/** An outgoing message before the inbox has stored it (no `messageId` yet). */
export type PreparedOutgoing = WithReply<OutgoingContent>;

export type OutgoingMessage = PreparedOutgoing & { messageId: string };

/** One body parameter of a provider template: `key` is `1`, `2`, … (or the provider's parameter name). */
export interface TemplateParameter {
  key: string;
  text: string;
}

/**
 * A template approved by the provider (Cloud API), sent by name and language with its body
 * parameters in order. `body` is the same template filled in, which the inbox stores as the
 * message's content; a channel without provider templates never receives one of these.
 */
export interface OutgoingTemplate {
  name: string;
  language: string;
  parameters: TemplateParameter[];
  /** A header parameter: its text, or its file. */
  header?: { type: 'text'; text: string } | { type: 'image' | 'document' | 'video'; media: OutgoingMedia } | null;
  /** Button parameters: a URL button's suffix, a quick reply's payload, a copy-code button's code, by the button's index. */
  buttons?: { index: number; subType: 'url' | 'quick_reply' | 'copy_code'; parameter: string }[];
  /** The message it replies to (`reply_to`), as for any send: the channel quotes it. */
  replyTo?: MessageTarget | null;
  body: string;
  messageId: string;
}

export interface SendReceipt {
  /** The channel's message id; inbound echoes and status updates refer to it. */
  externalId: string;
  /** Who the channel sent it as (the scan channel: the linked number's jid), when it knows. */
  senderJid?: string | null;
}

/**
 * A failure the channel can explain to the caller (rejected number, media too large, …). Its
 * message reaches the API client, with `details` as extra fields of the error body (the Cloud
 * API's `provider_code`, `provider_subcode`, `provider_title`); any other error is reported as a
 * generic send failure.
 */
export class ChannelError extends Error {
  constructor(
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = 'ChannelError';
  }
}

/**
 * The send's input cannot be sent as given, found out by the channel before anything is stored
 * (a `media.url` on a private address, a file over the size limit, not an image): the inbox
 * answers 400 with this text and stores nothing.
 */
export class ChannelInputError extends ChannelError {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelInputError';
  }
}

/**
 * Something the send depends on outside the channel failed before anything was stored (the
 * host of a `media.url` answered an error or could not be reached): the inbox answers 502 with
 * this text and stores nothing; the client may retry.
 */
export class ChannelUpstreamError extends ChannelError {
  constructor(message: string) {
    super(message);
    this.name = 'ChannelUpstreamError';
  }
}

/**
 * The channel lost its connection between the inbox's `isConnected` check and the send: the
 * inbox answers 409 with this text, as if the check had failed.
 */
export class ChannelNotConnectedError extends ChannelError {
  constructor() {
    super('chat is not connected');
    this.name = 'ChannelNotConnectedError';
  }
}

/**
 * The provider asked to slow down (the Cloud API's 131056 pair rate, 130429/80007/4 throughput,
 * 131048 spam rate): the message stays pending and is sent again after `retryAfterMs`, never
 * failed for it. `scope` 'chat' holds only this chat's queue; 'number' the whole number's.
 */
export class ChannelBusyError extends ChannelError {
  constructor(
    message: string,
    readonly scope: 'chat' | 'number',
    readonly retryAfterMs: number,
    details: Record<string, unknown> = {},
  ) {
    super(message, details);
    this.name = 'ChannelBusyError';
  }
}

/** A chat state shown to the other side: typing, recording a voice note, or stopped. */
export type TypingState = 'composing' | 'recording' | 'paused';
export const TYPING_STATES: readonly TypingState[] = ['composing', 'recording', 'paused'];

/** Whether a phone number has a WhatsApp account, and its chat id when it has. */
export interface NumberLookup {
  exists: boolean;
  jid: string | null;
}

/**
 * The inbox's only view of a channel. The scan (Baileys) and meta (Cloud API) channels implement
 * it and register with `ChannelRegistry`; the inbox never imports them.
 */
export interface ChannelGateway {
  readonly channel: ChannelName;
  /**
   * New messages go through the number's paced outbound queue (the scan channel: a person's
   * account, which WhatsApp bans for machine-like bursts); the Cloud API is sent at once.
   */
  readonly paced?: boolean;
  /** Optional: a chat state to the chat. Throws `ChannelNotConnectedError` when not connected. */
  typing?(workspaceId: string, conversation: ChannelConversation, state: TypingState): Promise<void>;
  /**
   * Optional: whether `phone` (digits only) is on WhatsApp, from the channel's cache when fresh.
   * `countsTowardLimit: false`: the check does not use the number's check budget (the inbox's own
   * check before a first message).
   */
  lookup?(workspaceId: string, phone: string, options?: { countsTowardLimit?: boolean }): Promise<NumberLookup>;
  /** Whether this workspace can send through this channel right now. */
  isConnected(workspaceId: string): Promise<boolean>;
  /**
   * Sends and resolves once the channel accepted the message. `outgoing.messageId` is the inbox's
   * own id of the pending row, for logs and for channels that accept a client id.
   */
  send(workspaceId: string, conversation: ChannelConversation, outgoing: OutgoingMessage): Promise<SendReceipt>;
  /**
   * Sends a provider template (the meta channel: a Graph API `template` message with body
   * parameters). Optional: for a channel without it, or a template that is only local, the inbox
   * sends the filled-in `body` as a text through `send`. Errors as for `send`.
   */
  sendTemplate?(workspaceId: string, conversation: ChannelConversation, template: OutgoingTemplate): Promise<SendReceipt>;
  /**
   * Optional: turns an outgoing message into what `send` will take, before the inbox stores it
   * (the scan channel downloads a `media.url` here). Throws `ChannelInputError` (400) or
   * `ChannelUpstreamError` (502); either way nothing is stored.
   */
  prepare?(workspaceId: string, outgoing: PreparedOutgoing): Promise<PreparedOutgoing>;
  /**
   * Reacts to a message of the chat with `emoji`; '' takes this number's reaction back. Optional:
   * without it, 400. Resolves with who reacted (this number's jid) when the channel knows it; the
   * inbox otherwise takes the sender of this number's latest message in the chat.
   */
  react?(workspaceId: string, conversation: ChannelConversation, target: MessageTarget, emoji: string): Promise<Pick<SendReceipt, 'senderJid'> | void>;
  /** Deletes a message this number sent, for everyone. Optional: a channel that cannot (the Cloud API) leaves it out: 400. */
  revoke?(workspaceId: string, conversation: ChannelConversation, target: MessageTarget): Promise<void>;
  /** Changes the text of a text this number sent. Optional, as `revoke`. */
  edit?(workspaceId: string, conversation: ChannelConversation, target: MessageTarget, body: string): Promise<void>;
  /** Read receipts for inbound messages, by channel message id (newest first). */
  markRead(workspaceId: string, conversation: ChannelConversation, messageIds: string[]): Promise<void>;
}
