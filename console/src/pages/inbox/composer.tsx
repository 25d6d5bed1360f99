import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Note } from '../../api/team-types.js';
import type { Member, Message } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, fileSize } from '../../ui/kit.js';
import { authorOf, messageSummary } from './bubble-quote.js';
import { ATTACH_ACCEPT, attachmentKind, attachmentMime, canBeVoice, takesCaption } from './composer-attachment.js';
import { useComposerPickers } from './composer-pickers.js';
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
  /** The members, for @mentions in a note. */
  members?: Member[];
  /** A private note was added (Note mode). */
  onNote?: (note: Note) => void;
}

const NO_MEMBERS: Member[] = [];

/**
 * Text; an image, video, audio file, voice note (an Ogg/Opus file) or document, with a caption
 * where the kind shows one; or a template. Any of them may reply to a chosen message. Enter sends;
 * Shift+Enter starts a new line. In Note mode the text is a private note for the team (with
 * @mentions) instead; `/` opens the quick replies in either mode.
 */
export function Composer({ conversationId, replyTo = null, onCancelReply, onSent, members = NO_MEMBERS, onNote }: ComposerProps): JSX.Element {
  const [text, setText] = useState('');
  const [noting, setNoting] = useState(false);
  const [caret, setCaret] = useState(0);
  // Where the caret goes once a picked quick reply or mention is in the box.
  const pendingCaret = useRef<number | null>(null);
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
  const pickers = useComposerPickers({
    conversationId,
    text,
    caret,
    noting,
    members,
    setText: (value, at) => {
      setText(value);
      pendingCaret.current = at ?? value.length;
    },
  });
  useEffect(() => {
    const box = textBox.current;
    if (!box || pendingCaret.current === null) return;
    box.focus();
    box.setSelectionRange(pendingCaret.current, pendingCaret.current);
    setCaret(pendingCaret.current);
    pendingCaret.current = null;
  }, [text]);

  // A private note: to the team only, never to the chat.
  const addNote = useAction(async () => {
    const sentText = text;
    const note = await api.post<Note>(`/api/conversations/${conversationId}/notes`, { body: sentText, mentions: pickers.mentionIds(sentText) });
    setText((current) => (current === sentText ? '' : current));
    pickers.reset();
    onNote?.(note);
  });

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

  const canSend = noting ? text.trim().length > 0 : Boolean(file) || text.trim().length > 0;
  const busy = send.busy || addNote.busy;
  const submit = (): void => {
    if (canSend && !busy) void (noting ? addNote.run() : send.run());
  };

  return (
    <>
      <form
        class={noting ? 'composer composer-note' : 'composer'}
        onSubmit={(event) => {
          event.preventDefault();
          submit();
        }}
      >
        <ErrorNote error={noting ? addNote.error : send.error} />
        {noting ? <p class="composer-hint">Private note: only your team sees it. Type @ to mention someone.</p> : null}
        {replyTo && !noting ? (
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
        {pickers.picker}
        <div class="composer-row">
          <div class="composer-tools">
            <span class="composer-mode" role="group" aria-label="Write a">
              <button type="button" aria-pressed={!noting} onClick={() => setNoting(false)}>
                Reply
              </button>
              <button type="button" class="mode-note" aria-pressed={noting} onClick={() => setNoting(true)}>
                Note
              </button>
            </span>
            {noting ? null : (
              <>
                <Button class="attach-button" aria-label="Attach a file (image, video, audio or document)" onClick={() => picker.current?.click()}>
                  Attach
                </Button>
                <Button aria-label="Send a template" onClick={() => setTemplating(true)}>
                  Template
                </Button>
              </>
            )}
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
            {noting ? 'Private note' : file ? 'Caption' : 'Message'}
          </label>
          <textarea
            id="composer-text"
            ref={textBox}
            rows={2}
            disabled={!captioned}
            placeholder={
              noting
                ? 'Write a private note'
                : !captioned
                  ? 'Audio goes out without a caption'
                  : file
                    ? 'Add a caption (optional)'
                    : 'Write a message (/ for quick replies)'
            }
            value={text}
            onInput={(e) => {
              setText(e.currentTarget.value);
              setCaret(e.currentTarget.selectionStart ?? e.currentTarget.value.length);
            }}
            onKeyUp={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
            onClick={(e) => setCaret(e.currentTarget.selectionStart ?? 0)}
            onKeyDown={(e) => {
              if (pickers.onKeyDown(e)) return;
              if (e.key === 'Escape' && replyTo) onCancelReply?.();
              if (e.key === 'Enter' && !e.shiftKey && !e.isComposing) {
                e.preventDefault();
                submit();
              }
            }}
          />
          <Button type="submit" variant="primary" busy={busy} disabled={!canSend}>
            {noting ? 'Add note' : 'Send'}
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
