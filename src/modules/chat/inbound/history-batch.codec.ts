import { isMessageKind } from '../../inbox/message-kinds.js';
import type { ScanHistoryBatch, ScanMessage } from '../driver/scan-driver.port.js';

/** Purpose of the key that seals history batches at rest. */
export const HISTORY_PURPOSE = 'scan-history-batch';

/** JSON of a batch (timestamps as ISO strings), for the time between its arrival and its job. */
export const encodeHistoryBatch = (batch: ScanHistoryBatch): string => JSON.stringify(batch);

export function decodeHistoryBatch(json: string): ScanHistoryBatch {
  const parsed = JSON.parse(json) as Omit<ScanHistoryBatch, 'messages'> & { messages: (Omit<ScanMessage, 'timestamp'> & { timestamp: string })[] };
  // A batch sealed by an older release may hold messages of its `other` type: skipped then, skipped still.
  const messages = parsed.messages.filter((m) => isMessageKind(m.type));
  return { ...parsed, messages: messages.map((m) => ({ ...m, timestamp: new Date(m.timestamp) })) };
}
