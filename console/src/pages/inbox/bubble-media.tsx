import type { JSX } from 'preact';
import { mediaHref } from '../../api/client.js';
import type { Message } from '../../api/types.js';
import { fileSize } from '../../ui/kit.js';

// The files a message carries: images and stickers shown, videos and audio played in the page's
// own players (the browser streams them from /api/media), documents as a download link. A file
// an inbound message names but the service has not downloaded yet shows as a placeholder.

/** A playing time as a clock reads it: `0:07`, `12:30`, `1:02:03`. */
export function playTime(seconds: number): string {
  const total = Math.max(0, Math.round(seconds));
  const s = String(total % 60).padStart(2, '0');
  const m = Math.floor(total / 60) % 60;
  const h = Math.floor(total / 3600);
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** The file is still on its way (inbound) or was never stored (a failed send). */
export function PendingMedia({ message, label }: { message: Message; label: string }): JSX.Element {
  return (
    <span class="media-pending">
      {label}
      {message.direction === 'inbound' ? ' (downloading…)' : ''}
    </span>
  );
}

export function ImageMedia({ message }: { message: Message }): JSX.Element {
  if (!message.media_url) return <PendingMedia message={message} label="🖼 Image" />;
  const href = mediaHref(message.media_url);
  return (
    <a href={href} target="_blank" rel="noopener" class="media-image">
      <img src={href} alt={message.content ? `Image: ${message.content}` : 'Image'} loading="lazy" />
    </a>
  );
}

/** A sticker: small, on the chat's background (its bubble has no chrome). */
export function StickerMedia({ message }: { message: Message }): JSX.Element {
  if (!message.media_url) return <PendingMedia message={message} label="Sticker" />;
  return <img class="media-sticker" src={mediaHref(message.media_url)} alt="Sticker" width={128} height={128} loading="lazy" />;
}

export function VideoMedia({ message }: { message: Message }): JSX.Element {
  if (!message.media_url) return <PendingMedia message={message} label="🎬 Video" />;
  return (
    <figure class="media-video">
      {/* metadata only: a conversation full of videos must not download them all. */}
      <video controls preload="metadata" src={mediaHref(message.media_url)} aria-label={message.content ? `Video: ${message.content}` : 'Video'} />
      {message.duration_s ? <figcaption class="media-duration">🎬 {playTime(message.duration_s)}</figcaption> : null}
    </figure>
  );
}

/** Audio files and voice notes: the same player, a voice note labelled as one. */
export function AudioMedia({ message }: { message: Message }): JSX.Element {
  const voice = message.kind === 'voice';
  const label = voice ? '🎤 Voice message' : '🎵 Audio';
  const duration = message.duration_s ? playTime(message.duration_s) : '';
  if (!message.media_url) return <PendingMedia message={message} label={duration ? `${label} · ${duration}` : label} />;
  return (
    <figure class={`media-audio${voice ? ' media-voice' : ''}`}>
      <figcaption>
        <span class="media-audio-label">{label}</span>
        {duration ? (
          <span class="media-duration" aria-label={`Duration ${duration}`}>
            {' '}
            · {duration}
          </span>
        ) : null}
      </figcaption>
      <audio controls preload="metadata" src={mediaHref(message.media_url)} aria-label={voice ? 'Voice message' : 'Audio'} />
    </figure>
  );
}

export function DocumentMedia({ message }: { message: Message }): JSX.Element {
  const name = message.file_name || 'Document';
  const size = fileSize(message.file_size);
  const text = `📄 ${name}${size ? ` (${size})` : ''}`;
  if (!message.media_url) return <span class="media-document media-pending">{text}</span>;
  return (
    <a href={mediaHref(message.media_url)} class="media-document" download={name}>
      {text}
    </a>
  );
}
