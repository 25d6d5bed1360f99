import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Member } from '../../api/types.js';
import { Link } from '../../router.js';
import { useLoad } from '../../ui/hooks.js';
import { Button, PageHeader } from '../../ui/kit.js';
import { ConversationList } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';
import { useInboxCommand, useInboxKeys } from './inbox-commands.js';
import { NewConversation } from './new-conversation.js';
import { ShortcutsHelp } from './shortcuts-help.js';
import { SearchBox } from '../search/search-box.js';
import './inbox.css';

/**
 * The inbox: the conversation list beside the open conversation. On a phone (narrow screens) they
 * are two screens: the list, or one conversation with a way back.
 */
export function InboxPage({ params }: { params: Record<string, string> }): JSX.Element {
  const members = useLoad(() => api.get<Member[]>('/api/members'), []);
  const [starting, setStarting] = useState(false);
  const [help, setHelp] = useState(false);
  useInboxKeys();
  useInboxCommand('help', () => setHelp(true));
  const id = params.id;
  return (
    <section class={`inbox ${id ? 'has-conversation' : ''}`}>
      <div class="inbox-list">
        <PageHeader title="Inbox">
          <SearchBox />
          <Button class="shortcuts-button" aria-keyshortcuts="?" title="Keyboard shortcuts (?)" onClick={() => setHelp(true)}>
            <span aria-hidden="true">?</span>
            <span class="visually-hidden">Keyboard shortcuts</span>
          </Button>
          <Button variant="primary" onClick={() => setStarting(true)}>
            New conversation
          </Button>
        </PageHeader>
        <ConversationList selectedId={id} members={members.data ?? []} />
      </div>
      <div class="inbox-view">
        {id ? (
          <>
            <Link href="/inbox" class="back-link">
              ← All conversations
            </Link>
            <ConversationView key={id} id={id} members={members.data ?? []} />
          </>
        ) : (
          <div class="empty inbox-placeholder">
            <p class="empty-title">Choose a conversation</p>
            <p>New messages appear on the left as they arrive.</p>
            <p class="muted">
              Press <kbd>?</kbd> for the keyboard shortcuts.
            </p>
          </div>
        )}
      </div>
      {starting ? <NewConversation onClose={() => setStarting(false)} /> : null}
      {help ? <ShortcutsHelp onClose={() => setHelp(false)} /> : null}
    </section>
  );
}

/** The name people know a member by. */
export function memberName(members: Member[], userId: string | null): string {
  if (!userId) return 'Unassigned';
  const member = members.find((m) => m.user_id === userId);
  return member ? member.name || member.email : 'Someone';
}
