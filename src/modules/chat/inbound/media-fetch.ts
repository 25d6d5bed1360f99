import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { ChannelError } from '../../channels/channel-gateway.port.js';

/** Largest media we fetch from a `media.url` to send: WhatsApp's own limit for images, a modest one for documents (held in memory). */
export const MEDIA_FETCH_LIMITS = { image: 16 * 1024 * 1024, document: 64 * 1024 * 1024 } as const;
const TIMEOUT_MS = 20_000;
const MAX_REDIRECTS = 3;

// Addresses a send must never make the service fetch from (its own network, cloud metadata).
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['224.0.0.0', 4], ['240.0.0.0', 4],
] as const) PRIVATE.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [['::', 128], ['::1', 128], ['fc00::', 7], ['fe80::', 10], ['ff00::', 8], ['::ffff:0:0', 96]] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

async function refusePrivate(url: URL): Promise<void> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true }).catch(() => []);
  if (addresses.length === 0) throw new ChannelError(`media url host ${host} could not be resolved`);
  for (const { address, family } of addresses) {
    if (PRIVATE.check(address, family === 6 ? 'ipv6' : 'ipv4')) throw new ChannelError('media url points to a private or local address');
  }
}

export interface FetchedMedia {
  data: Buffer;
  contentType: string;
}

/**
 * Downloads a `media.url` for sending: http(s) only, public addresses only (unless
 * `allowPrivate`), redirects re-checked, at most `limit` bytes, within 20 s. Failures are
 * `ChannelError`s, so the client reads why the send failed.
 */
export async function fetchMedia(raw: string, limit: number, allowPrivate: boolean): Promise<FetchedMedia> {
  let url = new URL(raw);
  const signal = AbortSignal.timeout(TIMEOUT_MS);
  for (let hop = 0; ; hop++) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ChannelError('media url must be an http or https address');
    if (!allowPrivate) await refusePrivate(url);
    let response: Response;
    try {
      response = await fetch(url, { redirect: 'manual', signal });
    } catch {
      throw new ChannelError('media url could not be fetched');
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location) {
      await response.body?.cancel();
      if (hop >= MAX_REDIRECTS) throw new ChannelError('media url redirects too often');
      url = new URL(location, url);
      continue;
    }
    if (!response.ok || !response.body) {
      await response.body?.cancel();
      throw new ChannelError(`media url answered HTTP ${response.status}`);
    }
    if (Number(response.headers.get('content-length') ?? 0) > limit) {
      await response.body.cancel();
      throw new ChannelError(`media is larger than ${limit} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body) {
        size += chunk.length;
        if (size > limit) throw new ChannelError(`media is larger than ${limit} bytes`);
        chunks.push(Buffer.from(chunk));
      }
    } catch (error) {
      if (error instanceof ChannelError) throw error;
      throw new ChannelError('media url could not be fetched');
    }
    if (size === 0) throw new ChannelError('media url answered an empty body');
    return { data: Buffer.concat(chunks), contentType: (response.headers.get('content-type') ?? '').split(';')[0]!.trim() };
  }
}
