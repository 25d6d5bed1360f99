// Strips Signal / WhatsApp key material from values about to be printed or logged. libsignal
// hands whole session records to console (root key, chain keys, the ephemeral private key) and
// Baileys' credentials hold the identity and noise key pairs: none of it may reach a log line.

/**
 * Field names whose values are key material, in libsignal's session records (`currentRatchet.
 * rootKey`, `ephemeralKeyPair.privKey`, `chainKey`, `indexInfo.baseKey`, `messageKeys`, …) and in
 * Baileys' credentials (`private`/`public` halves of its key pairs, `noiseKey`, `advSecretKey`, …).
 * Matched case-insensitively (a record's five, privKey to baseKey, also inside longer names such as
 * `baseKeyType`); such a field is dropped with its name, so not even the name is printed.
 */
export const KEY_MATERIAL_FIELDS: readonly string[] = [
  'privKey',
  'pubKey',
  'rootKey',
  'chainKey',
  'baseKey',
  'messageKeys',
  'remoteIdentityKey',
  'lastRemoteEphemeralKey',
  'ephemeralKeyPair',
  'identityKey',
  'signedPreKey',
  'privateKey',
  'publicKey',
  'private',
  'public',
  'keyPair',
  'noiseKey',
  'pairingEphemeralKeyPair',
  'signedIdentityKey',
  'signalIdentities',
  'advSecretKey',
  'mediaKey',
  'macKey',
  'cipherKey',
];

const KEY_FIELDS = new Set(KEY_MATERIAL_FIELDS.map((name) => name.toLowerCase()));
// A record's own key names, also inside longer ones (`baseKeyType`): none of them is printed at all.
const RECORD_KEY_NAME = /privkey|pubkey|rootkey|chainkey|basekey/i;

const isKeyField = (name: string): boolean => KEY_FIELDS.has(name.toLowerCase()) || RECORD_KEY_NAME.test(name);

const UNREADABLE = '[unreadable]';

// libsignal keys its chains (and a record its sessions) by the base64 of a ratchet or base key.
const BASE64_KEY_NAME = /^[A-Za-z0-9+/]{40,}={0,2}$/;
// What `util.inspect` makes of a Buffer inside a string someone built: `<Buffer 05 1a … 3 more bytes>`.
const INSPECTED_BUFFER = /<Buffer(?: [0-9a-f]{2})*(?: \.\.\. \d+ more bytes?)?>/g;

const MAX_DEPTH = 8;
const MAX_ITEMS = 100;
// Bounds the work for one value: console and debug lines are rare, but a value can be huge.
const MAX_NODES = 2_000;

interface Walk {
  nodes: number;
  ancestors: Set<object>;
}

const bytesPlaceholder = (length: number): string => `[bytes ${length}]`;

/**
 * A copy of `value` safe to print: Buffers, typed arrays and their JSON form (`{type: 'Buffer',
 * data}`) become `[bytes N]`; key-named fields are dropped; base64 key names are replaced;
 * `<Buffer …>` dumps inside strings are masked; cycles, depth and size are bounded. What needs no
 * change is returned as it is (the same object), so ordinary values print as before. Never throws.
 */
export function stripKeyMaterial(value: unknown): unknown {
  try {
    return strip(value, 0, { nodes: 0, ancestors: new Set() });
  } catch {
    return '[unprintable]';
  }
}

/** `stripKeyMaterial` for a string: masks `<Buffer …>` dumps. */
export function maskBufferDumps(text: string): string {
  return text.includes('<Buffer') ? text.replace(INSPECTED_BUFFER, '[bytes]') : text;
}

function strip(value: unknown, depth: number, walk: Walk): unknown {
  if (typeof value === 'string') return maskBufferDumps(value);
  if (typeof value === 'function') return `[function ${value.name || 'anonymous'}]`;
  if (value === null || typeof value !== 'object') return value;
  if (ArrayBuffer.isView(value)) return bytesPlaceholder(value.byteLength);
  if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== 'undefined' && value instanceof SharedArrayBuffer)) {
    return bytesPlaceholder(value.byteLength);
  }
  if (value instanceof Date || value instanceof RegExp) return value;
  if (walk.ancestors.has(value)) return '[circular]';
  if (depth >= MAX_DEPTH) return '[depth limit]';
  if (++walk.nodes > MAX_NODES) return '[truncated]';
  walk.ancestors.add(value);
  try {
    if (Array.isArray(value)) return stripArray(value, depth, walk);
    if (value instanceof Map)
      return stripEntries(
        [...value.entries()].map(([k, v]) => [String(k), v]),
        depth,
        walk,
        value,
      );
    if (value instanceof Set) {
      const items = [...value];
      const stripped = stripArray(items, depth, walk);
      return stripped === items ? value : stripped;
    }
    const jsonBuffer = serializedBuffer(value);
    if (jsonBuffer !== undefined) return bytesPlaceholder(jsonBuffer);
    if (value instanceof Error) return stripError(value, depth, walk);
    return stripEntries(
      Object.keys(value).map((key) => [key, read(value, key)]),
      depth,
      walk,
      value,
    );
  } finally {
    walk.ancestors.delete(value);
  }
}

function stripArray(items: unknown[], depth: number, walk: Walk): unknown[] {
  const shown = items.length > MAX_ITEMS ? items.slice(0, MAX_ITEMS) : items;
  let changed = shown !== items;
  const out = shown.map((item) => {
    const stripped = strip(item, depth + 1, walk);
    if (stripped !== item) changed = true;
    return stripped;
  });
  if (items.length > MAX_ITEMS) out.push(`[${items.length - MAX_ITEMS} more]`);
  return changed ? out : items;
}

function stripEntries(entries: [string, unknown][], depth: number, walk: Walk, original: object): unknown {
  let changed = false;
  const out: Record<string, unknown> = {};
  let renamed = 0;
  let kept = 0;
  for (const [key, item] of entries) {
    if (isKeyField(key)) {
      changed = true;
      continue;
    }
    if (kept === MAX_ITEMS) {
      out['[more]'] = `[${entries.length - kept} more fields]`;
      changed = true;
      break;
    }
    kept += 1;
    const name = BASE64_KEY_NAME.test(key) ? `[key ${++renamed}]` : key;
    const stripped = strip(item, depth + 1, walk);
    if (stripped !== item || name !== key || item === UNREADABLE) changed = true;
    out[name] = stripped;
  }
  return changed ? out : original;
}

// An error prints as its name, message and stack: kept as it is unless those or its own fields
// carry key material, then a copy that still prints like it.
function stripError(error: Error, depth: number, walk: Walk): unknown {
  const fields = Object.keys(error);
  const stripped = fields.length
    ? stripEntries(
        fields.map((key) => [key, read(error, key)]),
        depth,
        walk,
        error,
      )
    : error;
  const message = maskBufferDumps(String(error.message));
  const stack = error.stack === undefined ? undefined : maskBufferDumps(error.stack);
  if (stripped === error && message === error.message && stack === error.stack) return error;
  const copy = new Error(message);
  copy.name = error.name;
  copy.stack = stack;
  return Object.assign(copy, stripped === error ? {} : stripped);
}

/** The byte length of a Buffer in its JSON form (`{type: 'Buffer', data: [..] | 'base64'}`). */
function serializedBuffer(value: object): number | undefined {
  const candidate = value as { type?: unknown; data?: unknown };
  if (candidate.type !== 'Buffer') return undefined;
  if (Array.isArray(candidate.data)) return candidate.data.length;
  if (typeof candidate.data === 'string') return Math.floor((candidate.data.replace(/=+$/, '').length * 3) / 4);
  return undefined;
}

// A getter that throws (or a revoked proxy) must not break the line being printed.
function read(value: object, key: string): unknown {
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return UNREADABLE;
  }
}
