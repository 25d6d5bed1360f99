import type { OutgoingMessage, OutgoingTemplate } from '../../channels/channel-gateway.port.js';

/** What a queued row sends: a message of any kind, or a provider template (the Cloud API's). */
export type QueuedSend = { kind: 'message'; outgoing: OutgoingMessage } | { kind: 'template'; template: OutgoingTemplate };

const BYTES = '$bytes';

/**
 * JSON for `outbound_queue.payload`: Buffers (a file's bytes) as `{"$bytes": "<base64>"}`, so the
 * row alone can be sent by any worker after a restart.
 */
export function encodeQueuedSend(send: QueuedSend): unknown {
  return JSON.parse(
    JSON.stringify(send, function (this: Record<string, unknown>, key: string, value: unknown) {
      const raw = this[key];
      return Buffer.isBuffer(raw) ? { [BYTES]: raw.toString('base64') } : value;
    }),
  );
}

export function decodeQueuedSend(payload: unknown): QueuedSend {
  return JSON.parse(JSON.stringify(payload), (_key, value: unknown) => {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const bytes = (value as Record<string, unknown>)[BYTES];
      if (typeof bytes === 'string' && Object.keys(value).length === 1) return Buffer.from(bytes, 'base64');
    }
    return value;
  }) as QueuedSend;
}
