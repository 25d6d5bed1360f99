import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { parseProxyUrl, type ProxyEndpoint, ProxyUrlError } from '../../../infra/net/proxy-url.js';
import type { ScanProxyResponse } from './dto/scan-proxy.dto.js';
import { ScanProxyRepository } from './scan-proxy.repository.js';
import type { ScanProxySource } from './scan-proxy.source.js';

/** Purpose of the key that seals proxy URLs at rest (they may carry the proxy's password). */
export const SCAN_PROXY_PURPOSE = 'scan-proxy-url';
export const PROXY_NOT_FOUND = 'proxy not found';

/**
 * Each number's egress proxy (docs/chat.md, "Egress proxy"): its own, set by an owner or admin,
 * else WA_PROXY_URL, else none. The URL is checked (`parseProxyUrl`), stored sealed and only ever
 * shown masked. The Baileys driver asks `proxyFor` at every connection and media download.
 */
@Injectable()
export class ScanProxyService implements ScanProxySource {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: ScanProxyRepository,
    private readonly encryption: EncryptionService,
  ) {}

  async get(workspaceId: string): Promise<ScanProxyResponse> {
    const own = await this.own(workspaceId);
    if (own) return { url: own.masked, source: 'number' };
    return this.config.waProxy ? { url: this.config.waProxy.masked, source: 'default' } : { url: null, source: 'none' };
  }

  /** Checks and stores the number's proxy (replacing any); it applies from the next connection. */
  async set(workspaceId: string, raw: string): Promise<ScanProxyResponse> {
    let proxy: ProxyEndpoint;
    try {
      proxy = parseProxyUrl(raw);
    } catch (error) {
      if (error instanceof ProxyUrlError) throw ApiError.badRequest(error.message);
      throw error;
    }
    await this.repository.save(workspaceId, this.encryption.encrypt(proxy.href, SCAN_PROXY_PURPOSE));
    return { url: proxy.masked, source: 'number' };
  }

  /** Removes the number's own proxy (WA_PROXY_URL applies again, if set); 404 when it had none. */
  async clear(workspaceId: string): Promise<void> {
    if (!(await this.repository.delete(workspaceId))) throw ApiError.notFound(PROXY_NOT_FOUND);
  }

  async proxyFor(workspaceId: string): Promise<ProxyEndpoint | null> {
    return (await this.own(workspaceId)) ?? this.config.waProxy ?? null;
  }

  private async own(workspaceId: string): Promise<ProxyEndpoint | null> {
    const sealed = await this.repository.find(workspaceId);
    // Stored only after the same check: parsing again gives the endpoint back as it was saved.
    return sealed === null ? null : parseProxyUrl(this.encryption.decryptString(sealed, SCAN_PROXY_PURPOSE));
  }
}
