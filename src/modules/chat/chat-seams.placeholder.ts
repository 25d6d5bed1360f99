import { Injectable } from '@nestjs/common';
import type { ScanAuthStorage, ScanAuthStorageFactory, ScanDriver, ScanKeyWrite, ScanSocket } from './driver/scan-driver.port.js';
import { ScanNotConnectedError, ScanSessions, type ScanSessionState } from './session/scan-sessions.port.js';

// TEMPORARY, while the three halves of the chat module are built in parallel: each binding below
// is replaced by its real implementation in ChatModule, and this file is deleted once all are in.

@Injectable()
export class PlaceholderScanDriver implements ScanDriver {
  open(): Promise<ScanSocket> {
    return Promise.reject(new Error('scan driver not wired yet'));
  }
  downloadMedia(): Promise<Buffer> {
    return Promise.reject(new Error('scan driver not wired yet'));
  }
}

@Injectable()
export class PlaceholderScanSessions extends ScanSessions {
  state(): Promise<ScanSessionState> {
    return Promise.resolve({ connected: false, logged_in: false, qr_pending: false });
  }
  isConnected(): Promise<boolean> {
    return Promise.resolve(false);
  }
  send(): Promise<{ externalId: string }> {
    return Promise.reject(new ScanNotConnectedError());
  }
  markRead(): Promise<void> {
    return Promise.reject(new ScanNotConnectedError());
  }
}

/** In memory, per process: enough for the halves to boot before the Postgres store is merged. */
@Injectable()
export class PlaceholderScanAuthStorageFactory implements ScanAuthStorageFactory {
  private readonly rows = new Map<string, Map<string, string>>();

  forWorkspace(workspaceId: string): ScanAuthStorage {
    const rows = this.rows.get(workspaceId) ?? new Map<string, string>();
    this.rows.set(workspaceId, rows);
    return {
      readCreds: () => Promise.resolve(rows.get('creds/creds') ?? null),
      writeCreds: (value: string) => Promise.resolve(void rows.set('creds/creds', value)),
      readKeys: (type: string, ids: readonly string[]) =>
        Promise.resolve(new Map(ids.flatMap((id) => (rows.has(`${type}/${id}`) ? [[id, rows.get(`${type}/${id}`) as string] as const] : [])))),
      writeKeys: (writes: readonly ScanKeyWrite[]) => {
        for (const w of writes) {
          if (w.value === null) rows.delete(`${w.type}/${w.id}`);
          else rows.set(`${w.type}/${w.id}`, w.value);
        }
        return Promise.resolve();
      },
      clear: () => Promise.resolve(rows.clear()),
    };
  }
}
