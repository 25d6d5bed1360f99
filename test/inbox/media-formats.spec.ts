import { describe, expect, it } from '@jest/globals';
import { MAX_DURATION_S, readMp4DurationS, readOggOpus, readWebp, WAVEFORM_SAMPLES } from '../../src/infra/media/media-formats.js';
import { MP3, mp4, mp4Claiming, oggOpus, oggOpusClaiming, oggVorbis, PNG, webp } from '../support/media-fixtures.js';

/**
 * What the inbox reads from a file before sending it (src/infra/media/media-formats.ts): whether
 * a voice note is Ogg/Opus and how long it plays, whether a sticker is WebP, a video's length.
 */
describe('media formats', () => {
  it('reads an Ogg/Opus recording: its playing time and a waveform, louder in the middle', () => {
    const info = readOggOpus(oggOpus(7));
    expect(info?.durationS).toBe(7);
    expect(info?.waveform).toHaveLength(WAVEFORM_SAMPLES);
    const levels = [...info!.waveform];
    expect(Math.max(...levels)).toBe(100);
    expect(levels[32]!).toBeGreaterThan(levels[1]!);
  });

  it('refuses what is not Ogg/Opus, and a truncated file answers less rather than throwing', () => {
    expect(readOggOpus(oggVorbis())).toBeNull();
    expect(readOggOpus(MP3)).toBeNull();
    expect(readOggOpus(Buffer.from('OggS'))).toBeNull();
    const cut = oggOpus(3);
    expect(readOggOpus(cut.subarray(0, cut.length - 500))?.durationS).toBe(2);
  });

  it('tells WebP from other images, and an animated one from a still', () => {
    expect(readWebp(webp())).toEqual({ animated: false });
    expect(readWebp(webp(true))).toEqual({ animated: true });
    expect(readWebp(PNG)).toBeNull();
  });

  it("reads an MP4's playing time from its movie header", () => {
    expect(readMp4DurationS(mp4(12))).toBe(12);
    expect(readMp4DurationS(PNG)).toBe(0);
    expect(readMp4DurationS(Buffer.alloc(0))).toBe(0);
  });

  it('caps an absurd claimed playing time at what the duration_s column holds', () => {
    expect(MAX_DURATION_S).toBe(2_147_483_647);
    expect(readMp4DurationS(mp4Claiming(0xffffffffn, 1))).toBe(MAX_DURATION_S);
    expect(readMp4DurationS(mp4Claiming(2n ** 63n, 1, 1))).toBe(MAX_DURATION_S);
    expect(readMp4DurationS(mp4Claiming(90_000n * 30n, 90_000, 1))).toBe(30);
    expect(readOggOpus(oggOpusClaiming(2n ** 62n))?.durationS).toBe(MAX_DURATION_S);
    expect(readOggOpus(oggOpusClaiming(48_000n * 3n + 312n))?.durationS).toBe(3);
  });
});
