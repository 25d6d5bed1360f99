import type supertest from 'supertest';
import { SCAN_DRIVER } from '../../src/modules/chat/driver/scan-driver.port.js';
import { FakeScanDriver, type FakeScanSocket } from '../support/fake-scan-driver.js';
import { createTestApp, type TestApp, type TestAppOptions } from '../support/test-app.js';

/** Session timings small enough for tests (the defaults are tens of seconds). */
export const FAST_CHAT_ENV: Record<string, string> = {
  CHAT_LEASE_TTL_MS: '10000',
  CHAT_SWEEP_INTERVAL_MS: '200',
  CHAT_RESUME_PER_SECOND: '50',
  CHAT_RECONNECT_BASE_MS: '20',
  CHAT_RECONNECT_MAX_MS: '80',
  CHAT_MAX_FAILURES: '3',
  CHAT_CONNECT_WAIT_MS: '3000',
};

export interface ChatTestApp extends TestApp {
  driver: FakeScanDriver;
}

/** A test app whose scan channel is the fake driver (the auth storage stays the real binding). */
export async function createChatApp(options: TestAppOptions = {}): Promise<ChatTestApp> {
  const driver = new FakeScanDriver();
  const t = await createTestApp({
    ...options,
    env: { ...FAST_CHAT_ENV, ...options.env },
    customize: (builder) => (options.customize ? options.customize(builder) : builder).overrideProvider(SCAN_DRIVER).useValue(driver),
  });
  return Object.assign(t, { driver });
}

export type ChatCaller = { key: string } | { cookie: string; workspaceId: string } | 'none';

/**
 * A chat request exactly as the contract lists it: credentials and `X-Tenant-ID`, no body and no
 * Content-Type, also for the Console's POSTs (connect, disconnect).
 */
export function chat(t: TestApp, caller: ChatCaller, method: 'get' | 'post', path: string): supertest.Test {
  let request = t.http()[method](path);
  if (caller !== 'none') {
    request =
      'key' in caller ? request.set('Authorization', `Bearer ${caller.key}`) : request.set('Cookie', caller.cookie).set('X-Tenant-ID', caller.workspaceId);
  }
  return request;
}

/** Polls until `check` answers a value other than undefined/false; a bound, not an assertion. */
export async function eventually<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** The newest socket of the workspace once it exists (and, if given, satisfies `ready`). */
export function socketOf(t: ChatTestApp, workspaceId: string, ready: (s: FakeScanSocket) => boolean = () => true): Promise<FakeScanSocket> {
  return eventually(`a socket for ${workspaceId}`, () => {
    const socket = t.driver.latest(workspaceId);
    return socket && ready(socket) ? socket : undefined;
  });
}
