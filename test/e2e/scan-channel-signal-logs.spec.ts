import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { TestApp } from '../support/test-app.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { api, createE2eApp, eventually, link, messageWhen, newWorkspace, sentMessage, type E2eWorkspace, type Json, workerProcessEnv } from './e2e-support.js';

/**
 * Issue 33: no Signal key material in the process output. libsignal prints whole session records
 * (root key, chain keys, the ephemeral private key) with `console.info("Closing session:", …)`
 * when a contact's session is replaced, which happens in normal traffic. Here the service is a
 * real process (the built service, ROLE=worker, LOG_LEVEL=debug so debug lines are printed too),
 * holding the socket of a simulated number whose contact starts a new session and then reinstalls
 * WhatsApp (a new identity): every message is stored, and what the process printed on stdout and
 * stderr holds no key field, no byte dump and none of the session's key bytes.
 */
jest.setTimeout(120_000);

const ROOT = resolve(import.meta.dirname, '../..');
const PHONE = '15550100033';
const CONTACT = '4915100330001';
const KEY_FIELD_NAMES = ['privKey', 'pubKey', 'rootKey', 'chainKey', 'baseKey'];

/** Every way a key can show in text: hex (plain, and spaced as util.inspect prints a Buffer), base64, decimal JSON. */
function renderings(key: Buffer): string[] {
  const hex = key.toString('hex');
  return [hex, hex.match(/../g)!.slice(0, 16).join(' '), key.toString('base64'), `[${[...key.subarray(0, 16)].join(',')}`];
}

/** What in `output` gives key material away: field names, byte dumps, raw session dumps, the keys' bytes. */
function leaks(output: string, keys: Buffer[]): string[] {
  const found: string[] = [];
  for (const name of KEY_FIELD_NAMES) if (output.includes(name)) found.push(`the field name ${name}`);
  for (const dump of ['<Buffer ', '"type":"Buffer"', 'Uint8Array(', 'SessionEntry']) if (output.includes(dump)) found.push(`a byte or record dump (${dump})`);
  for (const line of output.split('\n').filter((l) => l.includes('Closing session'))) {
    let parsed: Json | undefined;
    try {
      parsed = JSON.parse(line) as Json;
    } catch {
      parsed = undefined;
    }
    if (parsed?.level !== 20) found.push(`"Closing session" printed other than as a debug log line: ${line.slice(0, 200)}`);
  }
  for (const key of keys) {
    for (const form of renderings(key)) if (output.includes(form)) found.push(`the bytes of a session key (${form.slice(0, 24)}…)`);
  }
  return [...new Set(found)];
}

describe("scan channel end to end: a contact's Signal session replaced, and the process output", () => {
  let sim: WhatsAppSimulator;
  let t: TestApp;
  let child: ChildProcess | undefined;
  let output = '';
  let ws: E2eWorkspace;

  beforeAll(async () => {
    // The same build `npm start` runs (compiled only when a source is newer than dist/).
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { cwd: ROOT, stdio: 'pipe', timeout: 300_000 });
    sim = await WhatsAppSimulator.start();
    // The HTTP side in-process (ROLE=api opens no socket); the socket is the worker process's.
    t = await createE2eApp(sim, { env: { ROLE: 'api' } });
    ws = await newWorkspace(t);
    child = spawn(process.execPath, [resolve(ROOT, 'dist/src/main.js')], {
      // An empty directory, so no developer .env leaks in.
      cwd: tmpdir(),
      env: workerProcessEnv(t, sim, { LOG_LEVEL: 'debug', WA_LOG_LEVEL: 'debug' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await eventually(
      'the worker process running',
      () => output.includes('worker running') || (child!.exitCode !== null && Promise.reject(new Error(`the worker exited:\n${output}`))),
      60_000,
    );
  }, 360_000);
  afterAll(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await t?.close();
    await sim?.stop();
  });

  it('stores the messages before and after a new session and a reinstall, and prints no key material', async () => {
    await link(t, sim, ws, PHONE);
    const peer = sim.world.contact(CONTACT, 'Rekey').peer;
    const write = async (text: string): Promise<Json> =>
      messageWhen(t, ws, await sim.deliverText({ to: PHONE, from: CONTACT, name: 'Rekey', text }), () => true, 30_000);

    const before = await write('before the new session');
    const keys = peer.sessionKeyMaterial();

    // A new session with the same identity (a reset session): the device closes the open one.
    sim.rekeyContact(CONTACT);
    const afterReset = await write('after the new session');
    await eventually('libsignal closing the old session in the worker', () => output.includes('Closing session'), 10_000);
    keys.push(...peer.sessionKeyMaterial());

    // WhatsApp reinstalled: a new identity key too.
    sim.rekeyContact(CONTACT, { newIdentity: true });
    const afterReinstall = await write('after the reinstall');
    keys.push(...peer.sessionKeyMaterial());

    // The new session works both ways: a reply is decrypted by the contact.
    const reply = await api(t, ws, 'post', `/api/conversations/${String(afterReinstall.conversation_id)}/messages`, { body: 'welcome back' });
    expect(reply.status).toBe(201);
    const queued = await sentMessage(t, ws, String(afterReinstall.conversation_id), String((reply.body as Json).id));
    expect(queued).toMatchObject({ status: 'sent' });
    expect(await sim.waitForSent((m) => m.id === queued.chat_message_id)).toMatchObject({ text: 'welcome back', contact: CONTACT });
    keys.push(...peer.sessionKeyMaterial());

    for (const message of [before, afterReset, afterReinstall])
      expect(message).toMatchObject({ direction: 'inbound', conversation_id: before.conversation_id });
    expect([before.content, afterReset.content, afterReinstall.content]).toEqual(['before the new session', 'after the new session', 'after the reinstall']);

    // Everything the process printed, up to its exit (stdout and stderr are flushed by then).
    const exited = new Promise((done) => child!.once('exit', done));
    child!.kill('SIGTERM');
    await exited;
    expect(keys.length).toBeGreaterThan(10);
    expect(leaks(output, keys)).toEqual([]);
    // libsignal's report is there, as a debug line of the service's logger.
    expect(output).toContain('"msg":"Closing session:"');
  });
});
