import { AddressRefusedError } from '../../../infra/net/guarded-lookup.js';
import { MEDIA_URL_NOT_HTTP, MEDIA_URL_PRIVATE } from '../../../infra/net/media-url.js';
import { BodyTooLargeError, guardedRequest, type GuardedResponse } from '../../../infra/net/guarded-http.js';
import { ChannelInputError, ChannelUpstreamError } from '../../channels/channel-gateway.port.js';

const TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

export interface FetchedMedia {
  data: Buffer;
  contentType: string;
}

/** One hop, with the address policy of `src/infra/net` (checked on the address connected to). */
async function fetchHop(url: URL, limit: number, allowPrivate: boolean, deadline: number): Promise<GuardedResponse> {
  try {
    return await guardedRequest({ url, method: 'GET', timeoutMs: Math.max(1, deadline - Date.now()), allowPrivate, maxBodyBytes: limit });
  } catch (error) {
    if (error instanceof AddressRefusedError) throw new ChannelInputError(MEDIA_URL_PRIVATE);
    if ((error as NodeJS.ErrnoException).code === 'ENOTFOUND') throw new ChannelInputError(`media url host ${url.hostname} could not be resolved`);
    if (error instanceof BodyTooLargeError) throw new ChannelInputError(`media is larger than ${limit} bytes`);
    throw new ChannelUpstreamError('media url could not be fetched');
  }
}

/**
 * Downloads a `media.url` for sending: http(s) only, public addresses only (unless
 * `allowPrivate`), each redirect checked again, at most `limit` bytes, within 20 s. What the
 * service refuses is a `ChannelInputError` (400), a host that fails a `ChannelUpstreamError`
 * (502), so the client reads why the send failed and whether a retry can help.
 */
export async function fetchMedia(raw: string, limit: number, allowPrivate: boolean): Promise<FetchedMedia> {
  let url = new URL(raw);
  const deadline = Date.now() + TIMEOUT_MS;
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ChannelInputError(MEDIA_URL_NOT_HTTP);
    const response = await fetchHop(url, limit, allowPrivate, deadline);
    const location = response.headers.location;
    if (response.status >= 300 && response.status < 400 && location) {
      if (hop >= MAX_REDIRECTS) throw new ChannelUpstreamError('media url redirects too often');
      url = new URL(location, url);
      continue;
    }
    if (response.status < 200 || response.status >= 300) throw new ChannelUpstreamError(`media url answered HTTP ${response.status}`);
    if (response.body.length === 0) throw new ChannelUpstreamError('media url answered an empty body');
    return { data: response.body, contentType: (response.headers['content-type'] ?? '').split(';')[0]!.trim() };
  }
}
