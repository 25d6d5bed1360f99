import type { JSX } from 'preact';
import { api } from '../api/client.js';
import type { Mention } from '../api/team-types.js';
import { useLiveEvent } from '../live.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { useLoad } from '../ui/hooks.js';
import { Empty, ErrorNote, Loading, PageHeader, Time } from '../ui/kit.js';
import './inbox/notes.css';

/** The private notes that mention the signed-in member, newest first; each opens its conversation. */
export function MentionsPage(): JSX.Element {
  const { me } = useSession();
  const mentions = useLoad(() => api.get<Mention[]>('/api/notes/mentions'), []);
  // A new note naming me: the list's shape (with the chat name) comes from the route.
  useLiveEvent<{ mentions: string[] }>('note.created', (note) => {
    if (me && note.mentions.includes(me.user.id)) void mentions.reload();
  });
  const list = mentions.data ?? [];
  return (
    <section>
      <PageHeader title="Mentions" />
      <ErrorNote error={mentions.error} />
      {mentions.loading && !mentions.data ? (
        <Loading />
      ) : list.length === 0 ? (
        <Empty title="Nobody has mentioned you yet.">When a teammate writes @your name in a private note, it shows up here.</Empty>
      ) : (
        <ul class="mention-list" aria-label="Notes that mention you">
          {list.map((m) => (
            <li key={m.id} class="note-bubble mention" data-note={m.id}>
              <span class="note-bubble-head">
                <span class="note-bubble-author">{m.author_name}</span> in{' '}
                <Link href={`/inbox/${m.conversation_id}`} class="mention-chat">
                  {m.chat_name || 'a conversation'}
                </Link>{' '}
                · <Time value={m.created_at} relative />
              </span>
              <p class="bubble-text">{m.body}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
