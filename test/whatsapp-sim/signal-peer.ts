// One simulated Signal identity (a contact, or the account's own phone) with an in-memory
// libsignal store. It encrypts to the linked device from the pre-key bundle the device uploaded,
// and decrypts what the device encrypted to it (from a session it started, or from the bundle the
// simulator handed out for this peer).
import { Curve, generateSignalPubKey, signedKeyPair, type KeyPair } from '@whiskeysockets/baileys';
import { ProtocolAddress, SessionBuilder, SessionCipher, SessionRecord, type SignalStorage } from 'libsignal';

interface LibsignalKeyPair {
  privKey: Buffer;
  pubKey: Buffer;
}

/** The keys a linked device published: registration and identity from pairing, the rest uploaded. */
export interface DeviceBundle {
  registrationId: number;
  identityKey: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
  /** Uploaded one-time pre-keys not yet handed to a peer (consumed from the front). */
  preKeys: { keyId: number; publicKey: Buffer }[];
}

export interface PeerBundle {
  registrationId: number;
  identity: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
  preKey: { keyId: number; publicKey: Buffer };
}

const toLibsignal = (pair: KeyPair): LibsignalKeyPair => ({
  privKey: Buffer.from(pair.private),
  pubKey: Buffer.from(generateSignalPubKey(pair.public)),
});

const prefixed = (key: Buffer): Buffer => Buffer.from(generateSignalPubKey(key));

const randomRegistrationId = (): number => 1 + Math.floor(Math.random() * 16000);

export class SignalPeer {
  private registrationId = randomRegistrationId();
  private identity: KeyPair = Curve.generateKeyPair();
  private signed = signedKeyPair(this.identity, 1);
  private readonly preKeys = new Map<number, KeyPair>();
  private nextPreKeyId = 1;
  private readonly sessions = new Map<string, Uint8Array>();
  private readonly storage: SignalStorage;

  constructor() {
    this.storage = {
      loadSession: async (id) => {
        const raw = this.sessions.get(id);
        return raw ? SessionRecord.deserialize(raw) : undefined;
      },
      storeSession: async (id, record) => {
        this.sessions.set(id, record.serialize());
      },
      isTrustedIdentity: () => true,
      loadPreKey: async (id) => {
        const pair = this.preKeys.get(Number(id));
        return pair ? toLibsignal(pair) : undefined;
      },
      removePreKey: (id) => {
        this.preKeys.delete(id);
      },
      loadSignedPreKey: () => toLibsignal(this.signed.keyPair),
      getOurRegistrationId: () => this.registrationId,
      getOurIdentity: () => toLibsignal(this.identity),
    };
  }

  /**
   * Starts over, as the app does after a reinstall or a session reset: every session is dropped,
   * so the next message to a device is a pkmsg from a new base key (the device closes the session
   * it had). With `newIdentity` the identity key, signed pre-key and registration id are new too
   * (a reinstall on a new phone); without, the identity stays (a restored backup, a reset session).
   */
  reset(options: { newIdentity?: boolean } = {}): void {
    this.sessions.clear();
    if (!options.newIdentity) return;
    this.registrationId = randomRegistrationId();
    this.identity = Curve.generateKeyPair();
    this.signed = signedKeyPair(this.identity, 1);
  }

  /**
   * Every byte string of this peer's sessions (root and chain keys, message keys, ephemeral and
   * base keys): the other side's record holds many of the same, so a test can check that none of
   * them is printed anywhere.
   */
  sessionKeyMaterial(): Buffer[] {
    // A stored record is libsignal's serialized form: every key a base64 string, chains keyed by one.
    const base64 = /^[A-Za-z0-9+/]{20,}={0,2}$/;
    const found: Buffer[] = [];
    const collect = (value: unknown): void => {
      if (typeof value === 'string' && base64.test(value)) found.push(Buffer.from(value, 'base64'));
      if (!value || typeof value !== 'object') return;
      for (const [key, item] of Object.entries(value)) {
        if (base64.test(key)) found.push(Buffer.from(key, 'base64'));
        collect(item);
      }
    };
    for (const raw of this.sessions.values()) collect(raw);
    return found;
  }

  /** A fresh bundle for a device that asks for this peer's keys (`iq encrypt get <key>`). */
  issueBundle(): PeerBundle {
    const keyId = this.nextPreKeyId++;
    const pair = Curve.generateKeyPair();
    this.preKeys.set(keyId, pair);
    return {
      registrationId: this.registrationId,
      identity: Buffer.from(this.identity.public),
      signedPreKey: {
        keyId: this.signed.keyId,
        publicKey: Buffer.from(this.signed.keyPair.public),
        signature: Buffer.from(this.signed.signature),
      },
      preKey: { keyId, publicKey: Buffer.from(pair.public) },
    };
  }

  /** Encrypts for a device; the first call builds the session from its uploaded bundle. */
  async encryptFor(address: string, deviceId: number, device: DeviceBundle, plaintext: Uint8Array): Promise<{ type: 'pkmsg' | 'msg'; ciphertext: Buffer }> {
    const addr = new ProtocolAddress(address, deviceId);
    const record = await this.storage.loadSession(addr.toString());
    if (!record?.haveOpenSession()) {
      const preKey = device.preKeys.shift();
      await new SessionBuilder(this.storage, addr).initOutgoing({
        registrationId: device.registrationId,
        identityKey: prefixed(device.identityKey),
        signedPreKey: {
          keyId: device.signedPreKey.keyId,
          publicKey: prefixed(device.signedPreKey.publicKey),
          signature: device.signedPreKey.signature,
        },
        // libsignal accepts a missing one-time pre-key once the uploaded ones run out.
        preKey: preKey ? { keyId: preKey.keyId, publicKey: prefixed(preKey.publicKey) } : (undefined as unknown as { keyId: number; publicKey: Uint8Array }),
      });
    }
    const { type, body } = await new SessionCipher(this.storage, addr).encrypt(plaintext);
    return { type: type === 3 ? 'pkmsg' : 'msg', ciphertext: Buffer.from(body, 'binary') };
  }

  async decryptFrom(address: string, deviceId: number, type: string, ciphertext: Uint8Array): Promise<Buffer> {
    const cipher = new SessionCipher(this.storage, new ProtocolAddress(address, deviceId));
    if (type === 'pkmsg') return cipher.decryptPreKeyWhisperMessage(ciphertext);
    if (type === 'msg') return cipher.decryptWhisperMessage(ciphertext);
    throw new Error(`the simulator cannot decrypt enc type ${type}`);
  }
}
