import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Message } from '../../api/types.js';
import { type Action, useAction } from '../../ui/hooks.js';
import { bareJid } from './bubble-reactions.js';

/** How long a message a quote jumped to stays highlighted. */
const HIGHLIGHT_MS = 2000;

export interface MessageActions {
  /** The message the composer's next send replies to. */
  replyTo: Message | null;
  setReplyTo: (message: Message | null) => void;
  /** The loaded message a reply quotes, for the quote above it; null when none is loaded. */
  quotedOf: (message: Message) => Message | null;
  /** The jids this number writes and reacts as. */
  ownJids: ReadonlySet<string>;
  highlighted: string | null;
  /** Scrolls the conversation to a message and highlights it for a moment. */
  jump: (id: string) => void;
  react: Action<[Message, string]>;
  /** The message a reaction is on its way to. */
  reacting: string | null;
}

/**
 * What an agent does to the messages of a conversation beside writing: reply to one, react to
 * one, follow a quote to the message it quotes. `onChanged` takes the reacted-to message as the
 * service answers it (the live event brings the same).
 */
export function useMessageActions(conversationId: string, messages: Message[], onChanged: (message: Message) => void): MessageActions {
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [highlighted, setHighlighted] = useState<string | null>(null);
  const [reacting, setReacting] = useState<string | null>(null);
  // Who reacted as us, learned from the answers to our reactions (a conversation without any
  // message of ours loaded shows no sender of ours otherwise).
  const [learned, setLearned] = useState<ReadonlySet<string>>(new Set());
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    setReplyTo(null);
    setHighlighted(null);
  }, [conversationId]);
  useEffect(() => () => window.clearTimeout(timer.current), []);

  const byId = useMemo(() => new Map(messages.map((m) => [m.id, m])), [messages]);
  // A reply that came before the message it quotes (live, or a history chunk ahead of it) has no
  // quoted_id in the copy on screen: the quote is found by the channel's id then.
  const byChatId = useMemo(() => new Map(messages.flatMap((m) => (m.chat_message_id ? [[m.chat_message_id, m] as const] : []))), [messages]);
  const quotedOf = (message: Message): Message | null =>
    (message.quoted_id ? byId.get(message.quoted_id) : undefined) ?? (message.quoted_message_id ? byChatId.get(message.quoted_message_id) : undefined) ?? null;
  const ownJids = useMemo(() => {
    const jids = new Set(learned);
    for (const m of messages) if (m.direction === 'outbound' && m.sender_jid) jids.add(bareJid(m.sender_jid));
    return jids;
  }, [messages, learned]);

  const react = useAction(async (message: Message, emoji: string) => {
    setReacting(message.id);
    try {
      const updated = await api.post<Message>(`/api/conversations/${conversationId}/messages`, { reaction: { message_id: message.id, emoji } });
      if (emoji) {
        const before = new Set((message.reactions ?? []).filter((r) => r.emoji === emoji).map((r) => r.sender_jid));
        const ours = (updated.reactions ?? []).find((r) => r.emoji === emoji && !before.has(r.sender_jid));
        if (ours) setLearned((current) => new Set([...current, bareJid(ours.sender_jid)]));
      }
      onChanged(updated);
    } finally {
      setReacting(null);
    }
  });

  const jump = (id: string): void => {
    const target = document.querySelector(`[data-message="${CSS.escape(id)}"]`);
    if (!target) return;
    target.scrollIntoView({ block: 'center', behavior: 'smooth' });
    setHighlighted(id);
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => setHighlighted(null), HIGHLIGHT_MS);
  };

  return { replyTo, setReplyTo, quotedOf, ownJids, highlighted, jump, react, reacting };
}
