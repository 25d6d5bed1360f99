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
  /** One job per number with sends waiting: the pump of its outbound lane (docs/sending.md). */
  OutboundLane = 'outbound-lane',
}
