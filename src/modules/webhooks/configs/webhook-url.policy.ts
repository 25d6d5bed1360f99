import { Injectable } from '@nestjs/common';
import { AppConfig } from '../../../infra/config/app-config.js';
import { ApiError } from '../../../infra/http/api-error.js';
import { AddressRefusedError, checkHost } from '../../../infra/net/guarded-lookup.js';

export const URL_NOT_HTTPS = 'url must be an https:// URL';
export const URL_NOT_HTTP = 'url must be an http:// or https:// URL';
export const URL_PRIVATE = 'url points to a private or internal address';
export const URL_MALFORMED = 'url is not a valid URL';
// DNS at creation is a courtesy check (delivery checks again, on the address it connects to):
// a slow resolver must not hold the request for long.
const RESOLVE_TIMEOUT_MS = 3000;

/**
 * Which URLs a webhook may have: absolute `https://` (also `http://` with ALLOW_HTTP_WEBHOOKS),
 * on a host that is not, and does not resolve to, a private, loopback, link-local, CGNAT,
 * multicast or otherwise internal address (unless ALLOW_PRIVATE_WEBHOOKS). A name that does not
 * resolve yet is accepted: its deliveries are checked when they connect.
 */
@Injectable()
export class WebhookUrlPolicy {
  constructor(private readonly config: AppConfig) {}

  /** The URL as stored, or a 400 saying what is wrong. */
  async check(raw: string): Promise<string> {
    const { allowHttp, allowPrivate } = this.config.webhooks;
    const invalid = allowHttp ? URL_NOT_HTTP : URL_NOT_HTTPS;
    const trimmed = raw.trim();
    const url = URL.parse(trimmed);
    if (!url || !url.hostname) {
      // An allowed scheme with something wrong after it (a port past 65535, a bad host) is told so;
      // anything else is answered with the scheme rule.
      const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(trimmed)?.[0].toLowerCase();
      throw ApiError.badRequest(scheme === 'https:' || (allowHttp && scheme === 'http:') ? URL_MALFORMED : invalid);
    }
    if (url.protocol !== 'https:' && !(allowHttp && url.protocol === 'http:')) throw ApiError.badRequest(invalid);
    if (!allowPrivate) {
      try {
        await checkHost(url.hostname, RESOLVE_TIMEOUT_MS);
      } catch (error) {
        if (error instanceof AddressRefusedError) throw ApiError.badRequest(URL_PRIVATE);
      }
    }
    return url.href;
  }
}
