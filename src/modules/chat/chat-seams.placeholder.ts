import { Injectable } from '@nestjs/common';
import type { ScanDriver, ScanSocket } from './driver/scan-driver.port.js';
import { ScanEventHandler, ScanNotConnectedError, ScanSessions, type ScanSessionState } from './session/scan-sessions.port.js';

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

@Injectable()
export class PlaceholderScanEventHandler extends ScanEventHandler {
  handle(): Promise<void> {
    return Promise.resolve();
  }
}
