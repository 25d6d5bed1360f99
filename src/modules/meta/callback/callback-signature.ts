import { createHmac, timingSafeEqual } from 'node:crypto';

const HEADER_FORMAT = /^sha256=([0-9a-fA-F]{64})$/;

/**
 * Whether `header` (`X-Hub-Signature-256: sha256=<hex>`) is the HMAC-SHA256 of exactly these
 * bytes under the app secret. Compared in constant time; a header of any other shape is simply
 * not a valid signature.
 */
export function signatureMatches(body: Buffer, header: string, appSecret: string): boolean {
  const match = HEADER_FORMAT.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', appSecret).update(body).digest();
  return timingSafeEqual(Buffer.from(match[1]!, 'hex'), expected);
}

/** Constant-time equality of two texts (the verify token), whatever their lengths. */
export function sameText(a: string, b: string): boolean {
  const key = 'meta-verify-token';
  return timingSafeEqual(createHmac('sha256', key).update(a).digest(), createHmac('sha256', key).update(b).digest());
}
