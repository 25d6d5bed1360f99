import { loadConfig } from '../../src/infra/config/app-config.js';
import { BaileysScanDriver } from '../../src/modules/chat/driver/baileys/baileys-scan.driver.js';
import type { ScanEvent, ScanSocket, StoredScanMessage } from '../../src/modules/chat/driver/scan-driver.port.js';
import { fakeSocketFactory, type FakeBaileysSocket } from '../support/fake-baileys-socket.js';
import { MemoryScanAuth } from '../support/memory-scan-auth.js';

export const OWN_PHONE = '15550001111';
export const OWN_LID = '99999999999999';
export const PEER_PHONE = '15550002222';
export const PEER_LID = '88888888888888';

export interface OpenedSocket {
  driver: BaileysScanDriver;
  socket: ScanSocket;
  fake: FakeBaileysSocket;
  events: ScanEvent[];
  auth: MemoryScanAuth;
  stored: Map<string, StoredScanMessage>;
}

/** Opens a driver socket on a fake Baileys socket, logged in as OWN_PHONE unless `linked` is false. */
export async function openFake(options: { env?: Record<string, string>; linked?: boolean; auth?: MemoryScanAuth } = {}): Promise<OpenedSocket> {
  const factory = fakeSocketFactory();
  const driver = new BaileysScanDriver(loadConfig({ LOG_LEVEL: 'silent', ...options.env }), factory.make);
  const auth = options.auth ?? new MemoryScanAuth();
  const events: ScanEvent[] = [];
  const stored = new Map<string, StoredScanMessage>();
  const socket = await driver.open({
    workspaceId: '00000000-0000-4000-8000-000000000001',
    auth,
    getMessage: async (chatJid, externalId) => stored.get(`${chatJid}/${externalId}`),
    listener: (event, stored) => {
      events.push(event);
      stored?.();
    },
  });
  const fake = factory.sockets[0]!;
  if (options.linked !== false) fake.user = { id: `${OWN_PHONE}:7@s.whatsapp.net`, lid: `${OWN_LID}:7@lid`, name: 'Shop' };
  return { driver, socket, fake, events, auth, stored };
}

/** Lets `ev.process` handlers and chained saves run. */
export const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
