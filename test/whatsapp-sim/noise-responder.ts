// The server side of WhatsApp's Noise XX handshake and its transport framing, written to mirror
// Baileys' own client (Utils/noise-handler.js) step for step: one symmetric state whose counter is
// shared by encrypt and decrypt and reset on every key mix, the running hash as AAD during the
// handshake, then two transport keys with their own counters.
import {
  aesDecryptGCM,
  aesEncryptGCM,
  Curve,
  decodeBinaryNode,
  encodeBinaryNode,
  hkdf,
  NOISE_MODE,
  NOISE_WA_HEADER,
  proto,
  sha256,
  type BinaryNode,
  type KeyPair,
} from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';

const EMPTY = Buffer.alloc(0);

const iv = (counter: number): Buffer => {
  const out = Buffer.alloc(12);
  out.writeUInt32BE(counter, 8);
  return out;
};

const split = (salt: Uint8Array, material: Uint8Array): [Buffer, Buffer] => {
  const key = Buffer.from(hkdf(Buffer.from(material), 64, { salt: Buffer.from(salt), info: '' }));
  return [key.subarray(0, 32), key.subarray(32)];
};

/** What the client told us in its ClientPayload, after the handshake. */
export interface HandshakeResult {
  clientStatic: Buffer;
  payload: proto.ClientPayload;
}

export class NoiseResponder {
  private hash: Buffer;
  private salt: Buffer;
  private key: Buffer;
  private counter = 0;
  private readonly ephemeral: KeyPair = Curve.generateKeyPair();
  private transport?: { enc: Buffer; dec: Buffer; read: number; write: number };
  private inBytes: Buffer = EMPTY;
  private sawIntro = false;
  private clientEphemeral?: Buffer;

  constructor(private readonly serverStatic: KeyPair) {
    const mode = Buffer.from(NOISE_MODE);
    this.hash = mode.byteLength === 32 ? mode : sha256(mode);
    this.salt = this.hash;
    this.key = this.hash;
    this.authenticate(NOISE_WA_HEADER);
  }

  get ready(): boolean {
    return this.transport !== undefined;
  }

  /** Splits raw socket bytes into frames (the client's intro header comes once, first). */
  push(data: Buffer): Buffer[] {
    this.inBytes = this.inBytes.length ? Buffer.concat([this.inBytes, data]) : Buffer.from(data);
    if (!this.sawIntro) {
      if (this.inBytes.length < NOISE_WA_HEADER.length) return [];
      if (this.inBytes.subarray(0, 2).toString() === 'ED') {
        throw new Error('routing-info intro headers are not supported by the simulator');
      }
      this.inBytes = this.inBytes.subarray(NOISE_WA_HEADER.length);
      this.sawIntro = true;
    }
    const frames: Buffer[] = [];
    while (this.inBytes.length >= 3) {
      const size = (this.inBytes[0] << 16) | (this.inBytes[1] << 8) | this.inBytes[2];
      if (this.inBytes.length < size + 3) break;
      frames.push(this.inBytes.subarray(3, size + 3));
      this.inBytes = this.inBytes.subarray(size + 3);
    }
    return frames;
  }

  /** Answers clientHello with serverHello (ephemeral, encrypted static, encrypted cert chain). */
  serverHello(clientHelloFrame: Buffer): Buffer {
    const hello = proto.HandshakeMessage.decode(clientHelloFrame);
    const clientEphemeral = hello.clientHello?.ephemeral;
    if (!clientEphemeral || clientEphemeral.length !== 32) throw new Error('bad clientHello');
    this.clientEphemeral = Buffer.from(clientEphemeral);
    this.authenticate(this.clientEphemeral);
    this.authenticate(this.ephemeral.public);
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, this.clientEphemeral));
    const staticEnc = this.encrypt(this.serverStatic.public);
    this.mixIntoKey(Curve.sharedKey(this.serverStatic.private, this.clientEphemeral));
    const certEnc = this.encrypt(certChain(this.serverStatic.public));
    const msg = proto.HandshakeMessage.encode({
      serverHello: { ephemeral: this.ephemeral.public, static: staticEnc, payload: certEnc },
    }).finish();
    return frame(Buffer.from(msg));
  }

  /** Reads clientFinish (client static key + ClientPayload) and switches to transport keys. */
  clientFinish(frameBytes: Buffer): HandshakeResult {
    const finish = proto.HandshakeMessage.decode(frameBytes).clientFinish;
    if (!finish?.static || !finish.payload) throw new Error('bad clientFinish');
    const clientStatic = this.decrypt(Buffer.from(finish.static));
    this.mixIntoKey(Curve.sharedKey(this.ephemeral.private, clientStatic));
    const payload = proto.ClientPayload.decode(this.decrypt(Buffer.from(finish.payload)));
    // The client keeps the first half for writing, so it is our read key.
    const [clientWrite, clientRead] = split(this.salt, EMPTY);
    this.transport = { dec: clientWrite, enc: clientRead, read: 0, write: 0 };
    return { clientStatic, payload };
  }

  async decodeNode(frameBytes: Buffer): Promise<BinaryNode> {
    const t = this.requireTransport();
    const plain = aesDecryptGCM(frameBytes, t.dec, iv(t.read++), EMPTY);
    return decodeBinaryNode(plain);
  }

  encodeNode(node: BinaryNode): Buffer {
    const t = this.requireTransport();
    return frame(aesEncryptGCM(encodeBinaryNode(node), t.enc, iv(t.write++), EMPTY));
  }

  private requireTransport(): NonNullable<NoiseResponder['transport']> {
    if (!this.transport) throw new Error('noise handshake not finished');
    return this.transport;
  }

  private authenticate(data: Uint8Array): void {
    if (!this.transport) this.hash = sha256(Buffer.concat([this.hash, data]));
  }

  private mixIntoKey(material: Uint8Array): void {
    const [write, read] = split(this.salt, material);
    this.salt = write;
    this.key = read;
    this.counter = 0;
  }

  private encrypt(plain: Uint8Array): Buffer {
    const out = aesEncryptGCM(plain, this.key, iv(this.counter++), this.hash);
    this.authenticate(out);
    return out;
  }

  private decrypt(cipher: Buffer): Buffer {
    const out = aesDecryptGCM(cipher, this.key, iv(this.counter++), this.hash);
    this.authenticate(cipher);
    return out;
  }
}

const frame = (data: Buffer): Buffer => {
  const out = Buffer.alloc(3 + data.length);
  out[0] = (data.length >>> 16) & 0xff;
  out[1] = (data.length >>> 8) & 0xff;
  out[2] = data.length & 0xff;
  data.copy(out, 3);
  return out;
};

// Baileys rc14 only checks that both certificates exist with 32-byte keys and 64-byte signatures
// and that the intermediate's issuerSerial is 0: its Curve.verify never rejects a well-formed
// signature. Random signatures therefore pass, and save two slow pure-JS signs per handshake.
const certChain = (serverStaticPublic: Uint8Array): Uint8Array => {
  const intermediateDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 1,
    issuerSerial: 0,
    key: Curve.generateKeyPair().public,
    notBefore: 0,
    notAfter: 4102444800,
  }).finish();
  const leafDetails = proto.CertChain.NoiseCertificate.Details.encode({
    serial: 2,
    issuerSerial: 1,
    key: serverStaticPublic,
    notBefore: 0,
    notAfter: 4102444800,
  }).finish();
  return proto.CertChain.encode({
    intermediate: { details: intermediateDetails, signature: randomBytes(64) },
    leaf: { details: leafDetails, signature: randomBytes(64) },
  }).finish();
};
