// A small JSON-over-HTTP face of the simulator's control API, for `npm run sim` (a person linking a
// simulated number to a running service and chatting with it) and for tests in another process.
import { createPublicKey, type JsonWebKey, type KeyObject } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { proto } from '@whiskeysockets/baileys';
import type { HistoryConversation } from './history.js';
import { sha256 } from './media-crypto.js';
import type { SentMessage } from './sim-model.js';
import { SIM_CA_FILE, type SimMediaKind, type SimWrapper, type WhatsAppSimulator } from './whatsapp-simulator.js';

type Body = Record<string, unknown>;

const MEDIA_KINDS = ['image', 'document', 'video', 'audio', 'sticker'] as const satisfies readonly SimMediaKind[];
const WRAPPERS = ['viewOnce', 'viewOnceV2', 'viewOnceV2Extension', 'ephemeral'] as const satisfies readonly SimWrapper[];

class BadRequest extends Error {}

const str = (body: Body, key: string, required = true): string | undefined => {
  const value = body[key];
  if (value === undefined && !required) return undefined;
  if (typeof value !== 'string' || !value) throw new BadRequest(`${key} must be a non-empty string`);
  return value;
};

const num = (body: Body, key: string): number => {
  const value = body[key];
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new BadRequest(`${key} must be an integer`);
  return value;
};

const base64 = (body: Body, key: string): Buffer | undefined => {
  const value = str(body, key, false);
  if (value === undefined) return undefined;
  if (!/^[A-Za-z0-9+/_-]*={0,2}$/.test(value)) throw new BadRequest(`${key} must be base64`);
  return Buffer.from(value, 'base64');
};

const strings = (body: Body, key: string): string[] | undefined => {
  const value = body[key];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v)) throw new BadRequest(`${key} must be an array of non-empty strings`);
  return value as string[];
};

/** A sent message as JSON: media bytes as base64 with their size and SHA-256. */
const sentJson = ({ message: _message, media, ...rest }: SentMessage): Record<string, unknown> => ({
  ...rest,
  ...(media
    ? {
        media: {
          kind: media.kind,
          mimetype: media.mimetype,
          ...(media.fileName ? { file_name: media.fileName } : {}),
          ...(media.caption ? { caption: media.caption } : {}),
          ...(media.ptt !== undefined ? { ptt: media.ptt } : {}),
          ...(media.seconds !== undefined ? { seconds: media.seconds } : {}),
          ...(media.animated !== undefined ? { animated: media.animated } : {}),
          size: media.data.length,
          sha256: sha256(media.data).toString('hex'),
          data_base64: media.data.toString('base64'),
        },
      }
    : {}),
});

const readBody = async (req: IncomingMessage): Promise<Body> => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  if (!chunks.length) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new BadRequest('body must be JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new BadRequest('body must be a JSON object');
  return parsed as Body;
};

const deliverInput = (body: Body) => ({
  to: str(body, 'to') as string,
  from: str(body, 'from') as string,
  ...(str(body, 'name', false) ? { name: str(body, 'name') } : {}),
  ...(str(body, 'id', false) ? { id: str(body, 'id') } : {}),
  ...(str(body, 'group', false) ? { group: str(body, 'group') } : {}),
  lid: body.lid === true,
});

/** A passkey's public key from its JWK (`PublicKeyCredential`'s COSE key as JWK: kty EC, crv P-256). */
const jwkKey = (body: Body, key: string): KeyObject => {
  const value = body[key];
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new BadRequest(`${key} must be a JWK object`);
  try {
    return createPublicKey({ key: value as JsonWebKey, format: 'jwk' });
  } catch (error) {
    throw new BadRequest(`${key} is not a public key JWK: ${(error as Error).message}`);
  }
};

/** `GET /passkey/:phone`: the account's passkey and its latest ceremony. */
const passkeyState = (sim: WhatsAppSimulator, phone: string): Record<string, unknown> => {
  const ceremony = sim.passkeyCeremony(phone);
  return {
    phone,
    registered: sim.hasPasskey(phone),
    gated: sim.isGated(phone),
    ceremony: ceremony && {
      step: ceremony.step,
      code: ceremony.code,
      handoff_proof: ceremony.handoffProof,
      challenge: ceremony.challenge,
      reason: ceremony.reason,
      via: ceremony.via,
    },
  };
};

/** Routes: one per control method; every answer is JSON, errors are `{"error": "..."}` with 400/404. */
const route = async (sim: WhatsAppSimulator, method: string, path: string, body: Body, query: URLSearchParams): Promise<unknown> => {
  const passkeyOf = method === 'GET' ? /^\/passkey\/([^/]+)$/.exec(path) : null;
  if (passkeyOf) return passkeyState(sim, decodeURIComponent(passkeyOf[1]));
  switch (`${method} ${path}`) {
    case 'GET /status':
      return {
        url: sim.url,
        media_host: sim.media.hostname,
        ca_file: SIM_CA_FILE,
        accounts: [...sim.world.accounts.values()].map((a) => ({
          phone: a.phone,
          lid: `${a.lid}@lid`,
          devices: [...a.devices.values()].map((d) => ({ id: d.id, jid: d.jid, removed: d.removed, pending: d.pending.length })),
          online: sim.isOnline(a.phone),
        })),
      };
    case 'POST /scan': {
      const restartAfter = body.restart_after_ms === undefined ? undefined : num(body, 'restart_after_ms');
      if (restartAfter !== undefined && (restartAfter < 0 || restartAfter > 600_000)) throw new BadRequest('restart_after_ms must be between 0 and 600000');
      const device = await sim.scanQr(str(body, 'qr') as string, str(body, 'phone') as string, { restartAfter });
      return { jid: device.jid, lid: device.lidJid };
    }
    case 'POST /expire-qr':
      sim.expireQr();
      return { ok: true };
    case 'POST /pairing-code': {
      // The phone types the code the service shows (Linked devices → Link with phone number instead).
      const restartAfter = body.restart_after_ms === undefined ? undefined : num(body, 'restart_after_ms');
      if (restartAfter !== undefined && (restartAfter < 0 || restartAfter > 600_000)) throw new BadRequest('restart_after_ms must be between 0 and 600000');
      const device = await sim.enterPairingCode(str(body, 'phone') as string, str(body, 'code') as string, { restartAfter });
      return { jid: device.jid, lid: device.lidJid };
    }
    case 'POST /gate':
      // The account meets WhatsApp's passkey check at its next scan or code (gated: false lifts it).
      sim.gateAccount(str(body, 'phone') as string, body.gated !== false);
      return { ok: true };
    case 'POST /passkey': {
      // The phone's passkey (rpId whatsapp.com): a gated account's next scan or code runs the ceremony.
      const id = str(body, 'credential_id') as string;
      if (!/^[A-Za-z0-9_-]+$/.test(id)) throw new BadRequest('credential_id must be unpadded base64url');
      try {
        sim.registerPasskey(str(body, 'phone') as string, { id: Buffer.from(id, 'base64url'), publicKey: jwkKey(body, 'public_key') });
      } catch (error) {
        throw new BadRequest((error as Error).message);
      }
      return { ok: true };
    }
    case 'POST /messages':
      return { id: await sim.deliverText({ ...deliverInput(body), text: str(body, 'text') as string }) };
    case 'POST /media': {
      const kind = MEDIA_KINDS.find((k) => k === body.kind);
      if (!kind) throw new BadRequest(`kind must be one of ${MEDIA_KINDS.join(', ')}`);
      const wrap = body.wrap === undefined ? undefined : WRAPPERS.find((w) => w === body.wrap);
      if (body.wrap !== undefined && !wrap) throw new BadRequest(`wrap must be one of ${WRAPPERS.join(', ')}`);
      const mimetype = str(body, 'mimetype', false);
      const caption = str(body, 'caption', false);
      const fileName = str(body, 'file_name', false);
      const data = base64(body, 'data_base64');
      const id = await sim.deliverMedia({
        ...deliverInput(body),
        kind,
        ...(mimetype ? { mimetype } : {}),
        ...(caption ? { caption } : {}),
        ...(fileName ? { fileName } : {}),
        ...(data ? { data } : {}),
        ...(body.ptt === true ? { ptt: true } : {}),
        ...(body.seconds !== undefined ? { seconds: num(body, 'seconds') } : {}),
        ...(body.gif === true ? { gifPlayback: true } : {}),
        ...(wrap ? { wrap } : {}),
      });
      return { id };
    }
    case 'POST /content': {
      // Any message content as WhatsApp's proto JSON (a location, contact cards, a poll, a reaction, …).
      if (!body.message || typeof body.message !== 'object' || Array.isArray(body.message))
        throw new BadRequest('message must be an object (proto.Message JSON)');
      let message: proto.IMessage;
      try {
        message = proto.Message.fromObject(body.message as Record<string, unknown>);
      } catch (error) {
        throw new BadRequest(`message is not a proto.Message: ${(error as Error).message}`);
      }
      return { id: await sim.deliverMessage({ ...deliverInput(body), message }) };
    }
    case 'POST /groups': {
      const mode = body.addressing_mode ?? 'lid';
      if (mode !== 'lid' && mode !== 'pn') throw new BadRequest('addressing_mode must be lid or pn');
      const jid = str(body, 'jid') as string;
      if (!/^\d+(-\d+)?@g\.us$/.test(jid)) throw new BadRequest('jid must be a group jid such as 120363000000000001@g.us');
      const subject = str(body, 'subject', false);
      const members = strings(body, 'members');
      const group = sim.group({ jid, to: str(body, 'to') as string, addressingMode: mode, ...(subject ? { subject } : {}), ...(members ? { members } : {}) });
      return { jid: group.jid, subject: group.subject, addressing_mode: group.addressingMode, members: [...group.contacts].map((c) => c.phone) };
    }
    case 'POST /rekey':
      sim.rekeyContact(str(body, 'contact') as string, { newIdentity: body.new_identity === true });
      return { ok: true };
    case 'POST /redeliver':
      await sim.redeliver(str(body, 'id') as string);
      return { ok: true };
    case 'POST /receipts': {
      const type = body.type === 'read' ? 'read' : body.type === 'delivered' ? 'delivered' : undefined;
      if (!type) throw new BadRequest('type must be delivered or read');
      sim.sendReceipt(str(body, 'id') as string, type);
      return { ok: true };
    }
    case 'POST /stream-error':
      sim.streamError(str(body, 'phone') as string, num(body, 'code'));
      return { ok: true };
    case 'POST /failure':
      sim.failure(str(body, 'phone') as string, num(body, 'reason'));
      return { ok: true };
    case 'POST /unlink':
      sim.unlink(str(body, 'phone') as string);
      return { ok: true };
    case 'POST /drop':
      sim.dropConnection(str(body, 'phone', false));
      return { ok: true };
    case 'POST /silence':
      sim.silence(str(body, 'phone') as string);
      return { ok: true };
    case 'POST /history': {
      if (!Array.isArray(body.conversations)) throw new BadRequest('conversations must be an array');
      const progress = body.progress === undefined ? undefined : num(body, 'progress');
      if (progress !== undefined && (progress < 0 || progress > 100)) throw new BadRequest('progress must be between 0 and 100');
      const id = await sim.pushHistory(str(body, 'phone') as string, body.conversations as HistoryConversation[], progress === undefined ? {} : { progress });
      return { id };
    }
    case 'GET /sent':
      return { messages: sim.sent(query.get('phone') ?? undefined).map(sentJson) };
    case 'GET /chatstates':
      return { states: sim.chatStates(query.get('phone') ?? undefined) };
    case 'POST /contacts': {
      // A number on WhatsApp (onWhatsApp finds it); numbers never added or used are not.
      const contact = sim.addContact(str(body, 'phone') as string, str(body, 'name', false));
      return { phone: contact.phone, jid: contact.pnJid, lid: contact.lidJid, name: contact.name };
    }
    default:
      return undefined;
  }
};

const reply = (res: ServerResponse, status: number, body: unknown): void => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

export const startHttpControl = async (sim: WhatsAppSimulator, port = 0, host = '127.0.0.1'): Promise<{ server: Server; url: string }> => {
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    readBody(req)
      .then((body) => route(sim, req.method ?? 'GET', url.pathname, body, url.searchParams))
      .then((result) => (result === undefined ? reply(res, 404, { error: 'not found' }) : reply(res, 200, result)))
      .catch((error: unknown) => reply(res, 400, { error: error instanceof Error ? error.message : String(error) }));
  });
  server.listen(port, host);
  await once(server, 'listening');
  const address = server.address() as AddressInfo;
  return { server, url: `http://${address.address}:${address.port}` };
};
