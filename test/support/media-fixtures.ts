import { randomBytes } from 'node:crypto';

/**
 * Small files of the formats WhatsApp is strict about, built byte by byte so tests need no
 * encoder: an Ogg/Opus recording (valid pages with their CRCs), an Ogg Vorbis one (the wrong
 * codec), WebP images (still and animated), an MP4 with a movie header, and crafted Ogg and MP4
 * files claiming absurd playing times.
 */

// Ogg's CRC-32: polynomial 0x04c11db7, not reflected, initial value 0 (RFC 3533).
const CRC_TABLE = Array.from({ length: 256 }, (_, i) => {
  let r = i << 24;
  for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
  return r >>> 0;
});
function oggCrc(data: Buffer): number {
  let crc = 0;
  for (const byte of data) crc = ((crc << 8) ^ CRC_TABLE[((crc >>> 24) ^ byte) & 0xff]!) >>> 0;
  return crc;
}

/** One Ogg page holding whole packets. `flags`: 2 begins the stream, 4 ends it. */
function oggPage(packets: Buffer[], granule: bigint, sequence: number, flags: number): Buffer {
  const lacing: number[] = [];
  for (const packet of packets) {
    let left = packet.length;
    while (left >= 255) {
      lacing.push(255);
      left -= 255;
    }
    lacing.push(left);
  }
  const header = Buffer.alloc(27 + lacing.length);
  header.write('OggS', 0, 'latin1');
  header[5] = flags;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5eed, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = lacing.length;
  lacing.forEach((value, i) => (header[27 + i] = value));
  const page = Buffer.concat([header, ...packets]);
  page.writeUInt32LE(oggCrc(page), 22);
  return page;
}

const PRE_SKIP = 312;

/** An Ogg/Opus stream's two header pages (`OpusHead`, `OpusTags`). */
function opusHeaderPages(): Buffer[] {
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // mono
  head.writeUInt16LE(PRE_SKIP, 10);
  head.writeUInt32LE(48_000, 12);
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.from([4, 0, 0, 0]), Buffer.from('test'), Buffer.alloc(4)]);
  return [oggPage([head], 0n, 0, 2), oggPage([tags], 0n, 1, 0)];
}

/** An Ogg/Opus voice recording of `seconds` (20 ms packets, one page a second, louder in the middle). */
export function oggOpus(seconds: number): Buffer {
  const pages = opusHeaderPages();
  const perSecond = 50;
  let samples = 0;
  for (let s = 0; s < seconds; s++) {
    const packets = Array.from({ length: perSecond }, (_, i) => {
      const loud = Math.round(20 + 60 * Math.sin((Math.PI * (s * perSecond + i)) / (seconds * perSecond)));
      return Buffer.concat([Buffer.from([0x48]), randomBytes(loud)]);
    });
    samples += perSecond * 960;
    pages.push(oggPage(packets, BigInt(samples + PRE_SKIP), pages.length, s === seconds - 1 ? 4 : 0));
  }
  return Buffer.concat(pages);
}

/**
 * A crafted Ogg/Opus file: a second of sound whose last page claims `granule` samples (a
 * granule near 2^63 is a playing time of millions of years).
 */
export function oggOpusClaiming(granule: bigint): Buffer {
  const packets = Array.from({ length: 50 }, () => Buffer.concat([Buffer.from([0x48]), randomBytes(40)]));
  return Buffer.concat([...opusHeaderPages(), oggPage(packets, granule, 2, 4)]);
}

/** An Ogg file of the Vorbis codec: Ogg, but no voice note. */
export function oggVorbis(): Buffer {
  const ident = Buffer.concat([Buffer.from([1]), Buffer.from('vorbis', 'latin1'), Buffer.alloc(23)]);
  return Buffer.concat([oggPage([ident], 0n, 0, 2), oggPage([randomBytes(200)], 44_100n, 1, 4)]);
}

/** A WebP image: a lossless still (`VP8L`) or an animation (`VP8X` with its animation flag, then `ANIM`). */
export function webp(animated = false, size = 64): Buffer {
  const chunk = (type: string, body: Buffer): Buffer => {
    const header = Buffer.alloc(8);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(body.length, 4);
    return Buffer.concat([header, body, body.length % 2 ? Buffer.alloc(1) : Buffer.alloc(0)]);
  };
  const chunks = animated
    ? [chunk('VP8X', Buffer.from([0x02, 0, 0, 0, 0x1f, 0, 0, 0x1f, 0, 0])), chunk('ANIM', Buffer.alloc(6)), chunk('ANMF', randomBytes(size))]
    : [chunk('VP8L', Buffer.concat([Buffer.from([0x2f]), randomBytes(size)]))];
  const body = Buffer.concat([Buffer.from('WEBP', 'latin1'), ...chunks]);
  const riff = Buffer.alloc(8);
  riff.write('RIFF', 0, 'latin1');
  riff.writeUInt32LE(body.length, 4);
  return Buffer.concat([riff, body]);
}

function box(type: string, body: Buffer): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt32BE(8 + body.length, 0);
  header.write(type, 4, 'latin1');
  return Buffer.concat([header, body]);
}

/** An MP4 of a movie header: `ftyp`, then `moov` with `mvhd`, then some `mdat`. */
function mp4With(mvhd: Buffer): Buffer {
  return Buffer.concat([box('ftyp', Buffer.from('isom\0\0\x02\0isomiso2mp41', 'latin1')), box('moov', box('mvhd', mvhd)), box('mdat', randomBytes(2000))]);
}

/** An MP4 of `seconds` (a version 0 movie header, timescale 1000). */
export function mp4(seconds: number): Buffer {
  const mvhd = Buffer.alloc(100);
  mvhd.writeUInt32BE(1000, 12); // timescale, after version/flags and two times
  mvhd.writeUInt32BE(seconds * 1000, 16);
  return mp4With(mvhd);
}

/**
 * A crafted MP4 whose movie header claims `duration` units of `timescale`: version 0 (4-byte
 * duration, at most 0xFFFFFFFF) or version 1 (8-byte times and duration).
 */
export function mp4Claiming(duration: bigint, timescale: number, version: 0 | 1 = 0): Buffer {
  const mvhd = Buffer.alloc(version === 1 ? 112 : 100);
  mvhd[0] = version;
  if (version === 1) {
    mvhd.writeUInt32BE(timescale, 20);
    mvhd.writeBigUInt64BE(duration, 24);
  } else {
    mvhd.writeUInt32BE(timescale, 12);
    mvhd.writeUInt32BE(Number(duration), 16);
  }
  return mp4With(mvhd);
}

export const PNG = Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), randomBytes(64)]);
export const MP3 = Buffer.concat([Buffer.from('ID3', 'latin1'), Buffer.from([4, 0, 0, 0, 0, 0, 0]), randomBytes(400)]);
