import type { RenderContext } from './quick-reply.repository.js';

// `{{ contact.name }}`: spaces inside the braces are allowed, as in templates people copy.
const PLACEHOLDER = /\{\{\s*([a-z]+\.[a-z]+)\s*\}\}/g;

/**
 * The placeholders' values. A one-to-one chat without a named contact takes the chat's name (what
 * WhatsApp shows for the person); the phone falls back to the chat's number; a group has neither.
 */
function values(context: RenderContext): Record<string, string> {
  const person = !context.isGroup;
  const phone = context.contactPhone || (person ? context.chatPhone : '');
  return {
    'contact.name': context.contactName || (person ? context.chatName : ''),
    'contact.phone': phone ? `+${phone}` : '',
    'agent.name': context.agentName ?? '',
    'conversation.name': context.chatName,
  };
}

/** Fills in the known placeholders; an unknown one stays as typed, a missing value is empty. */
export function renderQuickReply(body: string, context: RenderContext): string {
  const known = values(context);
  return body.replace(PLACEHOLDER, (whole, name: string) => (name in known ? known[name]! : whole));
}
