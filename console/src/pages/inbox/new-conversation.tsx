import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import type { Conversation, Message } from '../../api/types.js';
import { navigate } from '../../router.js';
import { useAction } from '../../ui/hooks.js';
import { Field, FormDialog, TextArea } from '../../ui/kit.js';

/** What `POST /api/conversations` answers: `message` is null when the conversation was started without one. */
interface Started {
  conversation: Conversation;
  message: Message | null;
}

/**
 * Start a conversation with a phone number, by sending it a first text or (the text left empty)
 * only opening it, to write or send a template from there.
 */
export function NewConversation({ onClose }: { onClose: () => void }): JSX.Element {
  const [phone, setPhone] = useState('');
  const [body, setBody] = useState('');
  const text = body.trim();
  const start = useAction(async () => {
    try {
      // Without a text the service only finds or creates the conversation (a blank `body` is a 400).
      const started = await api.post<Started>('/api/conversations', text ? { phone, body } : { phone });
      onClose();
      navigate(`/inbox/${started.conversation.id}`);
    } catch (error) {
      // 502: the channel refused the text, but the conversation exists: open it with the error shown.
      const conversation = error instanceof ApiError ? (error.body.conversation as Conversation | undefined) : undefined;
      if (conversation) navigate(`/inbox/${conversation.id}`);
      throw withRetryTime(error);
    }
  });
  return (
    <FormDialog
      title="New conversation"
      onClose={onClose}
      onSubmit={() => void start.run()}
      busy={start.busy}
      error={start.error}
      submitLabel={text ? 'Send' : 'Start'}
    >
      <Field
        label="Phone number"
        type="tel"
        required
        autoComplete="off"
        placeholder="+49 151 23456789"
        hint="With the country code; spaces and dashes are fine."
        value={phone}
        onInput={(e) => setPhone(e.currentTarget.value)}
      />
      <TextArea
        label="First message"
        rows={3}
        hint="Optional: leave it empty to open the conversation and write or send a template there."
        value={body}
        onInput={(e) => setBody(e.currentTarget.value)}
      />
    </FormDialog>
  );
}

/** A 429 of the number's caps names the cap; `retry_at` says when a send fits again, shown with it. */
function withRetryTime(error: unknown): unknown {
  if (!(error instanceof ApiError) || error.status !== 429 || typeof error.body.retry_at !== 'string') return error;
  const at = new Date(error.body.retry_at);
  if (Number.isNaN(at.getTime())) return error;
  return new ApiError(error.status, `${error.message} Try again after ${at.toLocaleString()}.`, error.body);
}
