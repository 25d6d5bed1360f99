import type { ProxyEndpoint } from '../../../infra/net/proxy-url.js';

/** Injection token of the proxy source the Baileys driver asks (ScanProxyService in ChatModule). */
export const SCAN_PROXY_SOURCE = Symbol('SCAN_PROXY_SOURCE');

/**
 * Which egress proxy a number's socket and media transfers use: its own (`PUT /api/chat/proxy`),
 * else the default for all numbers (`WA_PROXY_URL`), else none (null: direct). Asked at every
 * connection and every media download, so a change applies from the next of each.
 */
export interface ScanProxySource {
  proxyFor(workspaceId: string): Promise<ProxyEndpoint | null>;
}
