/**
 * How `GET /api/events` is described in the OpenAPI document: SSE has no schema language of its
 * own, so the events are described in text, with an example of the wire format.
 */
export const EVENT_STREAM_DESCRIPTION = [
  'An endless `text/event-stream` (Server-Sent Events). It opens with `retry: 3000` and a `: connected` comment,',
  'replays what was missed when `Last-Event-ID` is sent (up to 10 minutes back; a workspace keeps a replay while a',
  'stream of it is open and for 20 minutes after the last one closed), then sends events as they happen',
  'and a `: keep-alive` comment every 25 s. Each event has `id:` (`<ms>-<seq>`, opaque, growing), `event:` and',
  'one line of JSON in `data:`:',
  '`message.created` and `message.updated` (a message, as `GET /api/conversations/{id}/messages` lists it);',
  '`conversation.updated` (a conversation, as `GET /api/conversations/{id}` answers it);',
  '`contact.created` and `contact.updated` (a contact, as `GET /api/contacts/{id}` answers it, after `POST /api/contacts` or',
  '`PATCH /api/contacts/{id}`); `contact.deleted` (`{id}`, after `DELETE /api/contacts/{id}`);',
  '`note.created` (a private note, as `GET /api/conversations/{id}/notes` lists it; no webhook carries notes);',
  '`sync.progress` (`{progress: 0..100, chats, messages, done}` while the history syncs after linking);',
  '`session.updated` (the scan channel session state: `connected`, `logged_in`, `qr_pending`, `jid`).',
  'Agents receive conversation, message and note events only of conversations that are unassigned or assigned to them.',
].join(' ');

export const EVENT_STREAM_EXAMPLE = [
  'retry: 3000',
  ': connected',
  '',
  'id: 1763800000123-0',
  'event: message.created',
  'data: {"id":"0b5c…","conversation_id":"7f3e…","direction":"inbound","message_type":"text","content":"hi","status":"delivered","timestamp":"2026-11-22T07:00:00.000Z"}',
  '',
  ': keep-alive',
  '',
].join('\n');
