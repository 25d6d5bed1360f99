import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Message } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, fileSize } from '../../ui/kit.js';
import { authorOf, messageSummary } from './bubble-quote.js';
import { ATTACH_ACCEPT, attachmentKind, attachmentMime, canBeVoice, takesCaption } from './composer-attachment.js';
import { TemplateSendDialog } from './template-send.js';

/** The file's bytes as base64 (the send route takes `media.data_base64`). */
export function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = String(reader.result);
      resolve(url.slice(url.indexOf(',') + 1));
    };
    reader.onerror = () => reject(new Error('The file could not be read.'));
    reader.readAsDataURL(file);
  });
}

interface ComposerProps {
  conversationId: string;
  /** The message the next send replies to (quotes), chosen with a bubble's Reply button. */
  replyTo?: Message | null;
  onCancelReply?: () => void;
  onSent: (message: Message) => void;
}

/**
 * Text; an image, video, audio file, voice note (an Ogg/Opus file) or document, with a caption
 * where the kind shows one; or a template. Any of them may reply to a chosen message. Enter sends;
 * Shift+Enter starts a new line.
 */
export function Composer({ conversationId, replyTo = null, onCancelReply, onSent }: ComposerProps): JSX.Element {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  // An Ogg recording goes out as a voice note unless the agent says it is an audio file.
  const [asVoice, setAsVoice] = useState(true);
  const [templating, setTemplating] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  const textBox = useRef<HTMLTextAreaElement>(null);
  // Choosing a message to reply to is the start of writing the reply.
  useEffect(() => {
    if (replyTo) textBox.current?.focus();
  }, [replyTo?.id]);
  const kind = file ? attachmentKind(file, asVoice) : null;
  const captioned = kind === null || takesCaption(kind);

  const send = useAction(async () => {
    // What this send takes; the agent may pick the next file or type on while it is in flight (the
    // live event can even show the message first), and that must survive the answer.
    const sentFile = file;
    const sentText = text;
    const reply = replyTo ? { reply_to: replyTo.id } : {};
    const body =
      sentFile && kind
        ? {
            type: kind,
            media: { data_base64: await readBase64(sentFile), mime_type: attachmentMime(sentFile, kind), file_name: sentFile.name },
            caption: (captioned && sentText.trim()) || undefined,
            ...reply,
          }
        : { body: text, ...reply };
    const message = await api.post<Message>(`/api/conversations/${conversationId}/messages`, body);
    if (captioned) setText((current) => (current === sentText ? '' : current));
    setFile((current) => {
      if (current !== sentFile) return current;
      if (picker.current) picker.current.value = '';
      return null;
    });
    onCancelReply?.();
    onSent(message);
  });

  const canSend = Boolean(file) || text.trim().length > 0;
  const submit = (): void => {
    if (canSend && !send.busy) void send.run();
  };

  return (
    <>
      <form
        class="composer"
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ErrorNote error={send.error} />
        {replyTo ? (
          <div class="reply-bar" role="status" aria-label="Replying to">
            <span class="reply-bar-text">
              <span class="bubble-quote-author">Replying to {authorOf(replyTo)}</span>
              <span class="bubble-quote-text">{messageSummary(replyTo)}</span>
            </span>
            <Button variant="link" onClick={() => onCancelReply?.()}>
              Cancel reply
            </Button>
          </div>
        ) : null}
        {file ? (
          <div class="attachment" role="status">
            <span>
              📎 {file.name} {fileSize(file.size) ? `(${fileSize(file.size)})` : ''}
            </span>
            {canBeVoice(file) ? (
              <label class="attachment-voice">
                <input type="checkbox" checked={asVoice} onChange={(e) => setAsVoice(e.currentTarget.checked)} /> Send as a voice message
              </label>
            ) : null}
            <Button
              variant="link"
              onClick={() => {
                setFile(null);
                send.clear();
                if (picker.current) picker.current.value = '';
              }}
            >
              Remove
            </Button>
          </div>
        ) : null}
        <div class="composer-row">
          <div class="composer-tools">
            <Button class="attach-button" aria-label="Attach a file (image, video, audio or document)" onClick={() => picker.current?.click()}>
              Attach
            </Button>
            <Button aria-label="Send a template" onClick={() => setTemplating(true)}>
              Template
            </Button>
          </div>
          <input
            id="composer-file"
            ref={picker}
            hidden
            type="file"
            accept={ATTACH_ACCEPT}
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              setAsVoice(true);
              send.clear();
            }}
          />
          <label for="composer-text" class="visually-hidden">
            {file ? 'Caption' : 'Message'}
          </label>
          <textarea
            id="composer-text"
            ref={textBox}
            rows={2}
            disabled={!captioned}
            placeholder={!captioned ? 'Audio goes out without a caption' : file ? 'Add a caption (optional)' : 'Write a message'}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
              if (e.key === 'Escape' && replyTo) onCancelReply?.();
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <Button type="submit" variant="primary" busy={send.busy} disabled={!canSend}>
            Send
          </Button>
        </div>
      </form>
      {/* Outside the composer's form: a form inside another would submit both. */}
      {templating ? (
        <TemplateSendDialog
          conversationId={conversationId}
          onClose={() => setTemplating(false)}
          onSent={(message) => {
            send.clear();
            onSent(message);
          }}
        />
      ) : null}
    </>
  );
}
