import type { JSX } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Message } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote, fileSize } from '../../ui/kit.js';
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

/** Text, an image or document with an optional caption, or a template. Enter sends; Shift+Enter starts a new line. */
export function Composer({ conversationId, onSent }: { conversationId: string; onSent: (message: Message) => void }): JSX.Element {
  const [text, setText] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [templating, setTemplating] = useState(false);
  const picker = useRef<HTMLInputElement>(null);

  const send = useAction(async () => {
    const body = file
      ? {
          type: file.type.startsWith('image/') ? 'image' : 'document',
          media: { data_base64: await readBase64(file), mime_type: file.type || 'application/octet-stream', file_name: file.name },
          caption: text.trim() || undefined,
        }
      : { body: text };
    const message = await api.post<Message>(`/api/conversations/${conversationId}/messages`, body);
    setText('');
    setFile(null);
    if (picker.current) picker.current.value = '';
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
        {file ? (
          <div class="attachment" role="status">
            <span>
              📎 {file.name} {fileSize(file.size) ? `(${fileSize(file.size)})` : ''}
            </span>
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
            <Button class="attach-button" aria-label="Attach an image or a document" onClick={() => picker.current?.click()}>
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
            accept="image/*,application/pdf,.doc,.docx,.xls,.xlsx,.ppt,.pptx,.txt,.csv,.zip"
            onChange={(e) => {
              setFile(e.currentTarget.files?.[0] ?? null);
              send.clear();
            }}
          />
          <label for="composer-text" class="visually-hidden">
            {file ? 'Caption' : 'Message'}
          </label>
          <textarea
            id="composer-text"
            rows={2}
            placeholder={file ? 'Add a caption (optional)' : 'Write a message'}
            value={text}
            onInput={(e) => setText(e.currentTarget.value)}
            onKeyDown={(e) => {
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
