import { describe, expect, it } from '@jest/globals';
import { parseRetryAfter } from '../../src/modules/webhooks/delivery/retry-policy.js';

describe('Retry-After of a 429 or 503', () => {
  const now = Date.parse('2026-11-28T12:00:00Z');

  it('reads seconds and HTTP dates', () => {
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 28 Nov 2026 12:01:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Sat, 28 Nov 2026 11:00:00 GMT', now)).toBe(0); // a date past: now
  });

  it('ignores what is neither (the retry schedule applies): negative or fractional seconds, words, nothing', () => {
    for (const value of ['-5', '-0', '1.5', '5s', 'soon', '', '   ', undefined]) {
      expect([value, parseRetryAfter(value, now)]).toEqual([value, null]);
    }
  });
});
