import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { getBinaryNodeChild, proto, type BinaryNode, type WASocket } from '@whiskeysockets/baileys';
import { randomBytes } from 'node:crypto';
import {
  buildPrologue,
  confirmationCode,
  encryptPairingRequest,
  handoffKey,
  handoffProof,
  pairingKey,
  type Prologue,
} from '../../src/modules/chat/driver/baileys/passkey/shortcake-crypto.js';
import { BaileysClient } from './baileys-client.js';
import { startHttpControl } from './http-control.js';
import { PASSKEY_NOTIFICATION_TYPES } from './passkey-gate.js';
import type { LinkedDevice } from './sim-model.js';
import { SoftAuthenticator, type AssertionOverrides } from './soft-authenticator.js';
import { PasskeyCeremonyError, PasskeyRequiredError, WhatsAppSimulator, type PasskeyStep } from './whatsapp-simulator.js';

/**
 * The simulator as WhatsApp's (and the phone's) side of the passkey ceremony, against a bare
 * Baileys socket whose companion half is the service's own crypto (shortcake-crypto.ts) and whose
 * passkey is a software authenticator. The simulator checks every step with its own code
 * (passkey-phone-crypto.ts), so a pairing here means two implementations agree.
 */
const iq = (sock: WASocket, type: 'get' | 'set', child: BinaryNode): Promise<BinaryNode> =>
  sock.query({ tag: 'iq', attrs: { to: 's.whatsapp.net', type, xmlns: 'md', id: sock.generateMessageTag() }, content: [child] });

const next = (sock: WASocket, type: string): Promise<BinaryNode> =>
  new Promise((resolve) => sock.ws.once(`CB:notification,type:${type}`, (node: BinaryNode) => resolve(node)));

const content = (node: BinaryNode | undefined): Buffer => {
  if (!(node?.content instanceof Uint8Array)) throw new Error(`<${node?.tag}> carries no bytes`);
  return Buffer.from(node.content);
};

interface Options {
  challenge: string;
  rpId: string;
  timeout: number;
}

/** What the companion spoils, to see WhatsApp refuse it. */
interface Spoil {
  assertion?: AssertionOverrides;
  /** A proof to send instead of the right one (null: none). */
  proof?: Buffer | null;
  nonce?: Buffer;
  noisePublic?: Uint8Array;
}

describe('simulator: the passkey ceremony, WhatsApp and the phone against a bare companion', () => {
  let sim: WhatsAppSimulator;
  let client: BaileysClient;
  let auth: SoftAuthenticator;
  let steps: PasskeyStep[];
  const phone = '15550003001';

  beforeEach(async () => {
    sim = await WhatsAppSimulator.start();
    client = new BaileysClient(sim.url);
    auth = new SoftAuthenticator();
    sim.gateAccount(phone);
    sim.registerPasskey(phone, auth.passkey);
    steps = [];
    sim.events.on('passkey', (event) => void (event.phone === phone && steps.push(event.step)));
  });
  afterEach(async () => {
    client.stop();
    await sim.stop();
  });

  /** The client shows a QR (or asks for a pairing code); the phone scans (types) it; WhatsApp asks for the passkey. */
  const begin = async (via: 'qr' | 'code' = 'qr'): Promise<{ sock: WASocket; link: Promise<LinkedDevice>; options: Options; advSecret: Buffer }> => {
    const qr = client.next('qr');
    const sock = client.start();
    const [code] = await qr;
    const pairingCode = via === 'code' ? await sock.requestPairingCode(phone) : '';
    if (via === 'code') await sim.waitForPairingCode(phone);
    const requested = next(sock, 'passkey_prologue_request');
    const link = via === 'qr' ? sim.scanQr(code, phone) : sim.enterPairingCode(phone, pairingCode);
    // Settled (and looked at) by each test; a rejection before that is not unhandled.
    link.catch(() => undefined);
    const request = await requested;
    const options = JSON.parse(content(getBinaryNodeChild(request, 'passkey_request_options')).toString('utf8')) as Options;
    // The companion's handoff key comes from the ADV secret it showed (docs/passkey.md, step 1).
    return { sock, link, options, advSecret: Buffer.from(client.auth.creds.advSecretKey, 'base64') };
  };

  /** The assertion and the prologue (after a ref), as the companion sends them. */
  const prologue = async (sock: WASocket, options: Options, advSecret: Buffer, spoil: Spoil = {}): Promise<Prologue> => {
    const ref = content(getBinaryNodeChild(await iq(sock, 'get', { tag: 'ref', attrs: {} }), 'ref')).toString('utf8');
    const built = buildPrologue(ref, proto.DeviceProps.PlatformType.CHROME);
    const assertion = auth.assert(options.challenge, spoil.assertion);
    const proof = spoil.proof === undefined ? handoffProof(handoffKey(advSecret), built.payload) : spoil.proof;
    await iq(sock, 'set', {
      tag: 'passkey_prologue',
      attrs: {},
      content: [
        { tag: 'credential_id', attrs: {}, content: Buffer.from(assertion.rawId, 'base64url') },
        { tag: 'webauthn_assertion', attrs: {}, content: Buffer.from(JSON.stringify(assertion)) },
        { tag: 'prologue_payload', attrs: {}, content: built.payload },
        ...(proof ? [{ tag: 'pairing_handoff_proof', attrs: {}, content: proof }] : []),
      ],
    });
    return built;
  };

  /** The whole companion side up to the code: prologue, the phone's continuation, the nonce. */
  const upToCode = async (sock: WASocket, options: Options, advSecret: Buffer, spoil: Spoil = {}) => {
    const continued = next(sock, 'crsc_continuation');
    const built = await prologue(sock, options, advSecret, spoil);
    const primary = proto.PrimaryEphemeralIdentity.decode(content(getBinaryNodeChild(await continued, 'primary_ephemeral_identity')));
    const primaryPublic = Buffer.from(primary.publicKey ?? []);
    await iq(sock, 'set', { tag: 'companion_nonce', attrs: {}, content: spoil.nonce ?? built.nonce });
    return { built, primaryPublic, code: confirmationCode(built.nonce, primaryPublic, Buffer.from(primary.nonce ?? [])) };
  };

  /** The person confirmed: the new ADV secret into the creds (Baileys checks pair-success with it), then the request. */
  const confirm = async (sock: WASocket, built: Prologue, primaryPublic: Buffer, spoil: Spoil = {}): Promise<void> => {
    const advSecret = randomBytes(32);
    client.auth.creds.advSecretKey = advSecret.toString('base64');
    const request = encryptPairingRequest(pairingKey(built, primaryPublic), {
      noisePublic: spoil.noisePublic ?? client.auth.creds.noiseKey.public,
      identityPublic: client.auth.creds.signedIdentityKey.public,
      advSecret,
    });
    await iq(sock, 'set', { tag: 'encrypted_pairing_request', attrs: {}, content: request });
  };

  const refused = async (link: Promise<LinkedDevice>, reason: string): Promise<void> => {
    await expect(link).rejects.toThrow(PasskeyCeremonyError);
    await expect(link).rejects.toMatchObject({ reason });
    expect(sim.passkeyCeremony(phone)).toMatchObject({ step: 'failed', reason });
    expect(steps.at(-1)).toBe('failed');
    expect(sim.devicesOf(phone)).toEqual([]);
    expect(client.auth.creds.me).toBeUndefined();
  };

  it('a scanned QR: the full ceremony pairs, the phone shows the companion’s code, and the client logs in', async () => {
    const { sock, link, options, advSecret } = await begin('qr');
    expect(options).toMatchObject({ rpId: 'whatsapp.com', timeout: 600_000, userVerification: 'required', allowCredentials: [] });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // whatsmeow's fallback: the same options on request.
    const asked = await iq(sock, 'get', { tag: 'passkey_request_options', attrs: {} });
    expect(JSON.parse(content(getBinaryNodeChild(asked, 'passkey_request_options')).toString('utf8'))).toEqual(options);

    const { built, primaryPublic, code } = await upToCode(sock, options, advSecret);
    await sim.waitForPasskeyStep(phone, 'nonce');
    expect(code).toMatch(/^[1-9A-HJ-NP-TV-Z]{4}-[1-9A-HJ-NP-TV-Z]{4}$/);
    expect(sim.passkeyCode(phone)).toBe(code);
    expect(sim.passkeyCeremony(phone)).toEqual({ step: 'nonce', code, handoffProof: true, challenge: options.challenge, reason: null, via: 'qr' });

    const opened = client.next('open');
    await confirm(sock, built, primaryPublic);
    const device = await link;
    await opened;
    await sim.waitForLive(phone);
    expect(client.closes.map((c) => c.statusCode)).toEqual([515]);
    expect(client.sock?.user?.id).toBe(device.jid);
    expect(steps).toEqual(['request', 'assertion', 'continuation', 'nonce', 'paired']);
    await sim.waitForPasskeyStep(phone, 'paired');
  });

  it('an entered pairing code: the keyless link_code_companion_reg, then the same ceremony; the proof is recorded, not checked', async () => {
    const { sock, link, options, advSecret } = await begin('code');
    const { built, primaryPublic, code } = await upToCode(sock, options, advSecret);
    expect(sim.passkeyCeremony(phone)).toMatchObject({ step: 'nonce', code, handoffProof: true, via: 'code' });
    const opened = client.next('open');
    await confirm(sock, built, primaryPublic);
    const device = await link;
    await opened;
    expect(client.sock?.user?.id).toBe(device.jid);
    await sim.waitForLive(phone);
  });

  it.each([
    ['a signature by another key', { foreignKey: true }],
    ['another challenge', { challenge: randomBytes(32).toString('base64url') }],
    ['another origin', { origin: 'https://evil.example' }],
    ['no user verification', { flags: 0x01 }],
    ['another rpId', { rpId: 'example.com' }],
  ] satisfies [string, AssertionOverrides][])('refuses an assertion with %s: 401, PasskeyCeremonyError(assertion), nothing linked', async (_what, spoil) => {
    const { sock, link, options, advSecret } = await begin();
    await expect(prologue(sock, options, advSecret, { assertion: spoil })).rejects.toThrow('not-authorized');
    await refused(link, 'assertion');
    expect(steps).toEqual(['request', 'failed']);
  });

  it('refuses a wrong handoff proof on the QR path (and takes a prologue without one)', async () => {
    const { sock, link, options, advSecret } = await begin();
    await expect(prologue(sock, options, advSecret, { proof: randomBytes(32) })).rejects.toThrow('not-authorized');
    await refused(link, 'handoff-proof');
  });

  it('a prologue without a handoff proof goes on, recorded as such', async () => {
    const { sock, options, advSecret } = await begin();
    await upToCode(sock, options, advSecret, { proof: null });
    expect(sim.passkeyCeremony(phone)).toMatchObject({ step: 'nonce', handoffProof: false });
  });

  it('refuses a nonce that does not open the commitment', async () => {
    const { sock, link, options, advSecret } = await begin();
    await expect(upToCode(sock, options, advSecret, { nonce: randomBytes(32) })).rejects.toThrow('not-authorized');
    await refused(link, 'commitment');
    expect(sim.passkeyCode(phone)).toBeNull();
  });

  it('refuses a pairing request naming another Noise key', async () => {
    const { sock, link, options, advSecret } = await begin();
    const { built, primaryPublic } = await upToCode(sock, options, advSecret);
    await expect(confirm(sock, built, primaryPublic, { noisePublic: randomBytes(32) })).rejects.toThrow('not-authorized');
    await expect(link).rejects.toMatchObject({ reason: 'pairing-request' });
    expect(sim.devicesOf(phone)).toEqual([]);
  });

  it('refuses steps out of order, and ends when the companion closes its socket', async () => {
    const { sock, link } = await begin();
    await expect(iq(sock, 'set', { tag: 'companion_nonce', attrs: {}, content: randomBytes(32) })).rejects.toThrow('not-authorized');
    await expect(link).rejects.toMatchObject({ reason: 'commitment' });

    client.stop();
    const second = new BaileysClient(sim.url);
    client = second;
    const again = await begin();
    const closed = sim.waitForPasskeyStep(phone, 'paired');
    client.stop();
    await expect(again.link).rejects.toMatchObject({ reason: 'closed' });
    await expect(closed).rejects.toThrow(PasskeyCeremonyError);
  });

  it('ends after the options’ timeout', async () => {
    await sim.stop();
    sim = await WhatsAppSimulator.start({ passkeyTimeoutMs: 400 });
    client = new BaileysClient(sim.url);
    sim.gateAccount(phone);
    sim.registerPasskey(phone, auth.passkey);
    const { link, options } = await begin();
    expect(options.timeout).toBe(400);
    await expect(link).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('without a registered passkey the gate is as before: both notifications at once, and the ceremony iqs refused', async () => {
    const other = '15550003002';
    sim.gateAccount(other);
    const qr = client.next('qr');
    const sock = client.start();
    const [code] = await qr;
    const seen = Promise.all(PASSKEY_NOTIFICATION_TYPES.map((type) => next(sock, type)));
    await expect(sim.scanQr(code, other)).rejects.toThrow(PasskeyRequiredError);
    await seen;
    await expect(iq(sock, 'get', { tag: 'ref', attrs: {} })).rejects.toThrow('not-authorized');
    expect(sim.passkeyCeremony(other)).toBeNull();
  });

  it('the HTTP control API: POST /passkey registers it, POST /scan answers once the ceremony paired, GET /passkey/:phone shows the code', async () => {
    const control = await startHttpControl(sim);
    try {
      const post = (path: string, body: unknown) => fetch(`${control.url}${path}`, { method: 'POST', body: JSON.stringify(body) });
      const state = async (): Promise<Record<string, unknown>> => (await (await fetch(`${control.url}/passkey/${phone}`)).json()) as Record<string, unknown>;
      const http = new SoftAuthenticator();
      expect((await post('/passkey', { phone, credential_id: 'not base64url!', public_key: http.jwk })).status).toBe(400);
      expect((await post('/passkey', { phone, credential_id: http.credentialId.toString('base64url'), public_key: { kty: 'EC' } })).status).toBe(400);
      expect((await post('/passkey', { phone, credential_id: http.credentialId.toString('base64url'), public_key: http.jwk })).status).toBe(200);
      auth = http;
      expect(await state()).toEqual({ phone, registered: true, gated: true, ceremony: null });

      const qr = client.next('qr');
      const sock = client.start();
      const [code] = await qr;
      const requested = next(sock, 'passkey_prologue_request');
      const scanned = post('/scan', { qr: code, phone });
      const options = JSON.parse(content(getBinaryNodeChild(await requested, 'passkey_request_options')).toString('utf8')) as Options;
      const { built, primaryPublic, code: shown } = await upToCode(sock, options, Buffer.from(client.auth.creds.advSecretKey, 'base64'));
      expect(await state()).toMatchObject({
        ceremony: { step: 'nonce', code: shown, handoff_proof: true, challenge: options.challenge, reason: null, via: 'qr' },
      });
      await confirm(sock, built, primaryPublic);
      const answer = await scanned;
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ jid: expect.stringMatching(new RegExp(`^${phone}:\\d+@s\\.whatsapp\\.net$`)) });
      expect(await state()).toMatchObject({ ceremony: { step: 'paired' } });
    } finally {
      control.server.closeAllConnections();
      control.server.close();
    }
  });
});
