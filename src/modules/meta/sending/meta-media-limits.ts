import { readWebp } from '../../../infra/media/media-formats.js';
import type { OutgoingMedia } from '../../channels/channel-gateway.port.js';
import { type MediaKind, mediaRuleOf } from '../../inbox/message-kinds.js';

const KB = 1024;
const MB = 1024 * KB;

interface CloudMediaLimit {
  /** Largest file the provider takes. */
  bytes: number;
  /** How a refusal names the limit. */
  shown: string;
  /** The mime types (without parameters) it takes, or null for any. */
  types: readonly string[] | null;
}

/**
 * What the Cloud API takes per kind (its "supported media types"): images JPEG or PNG up to
 * 5 MB, audio (AAC, AMR, MP3, MP4 audio, OGG/Opus) and video (MP4, 3GPP) up to 16 MB, stickers
 * WebP up to 100 KB (500 KB animated), documents of any type up to 100 MB. Stricter than the
 * inbox's own rules for some kinds (the scan channel sends a 16 MB image), so the meta channel
 * refuses the rest before anything is stored rather than leaving it to fail at the provider.
 * The send routes' OpenAPI states them (`CLOUD_FILE_RULES`, inbox/dto/message-request.schema.ts;
 * test/meta/send-limits.spec.ts keeps the two equal).
 */
export const CLOUD_MEDIA_LIMITS: Readonly<Record<MediaKind, CloudMediaLimit>> = {
  image: { bytes: 5 * MB, shown: '5 MB', types: ['image/jpeg', 'image/png'] },
  video: { bytes: 16 * MB, shown: '16 MB', types: ['video/mp4', 'video/3gpp', 'video/3gp'] },
  audio: { bytes: 16 * MB, shown: '16 MB', types: ['audio/aac', 'audio/amr', 'audio/mpeg', 'audio/mp4', 'audio/ogg'] },
  voice: { bytes: 16 * MB, shown: '16 MB', types: ['audio/ogg'] },
  sticker: { bytes: 100 * KB, shown: '100 KB (500 KB when animated)', types: ['image/webp'] },
  document: { bytes: 100 * MB, shown: '100 MB', types: null },
};
const ANIMATED_STICKER_BYTES = 500 * KB;

const baseType = (mimeType: string): string => mimeType.split(';')[0]!.trim().toLowerCase();

/**
 * Why the Cloud API would refuse this file for `kind`, or null. Checks what the send tells: the
 * mime type when one is given, the size when the bytes are (a `url` is fetched by the provider,
 * which then answers for it).
 */
export function cloudMediaRefusal(kind: MediaKind, media: OutgoingMedia): string | null {
  const limit = CLOUD_MEDIA_LIMITS[kind];
  const noun = mediaRuleOf(kind).noun;
  const type = baseType(media.mimeType);
  if (type && limit.types && !limit.types.includes(type)) {
    return `the Cloud API sends ${noun} only as ${limit.types.filter((t) => t !== 'video/3gp').join(', ')} (got ${type})`;
  }
  const size = media.data?.length;
  if (size === undefined) return null;
  const max = kind === 'sticker' && readWebp(media.data!)?.animated ? ANIMATED_STICKER_BYTES : limit.bytes;
  return size > max ? `${noun} for the Cloud API must be at most ${limit.shown}` : null;
}
