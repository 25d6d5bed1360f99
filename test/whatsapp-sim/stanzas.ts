// Builders for the stanzas the simulated server sends, and small readers for what the linked
// device sends. Shapes follow what Baileys rc14 parses (Socket/*.js, Utils/signal.js).
import {
  Curve,
  encodeBigEndian,
  getBinaryNodeChild,
  getBinaryNodeChildren,
  hmacSign,
  KEY_BUNDLE_TYPE,
  proto,
  WA_ADV_ACCOUNT_SIG_PREFIX,
  type BinaryNode,
  type KeyPair,
} from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import type { DeviceBundle, PeerBundle } from './signal-peer.js';

export const SERVER = 's.whatsapp.net';

export const nowSeconds = (): string => String(Math.floor(Date.now() / 1000));

export const children = (node: BinaryNode | undefined): BinaryNode[] => (node && Array.isArray(node.content) ? node.content : []);

export const bytes = (node: BinaryNode | undefined): Buffer | undefined => (node?.content instanceof Uint8Array ? Buffer.from(node.content) : undefined);

export const iqResult = (id: string, content?: BinaryNode[]): BinaryNode => ({
  tag: 'iq',
  attrs: { id, type: 'result', from: SERVER },
  ...(content ? { content } : {}),
});

/** An iq error answer, as WhatsApp refuses a step (`401 not-authorized`, …). */
export const iqError = (id: string, code: number, text: string): BinaryNode => ({
  tag: 'iq',
  attrs: { id, type: 'error', from: SERVER },
  content: [{ tag: 'error', attrs: { code: String(code), text } }],
});

export const pairDevice = (id: string, refs: string[]): BinaryNode => ({
  tag: 'iq',
  attrs: { id, type: 'set', from: SERVER, xmlns: 'md' },
  content: [
    {
      tag: 'pair-device',
      attrs: {},
      content: refs.map((ref) => ({ tag: 'ref', attrs: {}, content: Buffer.from(ref) })),
    },
  ],
});

export interface PairSuccessInput {
  id: string;
  advSecret: Buffer;
  deviceIdentityKey: Buffer;
  accountKey: KeyPair;
  jid: string;
  lid: string;
  keyIndex: number;
}

/** pair-success as the phone's server relays it: only the HMAC with the QR's advSecret is checked for real. */
export const pairSuccess = (input: PairSuccessInput): BinaryNode => {
  const details = proto.ADVDeviceIdentity.encode({
    rawId: randomBytes(4).readUInt32BE(0),
    timestamp: Math.floor(Date.now() / 1000),
    keyIndex: input.keyIndex,
  }).finish();
  const accountSignature = Curve.sign(input.accountKey.private, Buffer.concat([WA_ADV_ACCOUNT_SIG_PREFIX, details, input.deviceIdentityKey]));
  const signed = proto.ADVSignedDeviceIdentity.encode({
    details,
    accountSignatureKey: input.accountKey.public,
    accountSignature,
  }).finish();
  const hmac = hmacSign(signed, input.advSecret);
  const identity = proto.ADVSignedDeviceIdentityHMAC.encode({ details: signed, hmac }).finish();
  return {
    tag: 'iq',
    attrs: { id: input.id, type: 'set', from: SERVER, xmlns: 'md', t: nowSeconds() },
    content: [
      {
        tag: 'pair-success',
        attrs: {},
        content: [
          { tag: 'device-identity', attrs: { 'key-index': String(input.keyIndex) }, content: identity },
          { tag: 'platform', attrs: { name: 'smba' } },
          { tag: 'device', attrs: { jid: input.jid, lid: input.lid } },
        ],
      },
    ],
  };
};

export const streamError = (code: number): BinaryNode => ({
  tag: 'stream:error',
  attrs: code === 440 ? {} : { code: String(code) },
  // 440 is signalled by a <conflict type="replaced"> child, not a code attribute.
  ...(code === 440 ? { content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] } : {}),
});

/** What WhatsApp sends a connected device the phone removed in Linked devices. */
export const deviceRemoved = (): BinaryNode => ({
  tag: 'stream:error',
  attrs: { code: '401' },
  content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }],
});

/** One `<user>` of an `iq encrypt get <key>` answer (Utils/signal.js parseAndInjectE2ESessions). */
export const bundleUser = (jid: string, bundle: PeerBundle): BinaryNode => ({
  tag: 'user',
  attrs: { jid },
  content: [
    { tag: 'registration', attrs: {}, content: encodeBigEndian(bundle.registrationId) },
    { tag: 'type', attrs: {}, content: KEY_BUNDLE_TYPE },
    { tag: 'identity', attrs: {}, content: bundle.identity },
    {
      tag: 'skey',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.signedPreKey.keyId, 3) },
        { tag: 'value', attrs: {}, content: bundle.signedPreKey.publicKey },
        { tag: 'signature', attrs: {}, content: bundle.signedPreKey.signature },
      ],
    },
    {
      tag: 'key',
      attrs: {},
      content: [
        { tag: 'id', attrs: {}, content: encodeBigEndian(bundle.preKey.keyId, 3) },
        { tag: 'value', attrs: {}, content: bundle.preKey.publicKey },
      ],
    },
  ],
});

/** Reads the uploaded pre-keys of an `iq encrypt set` (Utils/signal.js getNextPreKeysNode). */
export const readPreKeyUpload = (iq: BinaryNode): { keyId: number; publicKey: Buffer }[] =>
  getBinaryNodeChildren(getBinaryNodeChild(iq, 'list'), 'key').flatMap((key) => {
    const id = bytes(getBinaryNodeChild(key, 'id'));
    const value = bytes(getBinaryNodeChild(key, 'value'));
    return id && value ? [{ keyId: id.readUIntBE(0, id.length), publicKey: value }] : [];
  });

/** `<composing/>`, `<composing media="audio"/>` (recording) or `<paused/>`; anything else is not a chat state. */
export const readChatState = (node: BinaryNode): 'composing' | 'paused' | 'recording' | undefined => {
  const [child] = children(node);
  if (child?.tag === 'paused') return 'paused';
  if (child?.tag === 'composing') return child.attrs.media === 'audio' ? 'recording' : 'composing';
  return undefined;
};

/** The keys a registering client sent in its ClientPayload (`devicePairingData`): its bundle once linked. */
export const registrationBundle = (pairing: proto.ClientPayload.IDevicePairingRegistrationData): DeviceBundle => {
  const be = (b: Uint8Array | null | undefined): number => (b?.length ? Buffer.from(b).readUIntBE(0, b.length) : 0);
  return {
    registrationId: be(pairing.eRegid),
    identityKey: Buffer.from(pairing.eIdent ?? []),
    signedPreKey: { keyId: be(pairing.eSkeyId), publicKey: Buffer.from(pairing.eSkeyVal ?? []), signature: Buffer.from(pairing.eSkeySig ?? []) },
    preKeys: [],
  };
};
