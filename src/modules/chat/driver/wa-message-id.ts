import { createHash } from 'node:crypto';

/**
 * WhatsApp's id for the inbox message `messageId` (its uuid): `3EB0` and 36 upper-case hex digits
 * of the uuid's SHA-256, 40 characters, the shape of ids WhatsApp Web clients pick. Derived, not
 * random, so a send repeated after a crash (the queue's row was not marked sent) carries the same
 * id, and the recipient's phone keeps one message instead of two.
 */
export function waMessageId(messageId: string): string {
  return '3EB0' + createHash('sha256').update(messageId).digest('hex').slice(0, 36).toUpperCase();
}
