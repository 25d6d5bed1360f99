import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { Curve, initAuthCreds, proto, type SignalDataTypeMap } from '@whiskeysockets/baileys';
import { loadAuthState } from '../../src/modules/chat/driver/baileys/baileys-auth-state.js';
import { SCAN_AUTH_STORAGE, type ScanAuthStorageFactory } from '../../src/modules/chat/driver/scan-driver.port.js';
import { createTestApp, type TestApp } from '../support/test-app.js';

const PHONE = '15550002222';
const LID = '88888888888888';
const noFailure = (error: unknown): void => {
  throw new Error(`unexpected write failure: ${String(error)}`);
};

/** One value of every key type Baileys 7 stores, in the shapes it hands to `keys.set`. */
function everyKeyType(): { [T in keyof SignalDataTypeMap]: [string, SignalDataTypeMap[T]] } {
  const keyPair = Curve.generateKeyPair();
  return {
    'pre-key': ['17', { public: Buffer.from(keyPair.public), private: Buffer.from(keyPair.private) }],
    session: [`${LID}_1.0`, Buffer.from('libsignal session record \u0001\u0002')],
    'sender-key': [`120363000000000000@g.us::${LID}_1::0`, Buffer.from([9, 8, 7, 6])],
    'sender-key-memory': ['120363000000000000@g.us', { [`${LID}:0@lid`]: true, [`${PHONE}:3@s.whatsapp.net`]: false }],
    'app-state-sync-key': [
      'AAAAAKzE',
      proto.Message.AppStateSyncKeyData.fromObject({
        keyData: Buffer.from('app state key data, 32 bytes!!!!'),
        fingerprint: { rawId: 7, currentIndex: 2, deviceIndexes: [0, 7] },
        timestamp: 1764000000,
      }),
    ],
    'app-state-sync-version': [
      'regular_high',
      { version: 12, hash: Buffer.alloc(128, 3), indexValueMap: { 'aW5kZXg=': { valueMac: Buffer.from([1, 2, 3]) } } },
    ],
    'lid-mapping': [PHONE, LID],
    'device-list': [PHONE, ['0', '7']],
    tctoken: [`${LID}@lid`, { token: Buffer.from('trusted contact token'), timestamp: '1764000000' }],
    'identity-key': [`${LID}_1.0`, Buffer.concat([Buffer.from([5]), Buffer.from(keyPair.public)])],
  };
}

describe('scan auth state in Postgres', () => {
  let t: TestApp;
  let storage: ScanAuthStorageFactory;

  beforeAll(async () => {
    t = await createTestApp();
    storage = t.app.get<ScanAuthStorageFactory>(SCAN_AUTH_STORAGE);
  });
  afterAll(async () => {
    await t?.close();
  });

  const rawRows = async (workspaceId: string): Promise<{ type: string; key_id: string; value: string }[]> =>
    t.dataSource.query(`SELECT type, key_id, value FROM scan_auth_keys WHERE workspace_id = $1`, [workspaceId]);

  it('starts a workspace with fresh creds, and reads back saved creds with their Buffers intact', async () => {
    const ws = await t.factories.workspace();
    const first = await loadAuthState(storage.forWorkspace(ws.id), noFailure);
    const fresh = initAuthCreds();
    expect(first.state.creds.registrationId).toEqual(expect.any(Number));
    expect(first.state.creds.me).toBeUndefined();
    expect(Object.keys(first.state.creds).sort()).toEqual(Object.keys(fresh).sort());

    first.state.creds.me = { id: `${PHONE}:7@s.whatsapp.net`, lid: `${LID}@lid`, name: 'Shop' };
    first.state.creds.routingInfo = Buffer.from('routing');
    await first.saveCreds();

    const again = await loadAuthState(storage.forWorkspace(ws.id), noFailure);
    expect(again.state.creds).toEqual(first.state.creds);
    expect(Buffer.isBuffer(again.state.creds.noiseKey.private)).toBe(true);
    expect(Buffer.from(again.state.creds.signedPreKey.signature).equals(Buffer.from(first.state.creds.signedPreKey.signature))).toBe(true);
    expect(again.state.creds.routingInfo?.toString()).toBe('routing');
  });

  it('round-trips every Baileys 7 key type through keys.set and keys.get', async () => {
    const ws = await t.factories.workspace();
    const { state } = await loadAuthState(storage.forWorkspace(ws.id), noFailure);
    const values = everyKeyType();
    await state.keys.set(Object.fromEntries(Object.entries(values).map(([type, [id, value]]) => [type, { [id]: value }])));

    const { state: reloaded } = await loadAuthState(storage.forWorkspace(ws.id), noFailure);
    for (const [type, [id, value]] of Object.entries(values)) {
      const got = await reloaded.keys.get(type as keyof SignalDataTypeMap, [id, 'absent-id']);
      expect(Object.keys(got)).toEqual([id]);
      if (type === 'app-state-sync-key') {
        const key = got[id] as proto.Message.AppStateSyncKeyData;
        expect(key).toBeInstanceOf(proto.Message.AppStateSyncKeyData);
        expect(Buffer.from(key.keyData!).toString()).toBe('app state key data, 32 bytes!!!!');
        expect(key.fingerprint).toMatchObject({ rawId: 7, currentIndex: 2, deviceIndexes: [0, 7] });
      } else {
        expect({ type, value: got[id] }).toEqual({ type, value });
      }
    }
    const session = (await reloaded.keys.get('session', [`${LID}_1.0`]))[`${LID}_1.0`];
    expect(Buffer.isBuffer(session)).toBe(true);
    const preKey = (await reloaded.keys.get('pre-key', ['17']))['17']!;
    expect(Buffer.isBuffer(preKey.public) && Buffer.isBuffer(preKey.private)).toBe(true);
  });

  it('keeps the table unreadable: no key id, value or phone number appears in it', async () => {
    const ws = await t.factories.workspace();
    const { state, saveCreds } = await loadAuthState(storage.forWorkspace(ws.id), noFailure);
    state.creds.me = { id: `${PHONE}:7@s.whatsapp.net`, lid: `${LID}@lid`, name: 'Recognisable Shop Name' };
    await saveCreds();
    const values = everyKeyType();
    await state.keys.set({ 'lid-mapping': { [PHONE]: LID, [`${LID}_reverse`]: PHONE }, session: { [values.session[0]]: values.session[1] } });

    const rows = await rawRows(ws.id);
    expect(rows.map((row) => row.type).sort()).toEqual(['creds', 'lid-mapping', 'lid-mapping', 'session']);
    const dump = JSON.stringify(rows);
    for (const secret of [PHONE, LID, 'Recognisable Shop Name', 'libsignal session record', Buffer.from(state.creds.noiseKey.private).toString('base64')]) {
      expect({ secret, found: dump.includes(secret) }).toEqual({ secret, found: false });
    }
    for (const row of rows) expect(row.value).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('deletes a key written as null, and leaves the others', async () => {
    const ws = await t.factories.workspace();
    const auth = storage.forWorkspace(ws.id);
    await auth.writeKeys([
      { type: 'pre-key', id: '1', value: '"one"' },
      { type: 'pre-key', id: '2', value: '"two"' },
    ]);
    await auth.writeKeys([{ type: 'pre-key', id: '1', value: null }]);
    expect(await auth.readKeys('pre-key', ['1', '2'])).toEqual(new Map([['2', '"two"']]));
  });

  it('applies a batch in order, the last write of a key winning', async () => {
    const ws = await t.factories.workspace();
    const auth = storage.forWorkspace(ws.id);
    await auth.writeKeys([
      { type: 'session', id: 'a', value: '"old"' },
      { type: 'session', id: 'a', value: '"new"' },
      { type: 'session', id: 'b', value: '"kept"' },
      { type: 'session', id: 'c', value: '"gone"' },
      { type: 'session', id: 'c', value: null },
    ]);
    expect(await auth.readKeys('session', ['a', 'b', 'c'])).toEqual(
      new Map([
        ['a', '"new"'],
        ['b', '"kept"'],
      ]),
    );
  });

  it('writes a batch in one transaction: when part of it fails, nothing of it is saved and the write rejects', async () => {
    const ws = await t.factories.workspace();
    const auth = storage.forWorkspace(ws.id);
    await auth.writeKeys([{ type: 'session', id: 'peer', value: '"before"' }]);
    // A trigger that refuses one key type stands in for any failure half-way through a write.
    await t.dataSource.query(`CREATE FUNCTION refuse_poison() RETURNS trigger AS $$ BEGIN
        IF NEW.type = 'poison' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`);
    await t.dataSource.query(`CREATE TRIGGER refuse_poison BEFORE INSERT ON scan_auth_keys FOR EACH ROW EXECUTE FUNCTION refuse_poison()`);
    try {
      await expect(
        auth.writeKeys([
          { type: 'session', id: 'peer', value: null },
          { type: 'identity-key', id: 'peer', value: '"new identity"' },
          { type: 'poison', id: 'x', value: '"x"' },
        ]),
      ).rejects.toThrow('refused');
    } finally {
      await t.dataSource.query(`DROP TRIGGER refuse_poison ON scan_auth_keys; DROP FUNCTION refuse_poison()`);
    }
    expect(await auth.readKeys('session', ['peer'])).toEqual(new Map([['peer', '"before"']]));
    expect(await auth.readKeys('identity-key', ['peer'])).toEqual(new Map());
  });

  it('rejects a write for a workspace that no longer exists instead of losing it silently', async () => {
    const ws = await t.factories.workspace();
    const auth = storage.forWorkspace(ws.id);
    await t.dataSource.query(`DELETE FROM workspaces WHERE id = $1`, [ws.id]);
    await expect(auth.writeCreds('{"me":null}')).rejects.toThrow();
  });

  it('clears one workspace entirely and leaves another workspace untouched', async () => {
    const [mine, theirs] = [await t.factories.workspace(), await t.factories.workspace()];
    for (const ws of [mine, theirs]) {
      const auth = storage.forWorkspace(ws.id);
      await auth.writeCreds('{"registered":false}');
      await auth.writeKeys([{ type: 'lid-mapping', id: PHONE, value: JSON.stringify(LID) }]);
    }
    await storage.forWorkspace(mine.id).clear();

    expect(await rawRows(mine.id)).toEqual([]);
    expect(await storage.forWorkspace(mine.id).readCreds()).toBeNull();
    const other = storage.forWorkspace(theirs.id);
    expect(await other.readCreds()).toBe('{"registered":false}');
    expect(await other.readKeys('lid-mapping', [PHONE])).toEqual(new Map([[PHONE, JSON.stringify(LID)]]));
  });

  it("never answers one workspace with another workspace's keys", async () => {
    const [mine, theirs] = [await t.factories.workspace(), await t.factories.workspace()];
    await storage.forWorkspace(theirs.id).writeKeys([{ type: 'session', id: 'peer', value: '"theirs"' }]);
    // Even a row copied across workspaces does not match: the stored id is bound to its workspace.
    await t.dataSource.query(
      `INSERT INTO scan_auth_keys (workspace_id, type, key_id, value) SELECT $1, type, key_id, value FROM scan_auth_keys WHERE workspace_id = $2`,
      [mine.id, theirs.id],
    );
    expect(await storage.forWorkspace(mine.id).readKeys('session', ['peer'])).toEqual(new Map());
  });
});
