// Group messages (sender keys), receiving side, written from the Signal scheme: a linked device
// sends each group member its sender key (a SenderKeyDistributionMessage inside a pairwise
// pkmsg/msg), then encrypts the message once for everybody (`skmsg`). The simulator keeps the
// sender key of each (group, device) and decrypts every later `skmsg` of that device, checking
// its signature. One store for the whole simulated world: every member gets the same key.
import { proto } from '@whiskeysockets/baileys';
import * as libsignal from 'libsignal';
import { createDecipheriv, createHmac, hkdfSync } from 'node:crypto';

const SIGNATURE_LENGTH = 64;

// libsignal's curve helpers are not in its type declarations; verifySignature answers false for a
// bad signature (Baileys' own Curve.verify does not: it only throws on malformed input).
const { curve } = libsignal as unknown as { curve: { verifySignature(key: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean } };

interface SenderKey {
  iteration: number;
  chainKey: Buffer;
  signingKey: Buffer;
}

export class SenderKeyStore {
  private readonly keys = new Map<string, SenderKey>();

  /** Keeps a sender key the device distributed (the `axolotlSenderKeyDistributionMessage` bytes). */
  store(group: string, sender: string, distribution: Uint8Array): void {
    const message = proto.SenderKeyDistributionMessage.decode(distribution.subarray(1));
    if (!message.chainKey?.length || !message.signingKey?.length) throw new Error('sender key distribution without a key');
    this.keys.set(`${group}|${sender}`, {
      iteration: message.iteration ?? 0,
      chainKey: Buffer.from(message.chainKey),
      signingKey: Buffer.from(message.signingKey),
    });
  }

  has(group: string, sender: string): boolean {
    return this.keys.has(`${group}|${sender}`);
  }

  /** Decrypts an `skmsg` of `sender` in `group`; answers the padded plaintext. */
  decrypt(group: string, sender: string, serialized: Uint8Array): Buffer {
    const key = this.keys.get(`${group}|${sender}`);
    if (!key) throw new Error(`no sender key of ${sender} in ${group}`);
    const bytes = Buffer.from(serialized);
    const signed = bytes.subarray(0, bytes.length - SIGNATURE_LENGTH);
    if (!curve.verifySignature(key.signingKey, signed, bytes.subarray(bytes.length - SIGNATURE_LENGTH))) {
      throw new Error(`bad sender key signature from ${sender}`);
    }
    const message = proto.SenderKeyMessage.decode(signed.subarray(1));
    const iteration = message.iteration ?? 0;
    if (iteration < key.iteration) throw new Error(`sender key iteration ${iteration} is older than the distributed one`);
    // The chain moves on by HMAC: 0x01 makes a message key seed, 0x02 the next chain key.
    let chainKey = key.chainKey;
    for (let i = key.iteration; i < iteration; i += 1)
      chainKey = createHmac('sha256', chainKey)
        .update(Buffer.from([2]))
        .digest();
    const seed = createHmac('sha256', chainKey)
      .update(Buffer.from([1]))
      .digest();
    const secrets = Buffer.from(hkdfSync('sha256', seed, Buffer.alloc(32), 'WhisperGroup', 48));
    const decipher = createDecipheriv('aes-256-cbc', secrets.subarray(16, 48), secrets.subarray(0, 16));
    return Buffer.concat([decipher.update(message.ciphertext ?? new Uint8Array()), decipher.final()]);
  }
}
