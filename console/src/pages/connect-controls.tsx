import type { JSX } from 'preact';
import { api } from '../api/client.js';
import type { SessionState } from '../api/types.js';
import { useAction } from '../ui/hooks.js';
import { Button, ErrorNote } from '../ui/kit.js';
import type { ChatSession } from './connect-details.js';

/**
 * An owner's or admin's buttons for a linked number: Reconnect (when not connected), Restart (a
 * new connection on the same keys, no QR code), Stop (the number stays linked; nothing arrives or
 * goes out until Reconnect), Disconnect (unlinks, after a confirmation).
 */
export function SessionControls({
  session,
  linking,
  reconnect,
  onChange,
  onDisconnect,
}: {
  session: ChatSession;
  linking: boolean;
  reconnect: { run: () => void; busy: boolean };
  /** The session state an action answered. */
  onChange: (state: Partial<ChatSession>) => void;
  onDisconnect: () => void;
}): JSX.Element {
  const stop = useAction(async () => onChange({ ...(await api.post<SessionState>('/api/chat/stop')), state: 'stopped', error: undefined }));
  const restart = useAction(async () => onChange({ ...(await api.post<SessionState>('/api/chat/restart')), error: undefined }));
  const stopped = session.state === 'stopped' && !session.error;
  return (
    <>
      <div class="row">
        {!session.connected && !linking ? (
          <Button variant="primary" busy={reconnect.busy} onClick={reconnect.run}>
            Reconnect
          </Button>
        ) : null}
        {session.connected ? (
          <Button busy={restart.busy} onClick={() => void restart.run()}>
            Restart
          </Button>
        ) : null}
        {!stopped && !session.error && !linking ? (
          <Button busy={stop.busy} onClick={() => void stop.run()}>
            Stop
          </Button>
        ) : null}
        <Button variant="danger" onClick={onDisconnect}>
          Disconnect
        </Button>
      </div>
      {stopped ? <p class="muted">Stopped: the number stays linked, but nothing arrives or goes out until you press “Reconnect”.</p> : null}
      <ErrorNote error={stop.error ?? restart.error} />
    </>
  );
}
