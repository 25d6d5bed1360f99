// The simulated world: WhatsApp accounts (the "phones" a linked device belongs to), their linked
// devices, and the contacts who write to them. Plain state; the protocol lives in device-connection.ts.
import { Curve, proto, type KeyPair } from '@whiskeysockets/baileys';
import { randomInt } from 'node:crypto';
import { SignalPeer, type DeviceBundle } from './signal-peer.js';

const randomDigits = (n: number): string => Array.from({ length: n }, (_, i) => String(randomInt(i === 0 ? 1 : 0, 10))).join('');

export class Contact {
  readonly peer = new SignalPeer();
  constructor(
    readonly phone: string,
    readonly lid: string,
    public name: string,
  ) {}
  get pnJid(): string {
    return `${this.phone}@s.whatsapp.net`;
  }
  get lidJid(): string {
    return `${this.lid}@lid`;
  }
}

/** A message the simulator delivers to a linked device, kept until the device acks it. */
export interface InboundMessage {
  id: string;
  from: Contact | 'self';
  /** Group jid, when the message was written in a group. */
  group?: string;
  /** Address the sender by LID (addressing_mode="lid", sender_pn) instead of by phone number. */
  lid: boolean;
  /** A message typed on the phone itself (from 'self'): the chat jid it was written in (`recipient`). */
  recipient?: string;
  message: proto.IMessage;
  type: 'text' | 'media';
  mediaType?: string;
  t: string;
}

/** An image or document a linked device sent, downloaded from the media host and decrypted. */
export interface SentMedia {
  kind: 'image' | 'document' | 'video' | 'audio' | 'sticker';
  mimetype: string;
  fileName?: string;
  caption?: string;
  /** An audio message sent as a push-to-talk voice note. */
  ptt?: boolean;
  /** The playing time the message states (audio, voice, video). */
  seconds?: number;
  /** A voice note's waveform (64 levels), when it has one. */
  waveform?: number[];
  /** A sticker's animated flag. */
  animated?: boolean;
  data: Buffer;
}

/** The key a reaction, a delete or an edit names its message by. */
export interface SentKey {
  id: string;
  fromMe: boolean;
  remoteJid?: string;
  participant?: string;
}

/** What a linked device sent, decrypted by the simulator. */
export interface SentMessage {
  id: string;
  /** The account (phone number) whose linked device sent it. */
  from: string;
  /** The `to` the device addressed (contact PN/LID jid or group jid). */
  to: string;
  /** The contact whose copy the simulator decrypted (1:1 messages; absent for groups). */
  contact?: string;
  /** The group (jid) of a group message, decrypted with the device's sender key. */
  group?: string;
  message: proto.IMessage;
  text?: string;
  media?: SentMedia;
  location?: { latitude: number; longitude: number; name?: string; address?: string; url?: string };
  /** Contact cards: one (contactMessage) or several (contactsArrayMessage). */
  contacts?: { displayName: string; vcards: string[] };
  /** A reaction to `key` (an empty emoji takes it back). */
  reaction?: { emoji: string; key: SentKey };
  /** A delete for everyone of `key` (protocolMessage REVOKE). */
  revoke?: SentKey;
  /** A new text of `key` (protocolMessage MESSAGE_EDIT). */
  edit?: { key: SentKey; text: string };
  /** The message this one replies to (contextInfo): its id, author and the quoted text. */
  quoted?: { id: string; participant?: string; text?: string };
  /** Why the simulator could not decrypt it (or its media); the message is still acknowledged. */
  error?: string;
  /** When the simulator received the `<message>` (ms epoch), taken on arrival, before decrypting. */
  at: number;
  /** A device of the same account had already sent a message with this id (a resend, e.g. after a crash). */
  repeat?: true;
}

/** A typing indicator a linked device sent (`<chatstate>`); `recording` is `<composing media="audio"/>`. */
export interface ChatState {
  /** The account (phone number) whose linked device sent it. */
  from: string;
  /** The `to` attribute as the device addressed it (PN or LID jid, or a group). */
  to: string;
  state: 'composing' | 'paused' | 'recording';
  /** When the simulator received it (ms epoch). */
  at: number;
}

export class LinkedDevice {
  removed = false;
  historyPushed = false;
  /** Inbound messages not yet acked by the device (delivered again at its next login). */
  readonly pending: InboundMessage[] = [];
  uploadedPreKeys = 0;
  constructor(
    readonly account: Account,
    readonly id: number,
    readonly bundle: DeviceBundle,
  ) {}
  get jid(): string {
    return `${this.account.phone}:${this.id}@s.whatsapp.net`;
  }
  get lidJid(): string {
    return `${this.account.lid}:${this.id}@lid`;
  }
  /** The name the simulator's libsignal stores use for this device. */
  get signalAddress(): string {
    return `device-${this.account.phone}`;
  }
}

export class Account {
  readonly lid = randomDigits(15);
  readonly accountKey: KeyPair = Curve.generateKeyPair();
  /** The phone itself (device 0), which sends history sync to its linked devices. */
  readonly phonePeer = new SignalPeer();
  readonly devices = new Map<number, LinkedDevice>();
  private nextDeviceId = 7;
  constructor(readonly phone: string) {}

  link(bundle: DeviceBundle): LinkedDevice {
    const device = new LinkedDevice(this, this.nextDeviceId++, bundle);
    this.devices.set(device.id, device);
    return device;
  }
}

/** A group chat: the accounts in it (their linked devices get its messages) and contacts. */
export class SimGroup {
  readonly accounts = new Set<Account>();
  readonly contacts = new Set<Contact>();
  readonly creation = Math.floor(Date.now() / 1000);
  constructor(
    readonly jid: string,
    public subject: string,
    /** How members are named in its metadata and messages (WhatsApp's groups are LID-addressed now). */
    readonly addressingMode: 'lid' | 'pn' = 'lid',
  ) {}
}

export class World {
  readonly accounts = new Map<string, Account>();
  readonly contacts = new Map<string, Contact>();
  readonly groups = new Map<string, SimGroup>();
  private readonly byLid = new Map<string, Contact>();

  /** The group `jid` (`…@g.us`), created on first use. */
  group(jid: string, subject?: string, addressingMode?: 'lid' | 'pn'): SimGroup {
    let group = this.groups.get(jid);
    if (!group) {
      group = new SimGroup(jid, subject ?? `Group ${jid.split('@')[0]}`, addressingMode);
      this.groups.set(jid, group);
    } else if (subject) {
      group.subject = subject;
    }
    return group;
  }

  account(phone: string): Account {
    let account = this.accounts.get(phone);
    if (!account) {
      account = new Account(phone);
      this.accounts.set(phone, account);
    }
    return account;
  }

  contact(phone: string, name?: string): Contact {
    let contact = this.contacts.get(phone);
    if (!contact) {
      contact = new Contact(phone, randomDigits(15), name ?? `Contact ${phone}`);
      this.contacts.set(phone, contact);
      this.byLid.set(contact.lid, contact);
    } else if (name) {
      contact.name = name;
    }
    return contact;
  }

  /** Whether `phone` (digits) is on WhatsApp here: a contact the world knows, or one of its accounts. */
  knows(phone: string): boolean {
    return this.contacts.has(phone) || this.accounts.has(phone);
  }

  /** The contact behind a PN or LID jid (any device suffix); unknown phone numbers become contacts. */
  contactByJid(jid: string): Contact | undefined {
    const [userPart, server] = jid.split('@');
    const user = userPart.split(':')[0];
    if (server === 'lid') return this.byLid.get(user);
    if (server === 's.whatsapp.net') return this.accounts.has(user) ? undefined : this.contact(user);
    return undefined;
  }
}
