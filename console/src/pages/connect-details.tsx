import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import type { ChatEndpoint, ChatStatus, PasskeyStatus } from '../api/types.js';
import { useInterval } from '../ui/hooks.js';
import { CopyButton, ErrorNote, Notice, ProgressBar } from '../ui/kit.js';

/** The session's state by name (`GET /api/chat/status`), absent from older servers. */
export type ChatSessionState =
  'stopped' | 'starting' | 'qr' | 'pairing_code' | PasskeyStatus['state'] | 'connecting' | 'connected' | 'reconnecting' | 'logged_out' | 'failed';

/** The status as this page reads it: the flags, and the state by name with since when. */
export type ChatSession = ChatStatus & { state?: ChatSessionState; since?: string };

/** Seconds until `expiresAt` (RFC 3339), counted down every second; null without a time. */
export function useSecondsLeft(expiresAt: string | undefined): number | null {
  const [now, setNow] = useState(() => Date.now());
  useInterval(() => setNow(Date.now()), 1000, Boolean(expiresAt));
  const end = expiresAt ? Date.parse(expiresAt) : NaN;
  if (Number.isNaN(end)) return null;
  return Math.max(0, Math.ceil((end - now) / 1000));
}

/**
 * Under the QR code: how long it stays valid (`expires_at` of the QR endpoint). WhatsApp replaces
 * a code by a new one by itself a few times; a server without `expires_at` gets the plain caption.
 */
export function QrCountdown({ expiresAt }: { expiresAt?: string }): JSX.Element {
  const left = useSecondsLeft(expiresAt);
  if (left === null) return <figcaption>The code refreshes by itself while you scan.</figcaption>;
  return (
    <figcaption>
      <span role="timer" class="qr-countdown" data-seconds={left}>
        {left > 0 ? `This code is valid for ${left} more second${left === 1 ? '' : 's'}.` : 'This code is no longer valid; a new one follows…'}
      </span>{' '}
      A new code replaces it by itself while you scan.
    </figcaption>
  );
}

/**
 * Which WhatsApp server the service talks to (`WA_WEBSOCKET_URL`), and on a development server
 * how to link a number without a phone: the project's WhatsApp simulator.
 */
export function EndpointCard({
  endpoint,
  code,
  pairingCode,
  isAdmin,
}: {
  endpoint?: ChatEndpoint;
  code?: string;
  /** A pairing code this page shows: the simulator's phone can enter it. */
  pairingCode?: string;
  isAdmin: boolean;
}): JSX.Element | null {
  if (!endpoint) return null;
  return (
    <div class="card" aria-labelledby="endpoint-title">
      <h2 id="endpoint-title">WhatsApp server</h2>
      <p>
        This service connects to{' '}
        <code class="break" data-endpoint>
          {endpoint.url}
        </code>{' '}
        {endpoint.default ? "(WhatsApp's own server)." : "— not WhatsApp's own server (WA_WEBSOCKET_URL points elsewhere, e.g. to a simulator)."}
      </p>
      {endpoint.development && isAdmin ? (
        <Notice>
          <p class="dev-hint">
            <strong>Development server.</strong>{' '}
            {endpoint.default ? (
              <>
                No phone at hand? Run the WhatsApp simulator with <code>npm run sim</code> (see <code>docs/whatsapp-sim.md</code>), put the local-demo settings
                its banner prints (<code>WA_WEBSOCKET_URL</code> and the lines with it) in the service’s <code>.env</code>, and restart the service.
              </>
            ) : pairingCode ? (
              <>
                If this is the WhatsApp simulator (<code>npm run sim</code>, see <code>docs/whatsapp-sim.md</code>), no phone is needed: hand the number and the
                pairing code above to its pairing-code command, and its simulated phone enters it.
              </>
            ) : (
              <>
                If this is the WhatsApp simulator (<code>npm run sim</code>, see <code>docs/whatsapp-sim.md</code>), no phone is needed: hand
                {code ? ' the code below ' : ' the QR code’s text (shown here while a code waits) '}to its scan command, and its simulated phone links a number.
              </>
            )}
          </p>
          {code && !endpoint.default ? (
            <div class="secret-row">
              <code class="secret-value" data-qr-text>
                {code}
              </code>
              <CopyButton text={code} label="Copy the code" />
            </div>
          ) : null}
        </Notice>
      ) : null}
    </div>
  );
}

/** A reason the session stopped, with what to press about it. */
export function ProblemNote({ problem }: { problem: { reason: string; hint: string | null } }): JSX.Element {
  return (
    <ErrorNote>
      {problem.reason}
      {problem.hint ? ` ${problem.hint}` : ''}
    </ErrorNote>
  );
}

/** The history sync of a linked number: running (with its progress) or done. */
export function SyncState({ sync }: { sync: ChatStatus['sync'] }): JSX.Element | null {
  if (!sync || sync.state === 'idle') return null;
  if (sync.state === 'done') return <p class="muted">Chat history synced.</p>;
  return (
    <div>
      <p>Syncing the chat history from the phone…</p>
      <ProgressBar value={sync.progress} label="History sync" />
    </div>
  );
}
