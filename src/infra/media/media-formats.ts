/**
 * Readers of the few file formats WhatsApp is strict about, from the bytes alone (no ffmpeg, no
 * decoder): a voice note must be Ogg with an Opus stream, a sticker WebP. They also read what the
 * channels send beside the file: a voice note's or an Opus file's playing time and a waveform, an
 * MP4 video's playing time, whether a WebP is animated. Each reader tolerates a truncated or odd
 * file by answering less (0, null), never by throwing.
 */

const OGG_PAGE_HEADER = 27;
// Opus timestamps count 48 kHz samples whatever the input rate was (RFC 7845 §4).
const OPUS_RATE = 48_000;
/** WhatsApp's voice-note waveform: 64 values of 0 to 100. */
export const WAVEFORM_SAMPLES = 64;
/**
 * The longest playing time a reader answers: the `duration_s` column's integer maximum. A crafted
 * header may claim far more (an MP4 of 0xFFFFFFFF seconds, an Ogg granule near 2^63), which would
 * otherwise fail the insert; the file is still the file, only its claimed length is capped.
 */
export const MAX_DURATION_S = 2_147_483_647;

/** Seconds as a whole, storable number: 1 for anything shorter than a second that plays, at most MAX_DURATION_S. */
function wholeSeconds(seconds: number): number {
  if (!(seconds > 0)) return 0;
  return Math.min(MAX_DURATION_S, Math.max(1, Math.round(seconds)));
}

export interface OggOpusInfo {
  /** Playing time in whole seconds (rounded; 1 for anything shorter than a second that plays; at most MAX_DURATION_S). */
  durationS: number;
  /** 64 levels of 0..100 over the recording, from the sizes of its Opus packets (louder speech takes more bytes). */
  waveform: Uint8Array;
}

/**
 * An Ogg file whose first packet is an `OpusHead` (an Ogg/Opus stream), with its playing time:
 * the last page's granule position less the stream's pre-skip, in 48 kHz samples. Null for
 * anything else (not Ogg, Ogg Vorbis, FLAC, …).
 */
export function readOggOpus(data: Buffer): OggOpusInfo | null {
  if (data.length < OGG_PAGE_HEADER || data.toString('latin1', 0, 4) !== 'OggS') return null;
  let offset = 0;
  let lastGranule = -1n;
  let preSkip = -1;
  const packets: number[] = [];
  let pending = 0;
  while (offset + OGG_PAGE_HEADER <= data.length && data.toString('latin1', offset, offset + 4) === 'OggS') {
    const segments = data[offset + 26]!;
    const table = offset + OGG_PAGE_HEADER;
    if (table + segments > data.length) break;
    let body = table + segments;
    const bodyStart = body;
    for (let i = 0; i < segments; i++) {
      const lace = data[table + i]!;
      pending += lace;
      body += lace;
      if (lace < 255) {
        packets.push(pending);
        pending = 0;
      }
    }
    if (body > data.length) break;
    if (preSkip < 0) {
      // The first page carries the identification header alone (RFC 7845 §3).
      if (data.toString('latin1', bodyStart, bodyStart + 8) !== 'OpusHead' || bodyStart + 12 > data.length) return null;
      preSkip = data.readUInt16LE(bodyStart + 10);
    }
    const granule = data.readBigInt64LE(offset + 6);
    // -1: no packet ends on this page.
    if (granule >= 0n) lastGranule = granule;
    offset = body;
  }
  if (preSkip < 0) return null;
  const samples = lastGranule > BigInt(preSkip) ? Number(lastGranule - BigInt(preSkip)) : 0;
  // The first two packets are the headers (OpusHead, OpusTags), not sound.
  return { durationS: wholeSeconds(samples / OPUS_RATE), waveform: waveformOf(packets.slice(2)) };
}

/** Packet sizes folded into 64 levels, the largest 100; all zero when there is nothing to show. */
function waveformOf(sizes: readonly number[]): Uint8Array {
  const levels = new Uint8Array(WAVEFORM_SAMPLES);
  if (sizes.length === 0) return levels;
  const sums = new Array<number>(WAVEFORM_SAMPLES).fill(0);
  const counts = new Array<number>(WAVEFORM_SAMPLES).fill(0);
  sizes.forEach((size, i) => {
    const bucket = Math.min(WAVEFORM_SAMPLES - 1, Math.floor((i * WAVEFORM_SAMPLES) / sizes.length));
    sums[bucket]! += size;
    counts[bucket]! += 1;
  });
  // A recording shorter than 64 packets fills the buckets between with its neighbours' level.
  const means = sums.map((sum, i) => (counts[i] ? sum / counts[i]! : -1));
  for (let i = 0; i < means.length; i++) if (means[i]! < 0) means[i] = i > 0 ? means[i - 1]! : 0;
  const min = Math.min(...means);
  const max = Math.max(...means);
  for (let i = 0; i < WAVEFORM_SAMPLES; i++) levels[i] = max > min ? Math.round(((means[i]! - min) / (max - min)) * 100) : 50;
  return levels;
}

export interface WebpInfo {
  animated: boolean;
}

/** A WebP file (`RIFF....WEBP`): whether it is animated (the VP8X header's animation flag); null for anything else. */
export function readWebp(data: Buffer): WebpInfo | null {
  if (data.length < 16 || data.toString('latin1', 0, 4) !== 'RIFF' || data.toString('latin1', 8, 12) !== 'WEBP') return null;
  const extended = data.toString('latin1', 12, 16) === 'VP8X' && data.length > 20;
  return { animated: extended && (data[20]! & 0x02) !== 0 };
}

/**
 * The playing time of an MP4 / QuickTime file in whole seconds, from its movie header
 * (`moov/mvhd`: duration over timescale, at most MAX_DURATION_S); 0 when the file has none where
 * it should be.
 */
export function readMp4DurationS(data: Buffer): number {
  const moov = findBox(data, 0, data.length, 'moov');
  const mvhd = moov && findBox(data, moov.start, moov.end, 'mvhd');
  if (!mvhd || mvhd.start + 4 > mvhd.end) return 0;
  const version = data[mvhd.start]!;
  // version 0: 4-byte creation and modification times, timescale, 4-byte duration; version 1: 8-byte ones.
  const at = mvhd.start + 4 + (version === 1 ? 16 : 8);
  const durationBytes = version === 1 ? 8 : 4;
  if (at + 4 + durationBytes > mvhd.end) return 0;
  const timescale = data.readUInt32BE(at);
  const duration = version === 1 ? Number(data.readBigUInt64BE(at + 4)) : data.readUInt32BE(at + 4);
  return timescale > 0 ? wholeSeconds(duration / timescale) : 0;
}

/**
 * The playing time of an audio or video file in whole seconds from its bytes alone, whatever the
 * channel called it: an Ogg/Opus stream's, else an MP4 / QuickTime (M4A, 3GPP) movie header's; 0
 * when neither tells (MP3, AMR, a truncated file). For inbound files whose channel gave none.
 */
export function readPlayingTimeS(data: Buffer): number {
  return readOggOpus(data)?.durationS || readMp4DurationS(data);
}

/** The body of the first box of `type` between `from` and `to`. */
function findBox(data: Buffer, from: number, to: number, type: string): { start: number; end: number } | null {
  let offset = from;
  while (offset + 8 <= to) {
    let size = data.readUInt32BE(offset);
    let header = 8;
    if (size === 1) {
      if (offset + 16 > to) return null;
      size = Number(data.readBigUInt64BE(offset + 8));
      header = 16;
    } else if (size === 0) {
      size = to - offset;
    }
    if (size < header) return null;
    if (data.toString('latin1', offset + 4, offset + 8) === type) return { start: offset + header, end: Math.min(to, offset + size) };
    offset += size;
  }
  return null;
}
