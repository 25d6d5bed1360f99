/**
 * Provider callbacks in the shapes Meta sends (webhook reference: messages, statuses, errors,
 * template status and quality updates), for tests: build the `value`s, wrap them with `callback`.
 */
type Json = Record<string, unknown>;

let sequence = 0;
/** A fresh provider message id. */
export const wamid = (): string => `wamid.${Buffer.from(`inbound-${Date.now()}-${++sequence}`).toString('base64')}`;
const unixNow = (): string => String(Math.floor(Date.now() / 1000));

export interface ChangeSpec {
  field: string;
  value: Json;
}

/** `{object, entry: [{id: <waba>, changes}]}`; pass several entries for several WABAs. */
export function callback(...entries: { wabaId: string; changes: ChangeSpec[]; time?: number }[]): Json {
  return {
    object: 'whatsapp_business_account',
    entry: entries.map(({ wabaId, changes, time }) => ({ id: wabaId, ...(time !== undefined ? { time } : {}), changes })),
  };
}

/** The `value` of a `messages` change for a number; add `contacts`, `messages`, `statuses` or `errors`. */
export function messagesChange(
  phoneNumberId: string,
  parts: { contacts?: Json[]; messages?: Json[]; statuses?: Json[]; errors?: Json[] },
  displayPhoneNumber = '15550783881',
): ChangeSpec {
  return {
    field: 'messages',
    value: { messaging_product: 'whatsapp', metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId }, ...parts },
  };
}

/** A `contacts[]` entry: `wa_id` (phone) and/or `user_id` (business-scoped user id). */
export function contact(person: { phone?: string; bsuid?: string; name?: string; username?: string }): Json {
  return {
    profile: { name: person.name ?? 'Test User', ...(person.username ? { username: person.username } : {}) },
    ...(person.phone ? { wa_id: person.phone } : {}),
    ...(person.bsuid ? { user_id: person.bsuid } : {}),
  };
}

/** An inbound text message. */
export function textMessage(from: { phone?: string; bsuid?: string }, body: string, id = wamid(), timestamp = unixNow()): Json {
  return { ...(from.phone ? { from: from.phone } : {}), ...(from.bsuid ? { from_user_id: from.bsuid } : {}), id, timestamp, type: 'text', text: { body } };
}

/** An inbound file (by media id, as the provider sends them): `voice` for an audio recorded in WhatsApp, `animated` for a sticker. */
export function mediaMessage(
  from: { phone?: string },
  kind: 'image' | 'document' | 'video' | 'audio' | 'sticker',
  media: { id: string; mimeType: string; sha256?: string; caption?: string; filename?: string; voice?: boolean; animated?: boolean },
  id = wamid(),
): Json {
  const part: Json = { id: media.id, mime_type: media.mimeType, ...(media.sha256 ? { sha256: media.sha256 } : {}) };
  if (media.caption) part.caption = media.caption;
  if (kind === 'document') part.filename = media.filename ?? 'file.pdf';
  // The provider always says whether an audio is a voice recording and a sticker animated.
  if (kind === 'audio') part.voice = media.voice ?? false;
  if (kind === 'sticker') part.animated = media.animated ?? false;
  return { ...(from.phone ? { from: from.phone } : {}), id, timestamp: unixNow(), type: kind, [kind]: part };
}

/**
 * Any inbound message: `type` with its object (`{type: 'location', location: {...}}`), and the
 * fields beside it (`context`, `errors`, `unsupported`). For shapes the other helpers do not build.
 */
export function inboundMessage(from: { phone?: string; bsuid?: string }, type: string, fields: Json = {}, id = wamid()): Json {
  return { ...(from.phone ? { from: from.phone } : {}), ...(from.bsuid ? { from_user_id: from.bsuid } : {}), id, timestamp: unixNow(), type, ...fields };
}

/** `context` of a reply (or of a tap on a button of `messageId`), as the provider sends it. */
export const replyContext = (messageId: string, businessNumber = '15550783881'): Json => ({ context: { from: businessNumber, id: messageId } });

/** A reaction to `messageId`; an empty emoji takes it back (the provider then sends `emoji: ""`… or none). */
export const reactionMessage = (from: { phone?: string }, messageId: string, emoji: string | undefined, id = wamid()): Json =>
  inboundMessage(from, 'reaction', { reaction: { message_id: messageId, ...(emoji !== undefined ? { emoji } : {}) } }, id);

/** A tap on a reply button (`button_reply`) or a list row (`list_reply`) of an interactive message we sent. */
export function interactiveReply(
  from: { phone?: string },
  answered: string,
  reply: { kind: 'button_reply' | 'list_reply'; id: string; title: string; description?: string },
  id = wamid(),
): Json {
  const { kind, ...chosen } = reply;
  return inboundMessage(from, 'interactive', { ...replyContext(answered), interactive: { type: kind, [kind]: chosen } }, id);
}

/** A message the provider does not pass on: `unsupported.type` names what it was, the error says why. */
export function unsupportedMessage(
  from: { phone?: string },
  unsupportedType?: string,
  error = { code: 131051, title: 'Message type unknown', details: 'Message type is currently not supported.' },
  id = wamid(),
): Json {
  return inboundMessage(
    from,
    'unsupported',
    {
      errors: [{ code: error.code, title: error.title, message: error.title, error_data: { details: error.details } }],
      ...(unsupportedType ? { unsupported: { type: unsupportedType } } : {}),
    },
    id,
  );
}

/** A `statuses[]` entry for a message the business sent. */
export function status(id: string, value: 'sent' | 'delivered' | 'read' | 'failed', recipient: string, errors?: Json[]): Json {
  return {
    id,
    status: value,
    timestamp: unixNow(),
    recipient_id: recipient,
    ...(value !== 'failed'
      ? { conversation: { id: 'CONVERSATION_ID', origin: { type: 'service' } }, pricing: { billable: true, pricing_model: 'PMP', category: 'service' } }
      : {}),
    ...(errors ? { errors } : {}),
  };
}

/** An asynchronous error object (`statuses[].errors[]`, `value.errors[]`). */
export function asyncError(code: number, title: string, details?: string): Json {
  return {
    code,
    title,
    message: title,
    ...(details ? { error_data: { details } } : {}),
    href: '/documentation/business-messaging/whatsapp/support/error-codes',
  };
}

/** `message_template_status_update`. */
export function templateStatusUpdate(template: { id: string | number; name: string; language?: string; event: string; reason?: string }): ChangeSpec {
  return {
    field: 'message_template_status_update',
    value: {
      event: template.event,
      message_template_id: Number(template.id),
      message_template_name: template.name,
      message_template_language: template.language ?? 'en_US',
      reason: template.reason ?? 'NONE',
    },
  };
}

/** `message_template_quality_update`. */
export function templateQualityUpdate(template: { id: string | number; name: string; language?: string; previous?: string; quality: string }): ChangeSpec {
  return {
    field: 'message_template_quality_update',
    value: {
      previous_quality_score: template.previous ?? 'UNKNOWN',
      new_quality_score: template.quality,
      message_template_id: Number(template.id),
      message_template_name: template.name,
      message_template_language: template.language ?? 'en_US',
    },
  };
}
