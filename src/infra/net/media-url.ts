import { AddressRefusedError, checkHostName } from './guarded-lookup.js';

export const MEDIA_URL_PRIVATE = 'media url points to a private or local address';
export const MEDIA_URL_NOT_HTTP = 'media url must be an http or https address';

/**
 * What a send's `media.url` can be refused for without DNS or a connection, so the refusal is a
 * 400 before any lookup: not an http(s) address, or an IP literal in a refused range (any
 * spelling) or `localhost` unless `allowPrivate`. A name that resolves to such an address is
 * refused when the channel fetches it. Null when nothing is wrong yet.
 */
export function mediaUrlRefusal(raw: string, allowPrivate: boolean): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return MEDIA_URL_NOT_HTTP;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return MEDIA_URL_NOT_HTTP;
  if (allowPrivate) return null;
  try {
    checkHostName(url.hostname);
    return null;
  } catch (error) {
    if (error instanceof AddressRefusedError) return MEDIA_URL_PRIVATE;
    throw error;
  }
}
