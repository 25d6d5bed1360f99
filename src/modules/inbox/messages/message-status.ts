import type { MessageStatus } from '../entities/message.entity.js';

/**
 * The one rule for message status: it only moves forward, pending → sent → delivered → read, and
 * `failed` is reachable only before delivery. For each target, the statuses it may come from.
 * Repositories turn this into a `status = ANY(...)` guard, so the check and the write are one
 * atomic statement even when channel receipts race each other.
 */
export const ALLOWED_FROM: Readonly<Record<MessageStatus, readonly MessageStatus[]>> = {
  pending: [],
  sent: ['pending'],
  delivered: ['pending', 'sent'],
  read: ['pending', 'sent', 'delivered'],
  failed: ['pending', 'sent'],
};

export const canMoveTo = (from: MessageStatus, to: MessageStatus): boolean => ALLOWED_FROM[to].includes(from);
