/**
 * Cutting a provider callback into the part each workspace may see, from its raw bytes. Meta
 * batches entries (WABAs) and changes of several numbers into one callback; forwarding it whole
 * would hand each workspace the others' customers' messages. A workspace's part is rebuilt from
 * slices of the raw body, never re-serialised, so every value it keeps (ids past 2^53, string
 * escapes, key order, spacing inside an entry) stays exactly as Meta sent it.
 */

/** Byte offsets `[start, end)` of a JSON value in the raw body. */
export interface Span {
  start: number;
  end: number;
}

/** A workspace's share of a callback: for each entry index it gets, the indices of its changes there. */
export type CallbackShare = ReadonlyMap<number, ReadonlySet<number>>;

interface EntryLayout {
  span: Span;
  /** Elements of the entry's `changes` array (the last `changes` key, as JSON.parse reads it); none when not an array. */
  changes: Span[] | undefined;
  /** Values of every `changes` key of the entry, in order (more than one only in a malformed entry). */
  changesValues: Span[];
}

interface CallbackLayout {
  object: Span | undefined;
  entries: EntryLayout[];
  /** More than one `entry` key: never forwarded as it is (what a receiver reads could differ from what was routed). */
  duplicateEntry: boolean;
}

const [QUOTE, BACKSLASH, COMMA, COLON, OPEN_OBJECT, CLOSE_OBJECT, OPEN_ARRAY, CLOSE_ARRAY] = [0x22, 0x5c, 0x2c, 0x3a, 0x7b, 0x7d, 0x5b, 0x5d];
const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;
const ENDS_SCALAR: ReadonlySet<number | undefined> = new Set([COMMA, CLOSE_OBJECT, CLOSE_ARRAY]);

// The body parsed as JSON when it was received: the scan only finds the values' boundaries. Bytes
// of multi-byte UTF-8 characters are all >= 0x80, so they never look like JSON punctuation.
class Scanner {
  constructor(private readonly raw: Buffer) {}

  private fail(at: number): never {
    throw new Error(`callback body is not the JSON it was stored as (offset ${at})`);
  }

  space(at: number): number {
    while (isSpace(this.raw[at])) at++;
    return at;
  }

  private string(at: number): number {
    for (let i = at + 1; i < this.raw.length; i++) {
      if (this.raw[i] === BACKSLASH) i++;
      else if (this.raw[i] === QUOTE) return i + 1;
    }
    return this.fail(at);
  }

  /** The end of the value starting at `at`. */
  value(at: number): number {
    const first = this.raw[at];
    if (first === QUOTE) return this.string(at);
    if (first === OPEN_OBJECT || first === OPEN_ARRAY) {
      let depth = 0;
      for (let i = at; i < this.raw.length; i++) {
        const byte = this.raw[i];
        if (byte === QUOTE) i = this.string(i) - 1;
        else if (byte === OPEN_OBJECT || byte === OPEN_ARRAY) depth++;
        else if ((byte === CLOSE_OBJECT || byte === CLOSE_ARRAY) && --depth === 0) return i + 1;
      }
      return this.fail(at);
    }
    let end = at;
    while (end < this.raw.length && !isSpace(this.raw[end]) && !ENDS_SCALAR.has(this.raw[end])) end++;
    return end === at ? this.fail(at) : end;
  }

  /** The keys and value spans of the object at `span`, in order (duplicates kept). */
  members(span: Span): { key: string; value: Span }[] {
    if (this.raw[span.start] !== OPEN_OBJECT) return [];
    const members: { key: string; value: Span }[] = [];
    let at = this.space(span.start + 1);
    while (this.raw[at] === QUOTE) {
      const keyEnd = this.string(at);
      const key = JSON.parse(this.raw.toString('utf8', at, keyEnd)) as string;
      const colon = this.space(keyEnd);
      if (this.raw[colon] !== COLON) this.fail(colon);
      const start = this.space(colon + 1);
      const end = this.value(start);
      members.push({ key, value: { start, end } });
      at = this.space(end);
      if (this.raw[at] === COMMA) at = this.space(at + 1);
    }
    return members;
  }

  /** The element spans of the array at `span`; undefined when it is not an array. */
  elements(span: Span): Span[] | undefined {
    if (this.raw[span.start] !== OPEN_ARRAY) return undefined;
    const elements: Span[] = [];
    let at = this.space(span.start + 1);
    while (at < span.end - 1 && this.raw[at] !== CLOSE_ARRAY) {
      const end = this.value(at);
      elements.push({ start: at, end });
      at = this.space(end);
      if (this.raw[at] === COMMA) at = this.space(at + 1);
    }
    return elements;
  }
}

function layoutOf(raw: Buffer): CallbackLayout {
  const scan = new Scanner(raw);
  const start = scan.space(0);
  const top = scan.members({ start, end: scan.value(start) });
  const last = (key: string): Span | undefined => top.filter((member) => member.key === key).at(-1)?.value;
  const entry = last('entry');
  const entries = (entry && scan.elements(entry)) ?? [];
  return {
    object: last('object'),
    duplicateEntry: top.filter((member) => member.key === 'entry').length > 1,
    entries: entries.map((span) => {
      const changesValues = scan.members(span).flatMap((member) => (member.key === 'changes' ? [member.value] : []));
      const changes = changesValues.length ? scan.elements(changesValues.at(-1)!) : undefined;
      return { span, changes, changesValues };
    }),
  };
}

const wholeEntry = (entry: EntryLayout, picked: ReadonlySet<number>): boolean =>
  entry.changesValues.length === 1 && entry.changes !== undefined && picked.size === entry.changes.length;

/**
 * The entry's bytes with only the picked changes: its `changes` array is cut to them (the
 * elements' own bytes, in their order), everything else of the entry byte for byte. A malformed
 * entry's earlier `changes` keys (JSON.parse reads only the last) are emptied, so nothing of
 * another workspace stays in them.
 */
function entryBytes(raw: Buffer, entry: EntryLayout, picked: ReadonlySet<number>): Buffer {
  if (wholeEntry(entry, picked)) return raw.subarray(entry.span.start, entry.span.end);
  const changes = entry.changes!;
  const kept = [...picked].sort((a, b) => a - b).map((index) => raw.subarray(changes[index]!.start, changes[index]!.end));
  const parts: Buffer[] = [];
  let at = entry.span.start;
  entry.changesValues.forEach((value, index) => {
    parts.push(raw.subarray(at, value.start));
    const last = index === entry.changesValues.length - 1;
    parts.push(Buffer.from('['), ...(last ? joined(kept) : []), Buffer.from(']'));
    at = value.end;
  });
  parts.push(raw.subarray(at, entry.span.end));
  return Buffer.concat(parts);
}

const joined = (parts: Buffer[]): Buffer[] => parts.flatMap((part, index) => (index === 0 ? [part] : [Buffer.from(','), part]));

/** Whether the share names only entries and changes the callback has (both come from one parse of the same bytes). */
const fits = (layout: CallbackLayout, share: CallbackShare): boolean =>
  [...share].every(([index, picked]) => {
    const changes = layout.entries[index]?.changes;
    return changes !== undefined && picked.size > 0 && [...picked].every((change) => Number.isInteger(change) && change >= 0 && change < changes.length);
  });

/**
 * The bytes each workspace is forwarded: the raw body itself when its share is every change of
 * every entry; otherwise `{"object":…,"entry":[…]}` holding only its entries (each the entry's
 * own bytes, or with its `changes` cut to the workspace's, see `entryBytes`). Other top-level keys
 * are left out of a cut callback: nothing says whose they are.
 */
export function splitCallback(raw: Buffer, shares: ReadonlyMap<string, CallbackShare>): Map<string, Buffer> {
  const bodies = new Map<string, Buffer>();
  if (shares.size === 0) return bodies;
  const layout = layoutOf(raw);
  for (const [workspaceId, share] of shares) {
    if (!fits(layout, share)) throw new Error('callback share names entries or changes the callback does not have');
    const indices = [...share.keys()].sort((a, b) => a - b);
    const whole =
      !layout.duplicateEntry && indices.length === layout.entries.length && indices.every((index) => wholeEntry(layout.entries[index]!, share.get(index)!));
    if (whole) {
      bodies.set(workspaceId, raw);
      continue;
    }
    const head = layout.object
      ? [Buffer.from('{"object":'), raw.subarray(layout.object.start, layout.object.end), Buffer.from(',"entry":[')]
      : [Buffer.from('{"entry":[')];
    const entries = indices.map((index) => entryBytes(raw, layout.entries[index]!, share.get(index)!));
    bodies.set(workspaceId, Buffer.concat([...head, ...joined(entries), Buffer.from(']}')]));
  }
  return bodies;
}
