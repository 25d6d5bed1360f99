// Where a step's latency goes on the service's side, from what the service recorded itself: the
// message row's created_at (Postgres' now(): the start of the ingest transaction that stored it)
// and its scan.chat delivery's first attempt (webhook_attempts.created_at: when the worker began
// the POST), set beside the simulator's send and the receiver's 2xx (both on this machine's clock).
import type pg from 'pg';
import { percentile } from '../percentile.js';
import type { Ledger } from './ledger.js';
import type { StepResult } from './traffic.js';

export const describeStages = async (db: pg.Pool, ledger: Ledger, step: StepResult): Promise<string> => {
  const entries = new Map(ledger.withIdsOfStep(step.step).filter(([, e]) => e.arrivals > 0));
  const { rows } = await db.query<{ id: string; stored: number; attempt: number }>(
    // The event's body names the message (chat_message_id); the event row itself may not.
    `SELECT m.external_id AS id, extract(epoch FROM m.created_at) * 1000 AS stored, extract(epoch FROM min(a.created_at)) * 1000 AS attempt
       FROM webhook_events e
       JOIN messages m ON m.workspace_id = e.workspace_id AND m.external_id = convert_from(e.body, 'UTF8')::jsonb ->> 'chat_message_id'
       JOIN webhook_deliveries d ON d.event_id = e.id
       JOIN webhook_attempts a ON a.delivery_id = d.id
      WHERE e.event = 'scan.chat' AND convert_from(e.body, 'UTF8')::jsonb ->> 'chat_message_id' = ANY($1)
      GROUP BY m.external_id, m.created_at`,
    [[...entries.keys()]],
  );
  const stages: Record<string, number[]> = { 'send → stored': [], 'stored → POST': [], 'POST → 2xx': [] };
  for (const row of rows) {
    const entry = entries.get(row.id)!;
    stages['send → stored']!.push(Number(row.stored) - entry.sentAt);
    stages['stored → POST']!.push(Number(row.attempt) - Number(row.stored));
    stages['POST → 2xx']!.push(entry.firstAt - Number(row.attempt));
  }
  const parts = Object.entries(stages).map(([name, values]) => {
    values.sort((a, b) => a - b);
    return `${name} p50 ${percentile(values, 50).toFixed(1)} / p99 ${percentile(values, 99).toFixed(1)} ms`;
  });
  return `R=${step.rate}/s, ${rows.length} of ${entries.size} messages: ${parts.join('; ')}`;
};
