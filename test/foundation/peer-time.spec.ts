import { describe, expect, it } from '@jest/globals';
import { peerTime } from '../../src/infra/time/peer-time.js';

/** A message's time from a peer's clock value (Unix seconds): odd values fall back, never throw. */
describe('peerTime', () => {
  const arrived = new Date('2026-11-27T12:00:00Z');

  it('reads Unix seconds given as a number or as text', () => {
    expect(peerTime(1767225600, arrived)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(peerTime('1767225600', arrived)).toEqual(new Date('2026-01-01T00:00:00Z'));
    expect(peerTime(253402300799, arrived)).toEqual(new Date('9999-12-31T23:59:59Z'));
  });

  it('takes the time the message arrived for a missing, odd or unstorable value', () => {
    for (const odd of [undefined, null, '', ' ', 'abc', 0, -5, '-5', Number.NaN, Infinity, '99999999999999999', 253402300800, 1e300, {}, [1]]) {
      expect(peerTime(odd, arrived)).toBe(arrived);
    }
  });
});
