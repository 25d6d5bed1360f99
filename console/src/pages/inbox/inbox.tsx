import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Member } from '../../api/types.js';
import { Link } from '../../router.js';
import { useLoad } from '../../ui/hooks.js';
import { Button, PageHeader } from '../../ui/kit.js';
import { ConversationList } from './conversation-list.js';
import { ConversationView } from './conversation-view.js';
import { NewConversation } from './new-conversation.js';

/** The inbox: the live conversation list beside the open conversation (one at a time on a phone). */
export function InboxPage({ params }: { params: Record<string, string> }): JSX.Element {
  const members = useLoad(() => api.get<Member[]>('/api/members'), []);
  const [starting, setStarting] = useState(false);
  const id = params.id;
  return (
    <section class={`inbox ${id ? 'has-conversation' : ''}`}>
      <div class="inbox-list">
        <PageHeader title="Inbox">
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
          </div>
        )}
      </div>
      {starting ? <NewConversation onClose={() => setStarting(false)} /> : null}
    </section>
  );
}

/** The name people know a member by. */
export function memberName(members: Member[], userId: string | null): string {
  if (!userId) return 'Unassigned';
  const member = members.find((m) => m.user_id === userId);
  return member ? member.name || member.email : 'Someone';
}
