/**
 * CTEs `found`, `filled`, `inserted` and `contact` (one id, or none) for the chat's contact, shared
 * by both ingest statements. Parameters: $1 workspace, $6 phone, $7 lid, $8 name, $9 whether a
 * contact is expected (false for groups), and `bsuid` (the placeholder of the Cloud API's
 * business-scoped user id, which each statement binds last).
 *
 * The contact is matched by phone, LID or BSUID (phone wins when they point at different
 * contacts, then the LID) and gets whichever id it lacked, unless another contact already holds
 * it (the service merges phone/LID split contacts before the statement runs). A new contact is
 * inserted with ON CONFLICT DO NOTHING: when a concurrent transaction inserts the same person
 * first, this statement sees no contact and the caller links it afterwards. An existing contact is written only when something
 * is filled in.
 *
 * `mayWrite` is an SQL condition that must hold for `filled` and `inserted` to write at all. All
 * CTEs of a statement run, whatever the others find, so the ingest statement passes "this
 * message is not stored yet": a repeated message must not fill in or re-create its contact even
 * though its own insert ends in a conflict.
 */
export const contactCtes = (bsuid: string, mayWrite = 'true'): string => `
found AS (
  SELECT id FROM contacts
   WHERE workspace_id = $1 AND $9::boolean AND (phone = $6::text OR lid = $7::text OR bsuid = ${bsuid}::text)
   ORDER BY (phone IS NOT DISTINCT FROM $6::text) DESC, (lid IS NOT DISTINCT FROM $7::text) DESC
   LIMIT 1
), filled AS (
  UPDATE contacts c SET
    phone = CASE WHEN c.phone IS NULL AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.phone = $6::text)
                 THEN $6::text ELSE c.phone END,
    lid = CASE WHEN c.lid IS NULL AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.lid = $7::text)
               THEN $7::text ELSE c.lid END,
    bsuid = CASE WHEN c.bsuid IS NULL AND NOT EXISTS (SELECT 1 FROM contacts o WHERE o.workspace_id = $1 AND o.bsuid = ${bsuid}::text)
                 THEN ${bsuid}::text ELSE c.bsuid END,
    name = CASE WHEN c.name = '' THEN $8::text ELSE c.name END,
    updated_at = now()
  WHERE c.id = (SELECT id FROM found) AND ${mayWrite}
    AND ((c.phone IS NULL AND $6::text IS NOT NULL) OR (c.lid IS NULL AND $7::text IS NOT NULL)
         OR (c.bsuid IS NULL AND ${bsuid}::text IS NOT NULL) OR (c.name = '' AND $8::text <> ''))
  RETURNING c.id
), inserted AS (
  INSERT INTO contacts (workspace_id, phone, lid, bsuid, name)
  SELECT $1, $6::text, $7::text, ${bsuid}::text, $8::text WHERE $9::boolean AND NOT EXISTS (SELECT 1 FROM found) AND ${mayWrite}
  ON CONFLICT DO NOTHING
  RETURNING id
), contact AS (
  SELECT id FROM found UNION ALL SELECT id FROM inserted LIMIT 1
)`;

/**
 * A row when the phone ($6) and the LID ($7) name two different contacts that could be one
 * person: the phone's contact has no LID and the LID's contact has no phone (ContactMergeService
 * merges them). Contacts whose other id disagrees are not a split but two people, or stale data:
 * those are left alone and the phone wins, as in `found`.
 */
export const SPLIT_CONTACT_SQL = `
SELECT 1 FROM contacts p JOIN contacts l ON l.workspace_id = p.workspace_id
 WHERE p.workspace_id = $1 AND p.phone = $6::text AND p.lid IS NULL AND l.lid = $7::text AND l.phone IS NULL`;
