import { describe, expect, it } from '@jest/globals';
import { changesOf, parsePayload } from '../../src/modules/meta/callback/callback-payload.js';
import { type CallbackShare, splitCallback } from '../../src/modules/meta/callback/callback-split.js';

const bytes = (text: string): Buffer => Buffer.from(text, 'utf8');
const share = (entries: Record<number, number[]>): CallbackShare =>
  new Map(Object.entries(entries).map(([entry, changes]) => [Number(entry), new Set(changes)]));
const split = (raw: Buffer, shares: Record<string, Record<number, number[]>>): Map<string, Buffer> =>
  splitCallback(raw, new Map(Object.entries(shares).map(([workspace, entries]) => [workspace, share(entries)])));
const change = (number: string, body: string): string =>
  `{"field":"messages","value":{"messaging_product":"whatsapp","metadata":{"display_phone_number":"15550783881","phone_number_id":"${number}"},"messages":[{"from":"4915112345678","id":"wamid.X","timestamp":"1767225600","type":"text","text":{"body":"${body}"}}]}}`;

// Bytes as Meta sends them: non-ASCII escaped, an id past 2^53 as a bare number, spacing of its own.
const entryA = `{"id":"111","time":1767225600,"changes":[${change('1001', 'Gr\\u00fc\\u00dfe \\ud83d\\udc4b for A')}]}`;
const entryB = `{ "id" : "222", "changes" : [ ${change('2002', 'for B \\"quoted\\"')} , {"field":"message_template_status_update","value":{"event":"APPROVED","message_template_id":12345678901234567890}} ] }`;
const entryUnknown = `{"id":"333","changes":[${change('3003', 'nobody')}]}`;
const mixed = bytes(`{"object":"whatsapp_business_account","entry":[${entryA},${entryB},${entryUnknown}],"future":{"x":1}}`);

describe('splitCallback: each workspace’s part of a provider callback, from its raw bytes', () => {
  it('answers the exact raw bytes for a workspace whose share is every change of every entry', () => {
    const raw = bytes(`{"object":"whatsapp_business_account","entry":[${entryA},${entryB}],"future":true}`);
    const bodies = split(raw, { a: { 0: [0], 1: [0, 1] } });
    expect(bodies.get('a')!.equals(raw)).toBe(true);
  });

  it('gives each workspace {object, entry} with only its entries, each entry’s bytes unchanged; others’ and unknown entries nowhere', () => {
    const bodies = split(mixed, { a: { 0: [0] }, b: { 1: [0, 1] } });
    expect(bodies.get('a')!.toString('utf8')).toBe(`{"object":"whatsapp_business_account","entry":[${entryA}]}`);
    expect(bodies.get('b')!.toString('utf8')).toBe(`{"object":"whatsapp_business_account","entry":[${entryB}]}`);
    const original = JSON.parse(mixed.toString('utf8')) as { entry: unknown[] };
    expect(JSON.parse(bodies.get('a')!.toString('utf8'))).toEqual({ object: 'whatsapp_business_account', entry: [original.entry[0]] });
    for (const body of bodies.values()) expect(body.includes('3003')).toBe(false);
    // The big id is the very digits Meta sent, not JSON.parse's rounding of them.
    expect(bodies.get('b')!.includes('"message_template_id":12345678901234567890')).toBe(true);
  });

  it('cuts an entry whose changes belong to two workspaces: each keeps the entry’s other keys and only its own changes', () => {
    const shared = `{"id":"444","time":7,"changes":[${change('1001', 'one for A')},${change('2002', 'one for B')},${change('1001', 'two for A')}],"extra":{"k":[1,2]}}`;
    const raw = bytes(`{"object":"whatsapp_business_account","entry":[${shared}]}`);
    const bodies = split(raw, { a: { 0: [2, 0] }, b: { 0: [1] } });
    expect(bodies.get('a')!.toString('utf8')).toBe(
      `{"object":"whatsapp_business_account","entry":[{"id":"444","time":7,"changes":[${change('1001', 'one for A')},${change('1001', 'two for A')}],"extra":{"k":[1,2]}}]}`,
    );
    const entry = (JSON.parse(bodies.get('b')!.toString('utf8')) as { entry: { changes: { value: { metadata: { phone_number_id: string } } }[] }[] }).entry;
    expect(entry).toHaveLength(1);
    expect(entry[0]).toMatchObject({ id: '444', time: 7, extra: { k: [1, 2] } });
    expect(entry[0]!.changes.map((c) => c.value.metadata.phone_number_id)).toEqual(['2002']);
  });

  it('reads pretty-printed bodies and those without an object key', () => {
    const raw = bytes(`\n{\n  "entry": [\n    ${entryA},\n\t${entryUnknown}\n  ]\n}\n`);
    expect(
      split(raw, { a: { 0: [0] } })
        .get('a')!
        .toString('utf8'),
    ).toBe(`{"entry":[${entryA}]}`);
  });

  it('leaves nothing of another workspace in a malformed entry’s earlier duplicate changes key, and never passes a duplicated entry key through', () => {
    const duplicate = `{"id":"555","changes":[${change('2002', 'hidden for B')}],"changes":[${change('1001', 'for A')},${change('2002', 'for B')}]}`;
    const raw = bytes(`{"object":"whatsapp_business_account","entry":[${duplicate}]}`);
    const toA = split(raw, { a: { 0: [0] } })
      .get('a')!
      .toString('utf8');
    expect(toA).toBe(`{"object":"whatsapp_business_account","entry":[{"id":"555","changes":[],"changes":[${change('1001', 'for A')}]}]}`);
    const twice = bytes(`{"object":"whatsapp_business_account","entry":[${entryB}],"entry":[${entryA}]}`);
    expect(
      split(twice, { a: { 0: [0] } })
        .get('a')!
        .toString('utf8'),
    ).toBe(`{"object":"whatsapp_business_account","entry":[${entryA}]}`);
  });

  it('agrees with changesOf on indices, elements that are not objects included', () => {
    const raw = bytes(`{"object":"whatsapp_business_account","entry":[null,{"id":"1","changes":["x",${change('1001', 'a')},${change('2002', 'b')}]}]}`);
    const changes = changesOf(parsePayload(raw));
    expect(changes.map((c) => [c.entryIndex, c.changeIndex])).toEqual([
      [1, 1],
      [1, 2],
    ]);
    const toA = split(raw, { a: { [changes[0]!.entryIndex]: [changes[0]!.changeIndex] } })
      .get('a')!
      .toString('utf8');
    expect(toA).toBe(`{"object":"whatsapp_business_account","entry":[{"id":"1","changes":[${change('1001', 'a')}]}]}`);
  });

  it('refuses a share that names an entry or change the callback does not have', () => {
    expect(() => split(mixed, { a: { 7: [0] } })).toThrow('callback share names entries or changes the callback does not have');
    expect(() => split(mixed, { a: { 0: [1] } })).toThrow('callback share names entries or changes the callback does not have');
  });
});
