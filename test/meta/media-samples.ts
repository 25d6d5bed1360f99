/**
 * Small files of the formats the sends check on their bytes, built here rather than stored: an
 * Ogg/Opus recording (two pages: the OpusHead header, then one of "sound" whose granule position
 * gives the playing time), WebP stickers (static or animated by the VP8X flag), and any file of a
 * given size for the limits.
 */

const OPUS_RATE = 48_000;

function oggPage(granule: bigint, sequence: number, body: Buffer, headerType = 0): Buffer {
  const laces: number[] = [];
  let left = body.length;
  while (left >= 255) {
    laces.push(255);
    left -= 255;
  }
  laces.push(left);
  const header = Buffer.alloc(27);
  header.write('OggS', 0, 'latin1');
  header[5] = headerType;
  header.writeBigInt64LE(granule, 6);
  header.writeUInt32LE(0x5eed, 14);
  header.writeUInt32LE(sequence, 18);
  header[26] = laces.length;
  return Buffer.concat([header, Buffer.from(laces), body]);
}

/** An Ogg/Opus file that plays `seconds` (its CRCs are not computed: no reader here checks them). */
export function oggOpus(seconds: number): Buffer {
  const preSkip = 312;
  const head = Buffer.alloc(19);
  head.write('OpusHead', 0, 'latin1');
  head[8] = 1; // version
  head[9] = 1; // mono
  head.writeUInt16LE(preSkip, 10);
  head.writeUInt32LE(OPUS_RATE, 12);
  const tags = Buffer.concat([Buffer.from('OpusTags', 'latin1'), Buffer.alloc(8)]);
  return Buffer.concat([oggPage(0n, 0, head, 2), oggPage(0n, 1, tags), oggPage(BigInt(seconds * OPUS_RATE + preSkip), 2, Buffer.alloc(120, 7), 4)]);
}

/** A WebP of `size` bytes (at least 30), animated or not by its VP8X header's flag. */
export function webp(size: number, animated = false): Buffer {
  const data = Buffer.alloc(Math.max(30, size));
  data.write('RIFF', 0, 'latin1');
  data.writeUInt32LE(data.length - 8, 4);
  data.write('WEBP', 8, 'latin1');
  data.write('VP8X', 12, 'latin1');
  data.writeUInt32LE(10, 16);
  data[20] = animated ? 0x02 : 0;
  return data;
}

/** `size` bytes starting with a PNG signature. */
export function png(size: number): Buffer {
  const data = Buffer.alloc(size, 1);
  Buffer.from('89504e470d0a1a0a', 'hex').copy(data);
  return data;
}

export const base64 = (data: Buffer): string => data.toString('base64');
