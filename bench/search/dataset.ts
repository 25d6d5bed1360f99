import type { DataSource } from 'typeorm';

/**
 * The search benchmark's workspace, written by Postgres itself (generate_series, no round trip
 * per row): C contacts, one conversation each (every fourth assigned to a member, so an agent's
 * view differs), and N messages over them, two seconds apart, oldest first, as ingest stores them.
 * A message's text draws on three vocabularies of known frequency, so the queries' selectivity
 * is known beforehand:
 * - three of 20 common words (each in about 15 % of messages: `hello`, `delivery`, …);
 * - two of 200 medium words (each about 1 %: `warehouse`, …);
 * - one of 1,000 product codes (`product0000`…`product0999`, 0.1 % each);
 * - its own number (`#123456`: one message);
 * and every 20th message has a file name (`invoice-<n>.pdf`). Deterministic (hashint4), so runs compare.
 */
export const COMMON_WORDS = [
  'hello',
  'thanks',
  'please',
  'order',
  'delivery',
  'refund',
  'today',
  'tomorrow',
  'price',
  'payment',
  'address',
  'package',
  'question',
  'problem',
  'account',
  'invoice',
  'change',
  'cancel',
  'status',
  'help',
];
// 200 medium words: 20 stems × 10 endings, all distinct words (no stemming in 'simple').
const STEMS = [
  'ware',
  'ship',
  'stock',
  'track',
  'label',
  'color',
  'size',
  'brand',
  'store',
  'return',
  'voucher',
  'courier',
  'parcel',
  'driver',
  'branch',
  'ticket',
  'warrant',
  'repair',
  'sample',
  'coupon',
];
const ENDINGS = ['house', 'ment', 'yard', 'line', 'room', 'desk', 'pack', 'zone', 'point', 'card'];
export const MEDIUM_WORDS = STEMS.flatMap((stem) => ENDINGS.map((ending) => `${stem}${ending}`));
const FIRST = [
  'Ada',
  'Ben',
  'Chloe',
  'David',
  'Emma',
  'Felix',
  'Greta',
  'Hugo',
  'Ines',
  'Jonas',
  'Karla',
  'Leo',
  'Mia',
  'Noah',
  'Olga',
  'Paul',
  'Rosa',
  'Sami',
  'Tara',
  'Umut',
];
const LAST = ['Meyer', 'Schmidt', 'Novak', 'Rossi', 'Garcia', 'Kowalski', 'Silva', 'Yilmaz', 'Jensen', 'Dubois'];

const sqlArray = (words: readonly string[]): string => `ARRAY[${words.map((w) => `'${w}'`).join(',')}]::text[]`;
/** A word of `words` chosen by hashing the message number with a salt. */
const pick = (words: readonly string[], salt: number): string => `(${sqlArray(words)})[1 + abs(hashint4(g * 31 + ${salt})) % ${words.length}]`;

export interface SearchDataset {
  workspaceId: string;
  agentId: string;
}

export async function buildSearchDataset(db: DataSource, messages: number, chats: number, log: (line: string) => void): Promise<SearchDataset> {
  const [ws] = (await db.query(`INSERT INTO workspaces (name) VALUES ('search bench') RETURNING id`)) as { id: string }[];
  const [agent] = (await db.query(`INSERT INTO users (email, name) VALUES ('agent@search.bench', 'Agent') RETURNING id`)) as { id: string }[];
  const workspaceId = ws!.id;
  await db.query(
    `INSERT INTO contacts (workspace_id, phone, name)
     SELECT $1, '4915' || lpad(g::text, 9, '0'), (${sqlArray(FIRST)})[1 + g % ${FIRST.length}] || ' ' || (${sqlArray(LAST)})[1 + (g / ${FIRST.length}) % ${LAST.length}] || ' ' || g
       FROM generate_series(0, $2::int - 1) g`,
    [workspaceId, chats],
  );
  await db.query(
    `INSERT INTO conversations (workspace_id, channel, chat_jid, contact_id, chat_name, chat_phone, assignee_id)
     SELECT $1, 'scan', ct.phone || '@s.whatsapp.net', ct.id, ct.name, ct.phone, CASE WHEN row_number() OVER (ORDER BY ct.phone) % 4 = 0 THEN $2::uuid END
       FROM contacts ct WHERE ct.workspace_id = $1`,
    [workspaceId, agent!.id],
  );
  // Loaded without the search index, which is then built in one go (as CREATE INDEX on a live
  // table would): a million single GIN insertions would only make the set-up slower.
  const [{ def }] = (await db.query(`SELECT pg_get_indexdef('messages_search_idx'::regclass) AS def`)) as { def: string }[];
  await db.query('DROP INDEX messages_search_idx');
  const start = Date.UTC(2025, 0, 1) / 1000;
  const batch = 100_000;
  for (let from = 0; from < messages; from += batch) {
    const to = Math.min(messages, from + batch) - 1;
    await db.query(
      `WITH conv AS (SELECT array_agg(id ORDER BY chat_jid) AS ids FROM conversations WHERE workspace_id = $1)
       INSERT INTO messages (workspace_id, conversation_id, channel, external_id, direction, sender_jid, content, file_name, status, timestamp)
       SELECT $1, conv.ids[1 + g % $4::int], 'scan', 'BENCH' || g, CASE WHEN g % 4 = 3 THEN 'outbound' ELSE 'inbound' END, '',
              initcap(${pick(COMMON_WORDS, 1)}) || ' ' || ${pick(MEDIUM_WORDS, 2)} || ', ' || ${pick(COMMON_WORDS, 3)} || ' product' ||
                lpad((abs(hashint4(g * 31 + 4)) % 1000)::text, 4, '0') || ' ' || ${pick(MEDIUM_WORDS, 5)} || ' ' || ${pick(COMMON_WORDS, 6)} || ' #' || g,
              CASE WHEN g % 20 = 0 THEN 'invoice-' || g || '.pdf' ELSE '' END, 'delivered', to_timestamp(${start} + g * 2)
         FROM generate_series($2::int, $3::int) g, conv`,
      [workspaceId, from, to, chats],
    );
    log(`  ${(to + 1).toLocaleString('en-US')} messages`);
  }
  await db.query(def);
  await db.query(
    `UPDATE conversations c SET last_message_at = m.last, last_message_hour = date_trunc('hour', m.last, 'UTC') FROM (SELECT conversation_id, max(timestamp) AS last FROM messages GROUP BY 1) m WHERE m.conversation_id = c.id`,
  );
  // What a live database's autovacuum keeps: statistics, and the GIN pending list merged.
  await db.query('VACUUM ANALYZE messages, conversations, contacts');
  return { workspaceId, agentId: agent!.id };
}
