import { Injectable } from '@nestjs/common';
import { EncryptionService } from '../../../infra/crypto/encryption.service.js';
import { ApiError } from '../../../infra/http/api-error.js';

/** What stands for a credential in every URL the service shows. */
export const MASK = '***';
export const WEBHOOK_URL_PURPOSE = 'webhook-url';
export const URL_MASKED = `url has ${MASK} in place of a credential: give the real one (${MASK} keeps the stored one only in the URL exactly as stored, nothing else changed)`;

/** A webhook URL as stored: `url` safe to show, `sealedUrl` the whole URL when it carries credentials. */
export interface StoredWebhookUrl {
  url: string;
  sealedUrl: string | null;
}

const carriesCredentials = (url: URL): boolean => url.username !== '' || url.password !== '';

/**
 * The URL as anyone may see it: a password replaced by `***` (`https://user:***@host/x`), and a
 * user name without a password (usually a token, `https://<token>@host/x`) replaced by `***` too.
 */
export function maskUrl(href: string): string {
  const url = URL.parse(href);
  if (!url || !carriesCredentials(url)) return href;
  if (url.password) url.password = MASK;
  else url.username = MASK;
  return url.href;
}

/** Which part of `url` is the mask (nothing when it carries a real credential or none). */
function maskedPart(url: URL): 'password' | 'username' | null {
  if (url.password === MASK) return 'password';
  return url.password === '' && url.username === MASK ? 'username' : null;
}

/**
 * Credentials in webhook URLs: sealed at rest (AES-GCM, purpose `webhook-url`), shown masked,
 * and a masked URL sent back (the Console's edit form saves what it was shown) resolved to the
 * stored credential, but only when it is the stored URL itself, nothing but the credential
 * masked. Any other change, even of the path or query alone, needs the real credential: on a
 * shared ingest host (webhook.site, Zapier, a gateway) the path picks whose endpoint it is, so
 * `***` with a new path would send the stored password to whoever chose that path. A real
 * credential of `***` is spelled `%2A%2A%2A` (the same bytes on the wire).
 */
@Injectable()
export class WebhookUrlCredentials {
  // Unsealing is memoised per sealed value (a new URL is a new sealed value: never stale).
  private readonly unsealed = new Map<string, string>();

  constructor(private readonly encryption: EncryptionService) {}

  /**
   * What to store for a checked URL (`href`): `stored` is the webhook's current URL on a PATCH,
   * null on a create. Throws 400 URL_MASKED for a mask it cannot resolve.
   */
  toStore(href: string, stored: StoredWebhookUrl | null): StoredWebhookUrl {
    const url = new URL(href);
    const masked = maskedPart(url);
    if (masked) {
      const previous = stored ? URL.parse(this.deliveryUrl(stored)) : null;
      // The mask stands for the credential it replaced, so the URL must be the stored one with it back.
      if (!previous || (masked === 'password' ? !previous.password : previous.password !== '' || !previous.username)) throw ApiError.badRequest(URL_MASKED);
      url[masked] = previous[masked];
      if (url.href !== previous.href) throw ApiError.badRequest(URL_MASKED);
    }
    if (!carriesCredentials(url)) return { url: url.href, sealedUrl: null };
    return { url: maskUrl(url.href), sealedUrl: this.encryption.encrypt(url.href, WEBHOOK_URL_PURPOSE) };
  }

  /** The URL deliveries go to: the sealed one when there is one. */
  deliveryUrl(stored: StoredWebhookUrl): string {
    const { sealedUrl } = stored;
    if (!sealedUrl) return stored.url;
    let href = this.unsealed.get(sealedUrl);
    if (href === undefined) {
      href = this.encryption.decryptString(sealedUrl, WEBHOOK_URL_PURPOSE);
      if (this.unsealed.size >= 10_000) this.unsealed.clear();
      this.unsealed.set(sealedUrl, href);
    }
    return href;
  }
}
