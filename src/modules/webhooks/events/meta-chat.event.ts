import type { OutboxEvent } from '../outbox/webhook-outbox.service.js';

/**
 * A `meta.chat` event: the workspace's part of a Cloud API callback, exactly the bytes to POST
 * (the whole callback's when it is all the workspace's, docs/webhooks.md#metachat), keyed by the
 * callback (`sourceKey`): a callback the provider sends again is not forwarded again. Its channel
 * is meta (the webhooks' `channels` filter); it has no group notion (`include_groups` never drops it).
 */
export const metaChatEvent = (body: Buffer, sourceKey: string): OutboxEvent => ({ event: 'meta.chat', body, sourceKey, channel: 'meta' });
