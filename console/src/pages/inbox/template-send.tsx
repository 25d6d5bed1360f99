import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Message, Template } from '../../api/types.js';
import { Link } from '../../router.js';
import { useAction, useLoad } from '../../ui/hooks.js';
import { Empty, ErrorNote, Field, FormDialog, Loading, Select } from '../../ui/kit.js';

/** How many parameters a template body takes: its highest `{{n}}` (the service numbers them without gaps). */
export function parameterCount(body: string): number {
  let highest = 0;
  for (const match of body.matchAll(/\{\{(\d+)\}\}/g)) highest = Math.max(highest, Number(match[1]));
  return highest;
}

/** The body with the values filled in where they are given, the placeholders where not. */
export function fillTemplate(body: string, values: string[]): string {
  return body.replace(/\{\{(\d+)\}\}/g, (placeholder, n: string) => values[Number(n) - 1]?.trim() || placeholder);
}

/**
 * Send a template into the conversation: pick one, fill in its `{{n}}` values, see the message
 * as it will read. On a Cloud API conversation a template is what may still be sent after the
 * customer's 24-hour window has closed.
 */
export function TemplateSendDialog({
  conversationId,
  onClose,
  onSent,
}: {
  conversationId: string;
  onClose: () => void;
  onSent: (message: Message) => void;
}): JSX.Element {
  const templates = useLoad(() => api.get<Template[]>('/api/templates'), []);
  const [templateId, setTemplateId] = useState('');
  const [values, setValues] = useState<string[]>([]);
  const list = templates.data ?? [];
  const template = list.find((t) => t.id === templateId);
  const count = template ? parameterCount(template.body) : 0;
  const send = useAction(async () => {
    const message = await api.post<Message>(`/api/conversations/${conversationId}/messages`, {
      type: 'template',
      template_id: templateId,
      parameters: Array.from({ length: count }, (_, i) => values[i] ?? ''),
    });
    onSent(message);
    onClose();
  });
  return (
    <FormDialog title="Send a template" onClose={onClose} onSubmit={() => void send.run()} busy={send.busy} error={send.error} submitLabel="Send">
      {templates.loading && !templates.data ? (
        <Loading />
      ) : templates.error ? (
        <ErrorNote error={templates.error} />
      ) : list.length === 0 ? (
        <Empty title="No templates yet.">
          <Link href="/templates">Create one on the Templates page.</Link>
        </Empty>
      ) : (
        <>
          <Select
            label="Template"
            required
            options={[
              ['', 'Choose a template'],
              ...list.map((t): [string, string] => [t.id, `${t.name} (${t.language})${t.status && t.status !== 'APPROVED' ? ` · ${t.status}` : ''}`]),
            ]}
            value={templateId}
            onChange={(e) => {
              setTemplateId(e.currentTarget.value);
              setValues([]);
            }}
          />
          {Array.from({ length: count }, (_, i) => (
            <Field
              key={`${templateId}-${i}`}
              label={`Value for {{${i + 1}}}`}
              required
              value={values[i] ?? ''}
              onInput={(e) => {
                const next = [...values];
                next[i] = e.currentTarget.value;
                setValues(next);
              }}
            />
          ))}
          {template ? (
            <div class="template-preview">
              <p class="muted">The message:</p>
              <p class="bubble bubble-outbound bubble-text" data-template-preview>
                {fillTemplate(template.body, values)}
              </p>
            </div>
          ) : null}
        </>
      )}
    </FormDialog>
  );
}
