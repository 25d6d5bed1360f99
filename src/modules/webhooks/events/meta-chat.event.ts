import type { OutboxEvent } from '../outbox/webhook-outbox.service.js';

/**
 * A `meta.chat` event: the workspace's part of a Cloud API callback, exactly the bytes to POST
 * (the whole callback's when it is all the workspace's, docs/webhooks.md#metachat), keyed by the
 * callback (`sourceKey`): a callback the provider sends again is not forwarded again.
 */
export const metaChatEvent = (body: Buffer, sourceKey: string): OutboxEvent => ({ event: 'meta.chat', body, sourceKey });
