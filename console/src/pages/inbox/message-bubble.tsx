import type { JSX } from 'preact';
import { mediaHref } from '../../api/client.js';
import { unhandledType } from '../../api/message-types.js';
import type { Message } from '../../api/types.js';
import { fileSize } from '../../ui/kit.js';

const STATUS_TEXT: Record<Message['status'], string> = {
  pending: 'sending…',
  sent: 'sent',
  delivered: 'delivered',
  read: 'read',
  failed: 'not sent',
};

/** One message: text, an image preview or a document link, with its time and delivery state. */
export function MessageBubble({ message, showSender }: { message: Message; showSender: boolean }): JSX.Element {
  const time = new Date(message.timestamp);
  return (
    <li class={`bubble bubble-${message.direction} ${message.status === 'failed' ? 'bubble-failed' : ''}`} data-message={message.id}>
      {showSender && message.direction === 'inbound' && message.sender_name ? <span class="bubble-sender">{message.sender_name}</span> : null}
      <Media message={message} />
      {message.content ? <p class="bubble-text">{message.content}</p> : null}
      <span class="bubble-meta">
        <time dateTime={message.timestamp} title={time.toLocaleString()}>
          {time.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
        </time>
        {message.direction === 'outbound' ? <span class="bubble-status"> · {STATUS_TEXT[message.status]}</span> : null}
      </span>
      {message.status === 'failed' && message.error ? <span class="bubble-error">{message.error}</span> : null}
    </li>
  );
}

function Media({ message }: { message: Message }): JSX.Element | null {
  switch (message.message_type) {
    case 'text':
      return null;
    case 'image':
      return imageMedia(message);
    case 'document':
      return documentMedia(message);
    default:
      return unhandledType(message.message_type);
  }
}

function imageMedia(message: Message): JSX.Element {
  if (!message.media_url) return <span class="media-pending">🖼 Image{message.direction === 'inbound' ? ' (downloading…)' : ''}</span>;
  const href = mediaHref(message.media_url);
  return (
    <a href={href} target="_blank" rel="noopener" class="media-image">
      <img src={href} alt={message.content ? `Image: ${message.content}` : 'Image'} loading="lazy" />
    </a>
  );
}

function documentMedia(message: Message): JSX.Element {
  const name = message.file_name || 'Document';
  const size = fileSize(message.file_size);
  if (!message.media_url) {
    return (
      <span class="media-document media-pending">
        📄 {name}
        {size ? ` (${size})` : ''}
      </span>
    );
  }
  return (
    <a href={mediaHref(message.media_url)} class="media-document" download={name}>
      📄 {name}
      {size ? ` (${size})` : ''}
    </a>
  );
}
