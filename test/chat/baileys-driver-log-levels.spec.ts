import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import type { DestinationStream } from 'pino';
import { loadConfig } from '../../src/infra/config/app-config.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import type { ScanEvent, ScanSocket } from '../../src/modules/chat/driver/scan-driver.port.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';
import { WhatsAppSimulator } from '../whatsapp-sim/whatsapp-simulator.js';
import { eventually } from './chat-support.js';

/**
 * What Baileys logs through the driver during a socket's normal life, against the simulator: a
 * link (QR, scan, WhatsApp's 515 "restart required", login as an account without a push name) and
 * a QR nobody scans. None of it may read as a failure at the default WA_LOG_LEVEL (warn).
 */
jest.setTimeout(60_000);

const WARN = 40;

interface Line {
  level: number;
  msg?: string;
}

/** A driver whose Baileys lines (down to `debug`) land in `lines`. */
function recordingDriver(simUrl: string): { driver: BaileysScanDriver; lines: Line[] } {
  const lines: Line[] = [];
  const destination: DestinationStream = { write: (text: string) => void lines.push(JSON.parse(text) as Line) };
  const config = loadConfig({ LOG_LEVEL: 'info', WA_LOG_LEVEL: 'debug', WA_WEBSOCKET_URL: simUrl });
  return { driver: new BaileysScanDriver(config, undefined, destination), lines };
}

const warningsOf = (lines: Line[]): string[] => lines.filter((line) => line.level >= WARN).map((line) => `${line.level} ${line.msg}`);

describe('Baileys scan driver: log levels of normal lifecycle events', () => {
  let sim: WhatsAppSimulator;

  beforeAll(async () => {
    sim = await WhatsAppSimulator.start();
  });
  afterAll(async () => {
    await sim?.stop();
  });

  async function open(driver: BaileysScanDriver, auth: MemoryScanAuth): Promise<{ socket: ScanSocket; events: ScanEvent[] }> {
    const events: ScanEvent[] = [];
    const socket = await driver.open({
      workspaceId: '00000000-0000-4000-8000-000000000034',
      auth,
      getMessage: async () => undefined,
      listener: (e, stored) => {
        events.push(e);
        stored?.();
      },
    });
    return { socket, events };
  }

  const closedEvent = (events: ScanEvent[]): Promise<Extract<ScanEvent, { type: 'closed' }>> =>
    eventually('closed', () => events.find((e): e is Extract<ScanEvent, { type: 'closed' }> => e.type === 'closed'));

  it('a link with its 515 restart and a login without a push name log no warning or error', async () => {
    const { driver, lines } = recordingDriver(sim.url);
    const auth = new MemoryScanAuth();
    const first = await open(driver, auth);
    const qr = await eventually('a QR', () => first.events.find((e): e is Extract<ScanEvent, { type: 'qr' }> => e.type === 'qr'));
    await sim.scanQr(qr.code, '15550100034');
    expect(await closedEvent(first.events)).toMatchObject({ code: 515 });

    const next = await open(driver, auth);
    await eventually('logged in', () => next.events.some((e) => e.type === 'open'));
    await sim.waitForLive('15550100034');
    // Up to here: the link. (Closing the socket next may cut off the phone's history messages
    // mid-handling, which Baileys reports as an error; that is not part of a link.)
    const link = [...lines];
    next.socket.close();
    await closedEvent(next.events);

    // Both were logged, below warn: the restart, and the presence update skipped for want of a name.
    expect(link.find((line) => line.msg === 'stream errored out')?.level).toBeLessThan(WARN);
    expect(link.find((line) => line.msg?.startsWith('no name present'))?.level).toBeLessThan(WARN);
    expect(warningsOf(link)).toEqual([]);
  });

  it('a QR that nobody scans expires without a warning or error', async () => {
    const { driver, lines } = recordingDriver(sim.url);
    const { events } = await open(driver, new MemoryScanAuth());
    await eventually('a QR', () => events.some((e) => e.type === 'qr'));
    sim.expireQr();
    expect(await closedEvent(events)).toMatchObject({ code: 408, qrExpired: true });
    expect(lines.length).toBeGreaterThan(0);
    expect(warningsOf(lines)).toEqual([]);
  });
});
