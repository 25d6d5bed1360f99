import type { JSX } from 'preact';
import { api } from '../../api/client.js';
import type { ChatStatus, SessionState } from '../../api/types.js';
import { useLiveEvent } from '../../live.js';
import { Link } from '../../router.js';
import { useSession } from '../../session.js';
import { chatReason } from '../../ui/chat-state.js';
import { useLoad } from '../../ui/hooks.js';

/**
 * Above the composer of a conversation on the scan channel: says, before anyone types, that the
 * linked number is not connected (so a message cannot go out now), and why. It follows the session
 * live (`session.updated`): it goes once the number is connected, and comes back when it drops.
 */
export function ScanBanner(): JSX.Element | null {
  const { isAdmin } = useSession();
  const status = useLoad(() => api.get<ChatStatus>('/api/chat/status'), []);
  useLiveEvent<SessionState & { error?: string }>('session.updated', (state) => {
    status.set((previous) => ({ ...previous, ...state, jid: state.jid, error: state.error }));
  });

  const s = status.data;
  // Unknown (still loading, or the status could not be read): say nothing rather than guess.
  if (!s || s.connected) return null;
  const reason = s.error ? chatReason(s.error, s.logged_in ? 'Reconnect' : 'Show the QR code').reason : null;
  const what = !s.logged_in
    ? 'No WhatsApp number is linked, so messages cannot be sent from here.'
    : s.error
      ? 'The WhatsApp number is stopped, so messages cannot be sent from here.'
      : 'The WhatsApp number is reconnecting; messages can be sent once it is back.';
  return (
    <div class="note note-warning scan-banner" role="status" data-scan-banner>
      <strong>Not connected.</strong> {what}
      {reason ? ` ${reason}` : ''}{' '}
      {isAdmin ? (
        <Link href="/connect">{s.logged_in ? 'Connection details' : 'Link a number'}</Link>
      ) : (
        <span>An owner or admin can connect it on the WhatsApp page.</span>
      )}
    </div>
  );
}
