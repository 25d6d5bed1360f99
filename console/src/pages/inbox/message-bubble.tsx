import type { JSX } from 'preact';
import { queuedText } from './queue-places.js';
import { useState } from 'preact/hooks';
import { kindOf, unhandledType } from '../../api/message-types.js';
import type { Message } from '../../api/types.js';
import { AudioMedia, DocumentMedia, ImageMedia, StickerMedia, VideoMedia } from './bubble-media.js';
import { QuotedMessage } from './bubble-quote.js';
import { groupReactions, ownReaction, ReactionChoices, ReactionList } from './bubble-reactions.js';
import { ContactCards, LocationCard, PollCard, UnsupportedNote } from './bubble-structured.js';

const STATUS_TEXT: Record<Message['status'], string> = {
  pending: 'sending…',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'not sent',
};

export interface BubbleProps {
  message: Message;
  showSender: boolean;
  /** The message this one replies to, when the conversation shows it (null: not loaded). Unused for a message that replies to none. */
  quoted?: Message | null;
  /** Jids this number reacts as (its reactions are the ones tapping takes back). */
  ownJids?: ReadonlySet<string>;
  highlighted?: boolean;
  onJump?: (id: string) => void;
  onReply?: (message: Message) => void;
  onReact?: (message: Message, emoji: string) => void;
  /** A reaction to this message is on its way. */
  reacting?: boolean;
  /** Its place in the number's outbound queue while it waits there (1: next). */
  queuePosition?: number;
}

const NO_JIDS: ReadonlySet<string> = new Set();

/** Whether a message replies to another (it names the quoted one by the channel's id or ours). */
export const isReply = (message: Message): boolean => Boolean(message.quoted_message_id || message.quoted_id);

/**
 * One message: who sent it (groups), the message it quotes, its content by kind, the deleted and
 * edited markers, its time and delivery state, its reactions, and the reply and react actions.
 */
export function MessageBubble({
  message,
  showSender,
  quoted = null,
  ownJids = NO_JIDS,
  highlighted,
  onJump,
  onReply,
  onReact,
  reacting,
  queuePosition,
}: BubbleProps): JSX.Element {
  const [picking, setPicking] = useState(false);
  const time = new Date(message.timestamp);
  const kind = kindOf(message);
  const reactions = groupReactions(message.reactions ?? [], ownJids);
  // Only a message the channel knows (it has its id) can be answered or reacted to; not one deleted for everyone.
  const actionable = Boolean(message.chat_message_id) && message.status !== 'pending' && message.status !== 'failed' && !message.deleted;
  const react = actionable && onReact ? (emoji: string) => onReact(message, emoji) : undefined;
  const classes = [
    'bubble',
    `bubble-${message.direction}`,
    `bubble-kind-${kind}`,
    message.status === 'failed' ? 'bubble-failed' : '',
    kind === 'sticker' && !message.deleted ? 'bubble-sticker' : '',
    highlighted ? 'bubble-highlight' : '',
  ];
  return (
    <li class={classes.filter(Boolean).join(' ')} data-message={message.id} data-kind={kind}>
      {showSender && message.direction === 'inbound' && message.sender_name ? <span class="bubble-sender">{message.sender_name}</span> : null}
      {isReply(message) ? <QuotedMessage quoted={quoted} onJump={onJump ?? (() => undefined)} /> : null}
      {message.deleted ? <span class="bubble-deleted-note">🚫 Deleted for everyone</span> : null}
      <div class={message.deleted ? 'bubble-body bubble-deleted' : 'bubble-body'}>
        <Body message={message} />
      </div>
      <span class="bubble-meta">
        {message.edited ? <span class="bubble-edited">edited · </span> : null}
        <time dateTime={message.timestamp} title={time.toLocaleString()}>
          {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
        {message.direction === 'outbound' ? (
          <span class="bubble-status" data-queued={message.status === 'pending' && queuePosition ? queuePosition : undefined}>
            {' · '}
            {message.status === 'pending' && queuePosition ? queuedText(queuePosition) : STATUS_TEXT[message.status]}
          </span>
        ) : null}
      </span>
      {message.status === 'failed' && message.error ? <span class="bubble-error">{message.error}</span> : null}
      {react && picking ? <ReactionChoices current={ownReaction(message.reactions ?? [], ownJids)} onPick={react} onClose={() => setPicking(false)} /> : null}
      <ReactionList groups={reactions} onReact={react} />
      {actionable && (onReply || react) ? (
        <span class="bubble-actions">
          {onReply ? (
            <button type="button" class="bubble-action" aria-label="Reply" title="Reply" onClick={() => onReply(message)}>
              ↩
            </button>
          ) : null}
          {react ? (
            <button
              type="button"
              class="bubble-action"
              aria-label="React"
              title="React"
              aria-expanded={picking}
              disabled={reacting}
              onClick={() => setPicking(!picking)}
            >
              ☺
            </button>
          ) : null}
        </span>
      ) : null}
    </li>
  );
}

/** The text of a message below its file (a caption), or alone. */
function Caption({ message }: { message: Message }): JSX.Element | null {
  return message.content ? <p class="bubble-text">{message.content}</p> : null;
}

/** What the message holds, by its kind. */
function Body({ message }: { message: Message }): JSX.Element | null {
  const kind = kindOf(message);
  switch (kind) {
    case 'text':
      return <Caption message={message} />;
    case 'image':
      return (
        <>
          <ImageMedia message={message} />
          <Caption message={message} />
        </>
      );
    case 'sticker':
      return <StickerMedia message={message} />;
    case 'video':
      return (
        <>
          <VideoMedia message={message} />
          <Caption message={message} />
        </>
      );
    case 'audio':
    case 'voice':
      return (
        <>
          <AudioMedia message={message} />
          <Caption message={message} />
        </>
      );
    case 'document':
      return (
        <>
          <DocumentMedia message={message} />
          <Caption message={message} />
        </>
      );
    case 'location':
      return message.location ? <LocationCard location={message.location} /> : <Caption message={message} />;
    case 'contacts':
      return message.contacts?.length ? <ContactCards cards={message.contacts} /> : <Caption message={message} />;
    case 'poll':
      return message.poll ? <PollCard poll={message.poll} /> : <Caption message={message} />;
    case 'unsupported':
      return <UnsupportedNote content={message.content} />;
    default:
      return unhandledType(kind);
  }
}
