import { Inject, Injectable, Optional } from '@nestjs/common';
import { AppConfig } from '../../../../infra/config/app-config.js';
import { SCAN_PROXY_SOURCE, type ScanProxySource } from '../../proxy/scan-proxy.source.js';
import type { ScanDriver, ScanMediaRef, ScanOpenOptions, ScanSocket } from '../scan-driver.port.js';
import { BAILEYS_SOCKET_FACTORY, type MakeBaileysSocket } from './baileys-socket.types.js';

/**
 * `SCAN_DRIVER` as bound in ChatModule: the Baileys driver, loaded on first use. Loading Baileys
 * (its protocol definitions and WebAssembly) takes about 2 s of CPU and a good deal of memory;
 * `api` processes never hold a socket and most never download media, so they never pay it, and
 * no process pays it at start-up.
 */
@Injectable()
export class LazyBaileysScanDriver implements ScanDriver {
  private driver: Promise<ScanDriver> | undefined;

  constructor(
    private readonly config: AppConfig,
    @Optional() @Inject(BAILEYS_SOCKET_FACTORY) private readonly makeSocket?: MakeBaileysSocket,
    @Optional() @Inject(SCAN_PROXY_SOURCE) private readonly proxies?: ScanProxySource,
  ) {}

  async open(options: ScanOpenOptions): Promise<ScanSocket> {
    return (await this.load()).open(options);
  }

  async downloadMedia(ref: ScanMediaRef, workspaceId?: string): Promise<Buffer> {
    return (await this.load()).downloadMedia(ref, workspaceId);
  }

  private load(): Promise<ScanDriver> {
    this.driver ??= import('./baileys-scan.driver.js').then(
      ({ BaileysScanDriver }) => new BaileysScanDriver(this.config, this.makeSocket, undefined, this.proxies),
      (error: unknown) => {
        this.driver = undefined; // a failed load is retried on the next call
        throw error;
      },
    );
    return this.driver;
  }
}
