import { describe, expect, it } from '@jest/globals';
import { normalizePhone } from '../../src/modules/inbox/jid.js';

// Phone numbers are stored as E.164 digits (country code first, no `+`): one person, one number,
// however it was typed, and a number in national form (no country code) is refused rather than
// stored as another chat.
describe('phone numbers', () => {
  it.each([
    ['+49 (151) 234-567', '49151234567'],
    ['4915112345678', '4915112345678'],
    ['+1 555 0100', '15550100'],
    // The international call prefix instead of "+".
    ['0015552000007', '15552000007'],
    ['0049 151 1234567', '491511234567'],
    // The national trunk zero written after the country code.
    ['+49 (0) 151 1234567', '491511234567'],
    ['0049 (0)151 1234567', '491511234567'],
  ])('stores %j as %j', (typed, stored) => {
    expect(normalizePhone(typed)).toBe(stored);
  });

  it.each(['015553330001', '0151 1234567', '(0)151 1234567', '+0049151234567', '00', '+', '12345', '1234567890123456', '49151abc', ''])(
    'refuses %j',
    (typed) => {
      expect(normalizePhone(typed)).toBeNull();
    },
  );
});
