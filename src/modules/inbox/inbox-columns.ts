import type { ContactEntity } from './entities/contact.entity.js';
import { type ConversationEntity, hourOf } from './entities/conversation.entity.js';
import type { MessageEntity } from './entities/message.entity.js';
import { previewCaseSql } from './message-kinds.js';

// Row shapes come back from raw SQL with camelCase aliases, typed as the entity classes. One list
// per table keeps every query's projection identical.
// lastMessageHour is the list's index key, internal to the conversation row: no projection selects it.
// Neither does any select the reports' bookkeeping (openedAt, firstInboundAt, firstResponseAt):
// only the reports' trigger and hook read it, so the hot paths' rows stay as they were.
type Columns<T> = Record<
  Exclude<keyof T, 'workspace' | 'conversation' | 'contact' | 'assignee' | 'lastMessageHour' | 'openedAt' | 'firstInboundAt' | 'firstResponseAt'>,
  string
>;

const CONVERSATION: Columns<ConversationEntity> = {
  id: 'id',
  workspaceId: 'workspace_id',
  channel: 'channel',
  chatJid: 'chat_jid',
  contactId: 'contact_id',
  isGroup: 'is_group',
  chatName: 'chat_name',
  chatPhone: 'chat_phone',
  assigneeId: 'assignee_id',
  status: 'status',
  snoozedUntil: 'snoozed_until',
  labelIds: 'label_ids',
  unreadCount: 'unread_count',
  lastMessageAt: 'last_message_at',
  lastMessageSeq: 'last_message_seq',
  lastSeq: 'last_seq',
  lastMessagePreview: 'last_message_preview',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

const MESSAGE = {
  id: 'id',
  workspaceId: 'workspace_id',
  conversationId: 'conversation_id',
  channel: 'channel',
  externalId: 'external_id',
  direction: 'direction',
  senderJid: 'sender_jid',
  senderName: 'sender_name',
  messageType: 'message_type',
  content: 'content',
  mediaUrl: 'media_url',
  mimeType: 'mime_type',
  fileName: 'file_name',
  fileSize: 'file_size',
  durationS: 'duration_s',
  quotedExternalId: 'quoted_external_id',
  quotedId: 'quoted_id',
  details: 'details',
  reactions: 'reactions',
  editedAt: 'edited_at',
  deletedAt: 'deleted_at',
  status: 'status',
  error: 'error',
  timestamp: 'timestamp',
  seq: 'seq',
  conversationSeq: 'conversation_seq',
  createdAt: 'created_at',
} as const satisfies Columns<MessageEntity>;

const CONTACT: Columns<ContactEntity> = {
  id: 'id',
  workspaceId: 'workspace_id',
  phone: 'phone',
  lid: 'lid',
  bsuid: 'bsuid',
  name: 'name',
  labelIds: 'label_ids',
  createdAt: 'created_at',
  updatedAt: 'updated_at',
};

// `computed`: keys read through an expression instead of their column.
function projection(columns: Record<string, string>, alias: string, prefix: string, computed: Record<string, string> = {}): string {
  return Object.entries(columns)
    .map(([key, column]) => `${computed[key] ?? `${alias}."${column}"`} AS "${prefix}${key}"`)
    .join(', ');
}

/**
 * What identifies a conversation's chat: the columns a group's move leaves alone (the aggregates
 * it moves, last message, unread count, status, are left out).
 */
export type ConversationIdentity = Pick<ConversationEntity, 'id' | 'workspaceId' | 'channel' | 'chatJid' | 'contactId' | 'isGroup' | 'chatName' | 'chatPhone'>;

const IDENTITY_KEYS: readonly (keyof ConversationIdentity)[] = ['id', 'workspaceId', 'channel', 'chatJid', 'contactId', 'isGroup', 'chatName', 'chatPhone'];
const IDENTITY: Record<string, string> = Object.fromEntries(IDENTITY_KEYS.map((key) => [key, CONVERSATION[key]]));

/** `SELECT` list of a conversation row; `prefix` keeps two tables apart in one result row. */
export const conversationColumns = (alias: string, prefix = ''): string => projection(CONVERSATION, alias, prefix);
/** `SELECT` list of a conversation's identity (ConversationIdentity). */
export const conversationIdentityColumns = (alias: string, prefix = ''): string => projection(IDENTITY, alias, prefix);
export const messageColumns = (alias: string, prefix = ''): string => projection(MESSAGE, alias, prefix);
/** `SELECT` list of messages shown to people (the message list): as messageColumns, with quotedId resolved late (resolvedQuotedIdSql). */
export const messageReadColumns = (alias: string): string => projection(MESSAGE, alias, '', { quotedId: resolvedQuotedIdSql(alias) });
export const contactColumns = (alias: string): string => projection(CONTACT, alias, '');

/** The part of a combined result row whose keys start with `prefix`, with the prefix removed. */
export function unprefix<T>(row: Record<string, unknown>, prefix: string): T {
  // The ingest paths split thousands of rows a second: the keys' unprefixed names are cached per
  // prefix instead of sliced (and the entries allocated) for every row.
  let names = unprefixed.get(prefix);
  if (!names) unprefixed.set(prefix, (names = new Map()));
  const picked: Record<string, unknown> = {};
  for (const key in row) {
    let name = names.get(key);
    if (name === undefined) names.set(key, (name = key.startsWith(prefix) ? key.slice(prefix.length) : null));
    if (name !== null) picked[name] = row[key];
  }
  return picked as T;
}

// Per prefix: each result key's name without it (null: the key has another prefix).
const unprefixed = new Map<string, Map<string, string | null>>();

/**
 * The conversation list's one-line preview of a message, as SQL over a messages row (`alias`) or
 * over three expressions, so the single and bulk ingest paths (and sends) compute it identically.
 * Each kind's rule is its catalogue entry (message-kinds.ts). A statement that computes it over
 * rows it returns returns PREVIEW_COLUMNS.
 */
export const previewOf = (content: string, kind: string, fileName: string): string => previewCaseSql(content, kind, fileName);

const { content: CONTENT, messageType: KIND, fileName: FILE_NAME } = MESSAGE;
export const previewSql = (alias: string): string => previewOf(`${alias}.${CONTENT}`, `${alias}.${KIND}`, `${alias}.${FILE_NAME}`);

/** The columns previewSql reads. */
export const PREVIEW_COLUMNS = `${CONTENT}, ${KIND}, ${FILE_NAME}`;

// What an INSERT writes: every column but those Postgres fills in (id, created_at) and those only
// a later change sets (a failed send's `error`, reactions, an edit, a revoke). In the table's order.
const NOT_INSERTED = new Set<string>([MESSAGE.id, MESSAGE.createdAt, MESSAGE.error, MESSAGE.reactions, MESSAGE.editedAt, MESSAGE.deletedAt]);
type MessageInsertColumn = Exclude<(typeof MESSAGE)[keyof typeof MESSAGE], 'id' | 'created_at' | 'error' | 'reactions' | 'edited_at' | 'deleted_at'>;
const MESSAGE_INSERT_COLUMNS = Object.values(MESSAGE).filter((column) => !NOT_INSERTED.has(column)) as MessageInsertColumn[];

/**
 * Each column's value in an INSERT into messages, as an SQL expression; null leaves the column to
 * its default. Every statement that inserts messages names every column, so a new column makes
 * the compiler point at each of them.
 */
export type MessageInsertValues = Readonly<Record<MessageInsertColumn, string | null>>;

/** `INSERT INTO messages (…) SELECT …` of `values`, in the table's column order (the caller adds FROM and the rest). */
export function insertMessagesSql(values: MessageInsertValues): string {
  const columns = MESSAGE_INSERT_COLUMNS.filter((column) => values[column] !== null);
  return `INSERT INTO messages (${columns.join(', ')})
  SELECT ${columns.map((column) => values[column]).join(', ')}`;
}

/**
 * The `quoted_id` of a message being inserted into `conversation` (its conversation id as an SQL
 * expression): our id of the message it quotes (`quoted`, the quoted channel id), when that
 * conversation holds it; one probe of the unique index, only for a reply. A channel id names one
 * message of the workspace's channel already; the conversation keeps a link from ever leading
 * out of the chat the reply is in.
 */
export const quotedIdSql = (workspaceId: string, channel: string, quoted: string, conversation: string): string =>
  `CASE WHEN ${quoted} <> '' THEN (SELECT q.id FROM messages q WHERE q.workspace_id = ${workspaceId} AND q.channel = ${channel} AND q.external_id = ${quoted} AND q.conversation_id = ${conversation}) END`;

/**
 * A stored message's `quoted_id` as read (message row `alias`): the link stored with it, else,
 * for a reply stored before the message it quotes (a live reply overtaking it, a history reply
 * whose quoted message came in a later chunk), the quoted message now stored. Only such replies
 * cost a probe of the unique index; every other row reads its column.
 */
export const resolvedQuotedIdSql = (alias: string): string =>
  `COALESCE(${alias}.quoted_id, ${quotedIdSql(`${alias}.workspace_id`, `${alias}.channel`, `${alias}.quoted_external_id`, `${alias}.conversation_id`)})`;

/**
 * How a conversation `cv` takes the message row `alias` as its last message: only when it is not
 * older than the current one (a message arriving late moves nothing back). `preview` is the
 * message's preview expression (a computed column in the batch statements). One rule for every
 * path that writes messages: live, grouped, bulk and sends.
 */
export const moveLastMessageSql = (alias: string, preview = previewSql(alias)): string => {
  // By (timestamp, seq): two transactions may insert a conversation's messages in one order and
  // move it in the other (group commit moves conversations at its end), and the later seq wins.
  const newer = `(${alias}.timestamp, ${alias}.seq) >= (cv.last_message_at, cv.last_message_seq)`;
  const last = `GREATEST(cv.last_message_at, ${alias}.timestamp)`;
  return `last_message_at = ${last},
    last_message_hour = ${hourOf(last)},
    last_message_seq = CASE WHEN ${newer} THEN ${alias}.seq ELSE cv.last_message_seq END,
    last_message_preview = CASE WHEN ${newer} THEN ${preview} ELSE cv.last_message_preview END`;
};

/**
 * CTEs over the inserted messages `inserted` (a CTE with conversation_id, timestamp, seq,
 * direction and the preview's columns, or `preview`, the preview's expression): `latest`, each
 * conversation's newest message with its preview, and `counts`, its inbound messages. The grouped
 * and bulk paths move each conversation once from them.
 */
export const latestPerConversationSql = (inserted: string, preview = previewSql(inserted)): string => `latest AS (
  SELECT DISTINCT ON (conversation_id) conversation_id, timestamp, seq, ${preview} AS preview
    FROM ${inserted} ORDER BY conversation_id, timestamp DESC, seq DESC
), counts AS (
  SELECT conversation_id, count(*) FILTER (WHERE direction = 'inbound')::int AS inbound FROM ${inserted} GROUP BY conversation_id
)`;
