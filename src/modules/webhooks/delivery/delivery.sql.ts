/** The delivery worker's statements (DeliveryRepository runs them). */

export const FAILING_TOO_LONG = 'every delivery attempt failed for 3 days';
// The endpoint's streak of failures has lasted 3 days (false while there is none).
const TOO_LONG = `COALESCE(failing_since < now() - interval '3 days', false)`;

// What an attempt needs of a delivery (LOAD's and CLAIM's output).
const TARGET_COLUMNS = `d.id, d.workspace_id AS "workspaceId", d.webhook_id AS "webhookId", d.status, d.attempts, e.event, e.body, w.url, w.sealed_url AS "sealedUrl", w.enabled, w.failing_since IS NOT NULL AS failing,
       s.secret, CASE WHEN s.previous_expires_at > now() THEN s.previous_secret END AS "previousSecret"`;

// Many deliveries at once (concurrent jobs share the round trip); each checked against its
// workspace. The batched statements are planned per run (unnamed, not prepared): a generic plan
// made while the tables were small would scan them whole forever after, and planning once per
// batch costs little per delivery.
export const LOAD = `
SELECT ${TARGET_COLUMNS}
  FROM webhook_deliveries d
  JOIN unnest($1::uuid[], $2::uuid[]) AS i(id, workspace_id) ON i.id = d.id AND i.workspace_id = d.workspace_id
  JOIN webhook_events e ON e.id = d.event_id
  JOIN webhooks w ON w.id = d.webhook_id
  LEFT JOIN webhook_secrets s ON s.workspace_id = d.workspace_id
 WHERE d.id = ANY($1::uuid[])`;

/**
 * Drains' claims, many endpoints at once (concurrent drains share the statement): for each
 * ($1 workspaces, $2 webhooks, $3 limits), up to its limit of due deliveries of that endpoint,
 * oldest first, not claimed by anyone (or whose claim expired: its drain died), skipping any
 * another statement holds this instant. Each is claimed for $4 ms (`claimed_until`): while the
 * claim holds nobody else sends it; recording an attempt ends it. `ord` tells whose claim a row
 * is. 'pending' is a constant here, so the partial index of an endpoint's pending deliveries
 * (webhook_id, next_attempt_at) serves each lookup. Read as arrays (DeliveryRepository's
 * ClaimedRow, in this order): the workspace and webhook are the claim's own, the status is 'pending'.
 */
export const CLAIM = `
WITH k AS (
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::int[]) WITH ORDINALITY AS k(workspace_id, webhook_id, lim, ord)
), picked AS (
  SELECT p.id, k.ord FROM k CROSS JOIN LATERAL (
    SELECT id FROM webhook_deliveries
     WHERE webhook_id = k.webhook_id AND status = 'pending' AND next_attempt_at <= now() AND workspace_id = k.workspace_id
       AND (claimed_until IS NULL OR claimed_until < now())
     ORDER BY next_attempt_at LIMIT k.lim
     FOR UPDATE SKIP LOCKED) AS p
), c AS (
  UPDATE webhook_deliveries d SET claimed_until = now() + make_interval(secs => $4::float8 / 1000)
    FROM picked WHERE d.id = picked.id
  RETURNING d.*, picked.ord
)
SELECT d.ord::int, d.id, d.attempts, e.event, e.body, w.url, w.sealed_url, w.enabled, w.failing_since IS NOT NULL,
       s.secret, CASE WHEN s.previous_expires_at > now() THEN s.previous_secret END
  FROM c d
  JOIN webhook_events e ON e.id = d.event_id
  JOIN webhooks w ON w.id = d.webhook_id
  LEFT JOIN webhook_secrets s ON s.workspace_id = d.workspace_id
 ORDER BY d.ord, d.next_attempt_at, d.id`;

/** Ends claims without an attempt (deliveries a drain claimed but did not send). */
export const UNCLAIM = `
UPDATE webhook_deliveries SET claimed_until = NULL WHERE id = ANY($2::uuid[]) AND workspace_id = $1 AND status = 'pending'
RETURNING id, webhook_id AS "webhookId", workspace_id AS "workspaceId"`;

/**
 * Successful scheduled attempts of deliveries whose endpoint has no failure streak to end, many
 * at once (a drain's batch, and concurrent drains'): the common case, and the hot one. Returns
 * the ids recorded; anything else goes through RECORD. $1 ids, $2 their workspaces (each checked
 * against its row), $3 response statuses, $4 durations (ms), $5 start times in ms since the
 * epoch, all in the same order; the webhook comes from the delivery row itself.
 *
 * Written so that no plan can go wrong whatever the statistics say (a backlog written a moment
 * ago has none yet): the deliveries are found by primary key alone, and each row finds its own
 * values by its position in $1 (no join: with an estimate of one row the planner joined the
 * batch to the whole pending index). array_position is a linear scan, so a batch of n costs
 * about n² comparisons all the same: measured 1.4 ms per call over 500 ids (a few µs a delivery
 * at the largest batch, RECORD_BATCH), far below that plan. `IS NOT DISTINCT FROM` (status is never
 * null) keeps the planner from reading the partial indexes of pending deliveries, all of them,
 * to check the status of a hundred rows.
 */
export const RECORD_DELIVERED = `
WITH d AS (
  UPDATE webhook_deliveries d SET attempts = d.attempts + 1, status = 'delivered', last_error = NULL, claimed_until = NULL, completed_at = now(), updated_at = now()
   WHERE d.id = ANY($1::uuid[]) AND d.status IS NOT DISTINCT FROM 'pending'
     AND d.workspace_id = ($2::uuid[])[array_position($1::uuid[], d.id)]
  RETURNING d.id, d.workspace_id, d.webhook_id, d.attempts, array_position($1::uuid[], d.id) AS n
)
INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, response_status, duration_ms, created_at)
SELECT d.workspace_id, d.webhook_id, d.id, d.attempts, 'delivered', ($3::int[])[d.n], ($4::int[])[d.n], to_timestamp(($5::float8[])[d.n] / 1000) FROM d
RETURNING delivery_id`;

/**
 * One attempt in one statement: the delivery moves on (attempt count, status, next time, last
 * error), the attempt joins the log, and the endpoint's failure streak moves: a success ends
 * it; a failure starts it, and disables the endpoint when it has lasted 3 days (or on 410 Gone).
 * Nothing is written when the delivery is no longer in an expected state. Returns the attempt
 * and whether this attempt disabled the endpoint.
 */
export const RECORD = `
WITH d AS (
  UPDATE webhook_deliveries SET attempts = attempts + 1, status = COALESCE($9, status), next_attempt_at = COALESCE($10, next_attempt_at),
         last_error = $6, claimed_until = NULL, completed_at = CASE WHEN COALESCE($9, status) IN ('delivered', 'failed') THEN now() END, updated_at = now()
   WHERE id = $1 AND workspace_id = $2 AND status = ANY($13::text[])
  RETURNING id, attempts, event_id
), a AS (
  INSERT INTO webhook_attempts (workspace_id, webhook_id, delivery_id, attempt, status, response_status, error, duration_ms, created_at)
  SELECT $2, $3, d.id, d.attempts, $4, $5, $6, $7, $8 FROM d
  RETURNING id, delivery_id, attempt, created_at
), w AS (
  UPDATE webhooks SET
    failing_since = CASE WHEN $11 THEN NULL ELSE COALESCE(failing_since, $8) END,
    enabled = CASE WHEN $11 THEN enabled ELSE NOT ($12::text IS NOT NULL OR ${TOO_LONG}) END,
    disabled_reason = CASE WHEN $11 THEN disabled_reason WHEN $12::text IS NOT NULL THEN $12
                           WHEN ${TOO_LONG} THEN '${FAILING_TOO_LONG}' ELSE disabled_reason END,
    updated_at = now()
   WHERE id = $3 AND workspace_id = $2 AND EXISTS (SELECT 1 FROM d)
     AND CASE WHEN $11 THEN failing_since IS NOT NULL
              ELSE enabled AND (failing_since IS NULL OR $12::text IS NOT NULL OR ${TOO_LONG}) END
  RETURNING enabled
)
SELECT a.id, a.delivery_id AS "deliveryId", e.event, a.attempt, a.created_at AS "createdAt",
       COALESCE((SELECT NOT enabled FROM w WHERE NOT $11), false) AS "disabled"
  FROM a JOIN d ON d.id = a.delivery_id JOIN webhook_events e ON e.id = d.event_id`;

export const ATTEMPT_COLUMNS = `a.id, a.delivery_id AS "deliveryId", e.event, a.status, a.attempt, a.response_status AS "responseStatus",
       a.error, a.duration_ms AS "durationMs", a.created_at AS "createdAt"`;
