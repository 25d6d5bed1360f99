/**
 * Every BullMQ queue of the service. The string values are stored in Redis: never rename one,
 * add a new name instead. Job payloads carry ids only; handlers must be idempotent.
 */
export enum QueueName {
  WebhookDelivery = 'webhook-delivery',
  HistorySync = 'history-sync',
  MediaDownload = 'media-download',
  Automations = 'automations',
  Maintenance = 'maintenance',
  MetaCallback = 'meta-callback',
  MetaMedia = 'meta-media',
}
