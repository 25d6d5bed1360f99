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

/** An inbound image or document (by media id, as the provider sends them). */
export function mediaMessage(
  from: { phone?: string },
  kind: 'image' | 'document',
  media: { id: string; mimeType: string; sha256?: string; caption?: string; filename?: string },
  id = wamid(),
): Json {
  const part: Json = { id: media.id, mime_type: media.mimeType, ...(media.sha256 ? { sha256: media.sha256 } : {}) };
  if (media.caption) part.caption = media.caption;
  if (kind === 'document') part.filename = media.filename ?? 'file.pdf';
  return { ...(from.phone ? { from: from.phone } : {}), id, timestamp: unixNow(), type: kind, [kind]: part };
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
