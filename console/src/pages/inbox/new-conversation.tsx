import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api, ApiError } from '../../api/client.js';
import type { Conversation, Message } from '../../api/types.js';
import { navigate } from '../../router.js';
import { useAction } from '../../ui/hooks.js';
import { Field, FormDialog, TextArea } from '../../ui/kit.js';

/** Start a conversation with a phone number by sending it a first text. */
export function NewConversation({ onClose }: { onClose: () => void }): JSX.Element {
  const [phone, setPhone] = useState('');
  const [body, setBody] = useState('');
  const start = useAction(async () => {
    try {
      const started = await api.post<{ conversation: Conversation; message: Message }>('/api/conversations', { phone, body });
      onClose();
      navigate(`/inbox/${started.conversation.id}`);
    } catch (error) {
      // 502: the channel refused the text, but the conversation exists: open it with the error shown.
      const conversation = error instanceof ApiError ? (error.body.conversation as Conversation | undefined) : undefined;
      if (conversation) navigate(`/inbox/${conversation.id}`);
      throw error;
    }
  });
  return (
    <FormDialog title="New conversation" onClose={onClose} onSubmit={() => void start.run()} busy={start.busy} error={start.error} submitLabel="Send">
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
      <TextArea label="First message" required rows={3} value={body} onInput={(e) => setBody(e.currentTarget.value)} />
    </FormDialog>
  );
}
