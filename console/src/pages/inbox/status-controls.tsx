import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Conversation, ConversationStatus } from '../../api/types.js';
import { useAction } from '../../ui/hooks.js';
import { Button, ErrorNote } from '../../ui/kit.js';
import { useInboxCommand } from './inbox-commands.js';
import { SnoozeDialog } from './snooze-dialog.js';

type Change = { status: Exclude<ConversationStatus, 'snoozed'> } | { status: 'snoozed'; snoozed_until: string };

/**
 * The conversation's status buttons (Reopen, Pending, Snooze…, Close: the ones that change
 * something) and their keys (o, p, s, e). `PATCH /api/conversations/:id` answers the conversation,
 * which replaces the one shown; the list hears of it through `conversation.updated`.
 */
export function StatusControls({ c, onChanged }: { c: Conversation; onChanged: (changed: Conversation) => void }): JSX.Element {
  const [snoozing, setSnoozing] = useState(false);
  const change = useAction(async (body: Change) => {
    onChanged(await api.patch<Conversation>(`/api/conversations/${c.id}`, body));
  });
  const to = (status: Exclude<ConversationStatus, 'snoozed'>): void => {
    if (c.status !== status && !change.busy) void change.run({ status });
  };

  useInboxCommand('open', () => to('open'));
  useInboxCommand('pending', () => to('pending'));
  useInboxCommand('close', () => to('closed'));
  useInboxCommand('snooze', () => {
    change.clear();
    setSnoozing(true);
  });
  // Enter or r: start writing (the composer's box is the conversation's; ids are unique on the page).
  useInboxCommand('reply', () => document.getElementById('composer-text')?.focus());

  return (
    <>
      <div class="status-controls" role="group" aria-label="Conversation status">
        {c.status !== 'open' ? (
          <Button busy={change.busy} onClick={() => to('open')} aria-keyshortcuts="o" title="Reopen (o)">
            Reopen
          </Button>
        ) : null}
        {c.status !== 'pending' ? (
          <Button busy={change.busy} onClick={() => to('pending')} aria-keyshortcuts="p" title="Mark as pending (p)">
            Pending
          </Button>
        ) : null}
        <Button
          busy={change.busy}
          aria-haspopup="dialog"
          aria-keyshortcuts="s"
          title="Snooze (s)"
          onClick={() => {
            change.clear();
            setSnoozing(true);
          }}
        >
          {c.status === 'snoozed' ? 'Snooze again…' : 'Snooze…'}
        </Button>
        {c.status !== 'closed' ? (
          <Button busy={change.busy} onClick={() => to('closed')} aria-keyshortcuts="e" title="Close (e)">
            Close
          </Button>
        ) : null}
      </div>
      {snoozing ? null : <ErrorNote error={change.error} />}
      {snoozing ? (
        <SnoozeDialog
          busy={change.busy}
          error={change.error}
          onClose={() => setSnoozing(false)}
          onSnooze={(until) => change.run({ status: 'snoozed', snoozed_until: until.toISOString() })}
        />
      ) : null}
    </>
  );
}
