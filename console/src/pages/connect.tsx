import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { ChatStatus, QrState, SessionState, SyncProgress } from '../api/types.js';
import { useLiveEvent } from '../live.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { useAction, useInterval, useLoad } from '../ui/hooks.js';
import { Badge, Button, Confirm, ErrorNote, Loading, Notice, PageHeader, phoneOfJid, ProgressBar } from '../ui/kit.js';

// WhatsApp rotates the code every ~20 s (the first lasts ~60 s): poll a little faster than that.
const QR_POLL_MS = 3000;

/** Link a number by QR (scan channel), watch its connection and history sync, unlink it. */
export function ConnectPage(): JSX.Element {
  const { isAdmin } = useSession();
  const status = useLoad(() => api.get<ChatStatus>('/api/chat/status'), []);
  const [qr, setQr] = useState<QrState | null>(null);
  const [confirming, setConfirming] = useState(false);
  const s = status.data;

  const loadQr = async (): Promise<void> => {
    const next = await api.get<QrState>('/api/chat/qr');
    setQr(next);
    // No code any more: scanned (the status tells), or expired.
    if (!next.pending) await status.reload();
  };

  const connect = useAction(async () => {
    setQr(null);
    const state = await api.post<SessionState>('/api/chat/connect');
    status.set((previous) => ({ ...previous, ...state, error: undefined }));
    if (state.qr_pending) await loadQr();
  });
  const disconnect = useAction(async () => {
    const state = await api.post<SessionState>('/api/chat/disconnect');
    setQr(null);
    status.set((previous) => ({ ...previous, ...state, jid: undefined, sync: undefined }));
  });

  useLiveEvent<SessionState & { error?: string }>('session.updated', (state) => {
    status.set((previous) => ({ ...previous, ...state, jid: state.jid, error: state.error }));
    // The code is gone: scanned (logged in), or expired, which only the QR endpoint tells.
    if (!state.qr_pending && !state.logged_in) void loadQr().catch(() => undefined);
    else if (!state.qr_pending) setQr(null);
  });
  useLiveEvent<SyncProgress>('sync.progress', (progress) => {
    status.set((previous) => previous && { ...previous, sync: { state: progress.done ? 'done' : 'running', progress: progress.progress } });
  });

  // On arrival without a linked number, ask the QR endpoint: it says whether the last code expired.
  useEffect(() => {
    if (s && !s.logged_in && qr === null) void loadQr().catch(() => undefined);
  }, [s?.logged_in]);

  useInterval(() => void loadQr().catch(() => undefined), QR_POLL_MS, Boolean(s?.qr_pending));

  if (status.loading && !s) return <Loading />;
  const expired = !s?.logged_in && !s?.qr_pending && Boolean(qr?.error?.includes('expired'));
  const number = phoneOfJid(s?.jid);

  return (
    <section>
      <PageHeader title="WhatsApp" />
      <ErrorNote error={status.error} />
      {s?.logged_in ? (
        <div class="card">
          <h2>Linked number</h2>
          <p class="big-number">{number || 'Linked'}</p>
          <p>
            {s.connected ? (
              <Badge kind="success">Connected</Badge>
            ) : s.error ? (
              <Badge kind="danger">Stopped</Badge>
            ) : (
              <Badge kind="warning">Reconnecting…</Badge>
            )}
          </p>
          {s.error ? <ErrorNote>{s.error}</ErrorNote> : null}
          <SyncState sync={s.sync} />
          {isAdmin ? (
            <div class="row">
              {!s.connected ? (
                <Button variant="primary" busy={connect.busy} onClick={() => void connect.run()}>
                  Reconnect
                </Button>
              ) : null}
              <Button variant="danger" onClick={() => setConfirming(true)}>
                Disconnect
              </Button>
            </div>
          ) : null}
        </div>
      ) : (
        <div class="card">
          <h2>Link a WhatsApp number</h2>
          <ol class="steps">
            <li>Open WhatsApp on the phone of the number.</li>
            <li>Go to Settings → Linked devices → Link a device.</li>
            <li>Point the phone at the QR code below.</li>
          </ol>
          {/* A connect that failed (WhatsApp unreachable) answers the same text the status then carries: shown once. */}
          {s?.error && !expired && s.error !== connect.error?.message ? <ErrorNote>{s.error}</ErrorNote> : null}
          {connect.busy ? <Loading label="Starting the session and waiting for the first QR code…" /> : null}
          {s?.qr_pending && qr?.pending && qr.image ? (
            <figure class="qr">
              <img src={qr.image} width={256} height={256} alt="QR code to link WhatsApp (scan it with the phone)" data-qr={qr.code} />
              <figcaption>The code refreshes by itself while you scan.</figcaption>
            </figure>
          ) : s?.qr_pending && !connect.busy ? (
            <Loading label="Waiting for the QR code…" />
          ) : null}
          {expired ? <Notice kind="warning">The QR code expired — try again.</Notice> : null}
          {isAdmin ? (
            !s?.qr_pending && !connect.busy ? (
              <Button variant="primary" busy={connect.busy} onClick={() => void connect.run()}>
                {expired ? 'Try again' : 'Show the QR code'}
              </Button>
            ) : null
          ) : (
            <Notice>Only owners and admins can link a number. Ask one of them.</Notice>
          )}
          <ErrorNote error={connect.error} />
        </div>
      )}
      {isAdmin ? (
        <p class="muted">
          A number on Meta's WhatsApp Cloud API connects without a phone: <Link href="/settings/cloud">Settings → Cloud API</Link>.
        </p>
      ) : null}
      {confirming ? (
        <Confirm
          title="Disconnect this number?"
          confirmLabel="Disconnect"
          busy={disconnect.busy}
          error={disconnect.error}
          onConfirm={() => disconnect.run()}
          onClose={() => setConfirming(false)}
        >
          <p>
            {number || 'The number'} is unlinked: the phone drops this device, and messages stop arriving here. Conversations stay. Linking
            again needs a new QR code.
          </p>
        </Confirm>
      ) : null}
    </section>
  );
}

function SyncState({ sync }: { sync: ChatStatus['sync'] }): JSX.Element | null {
  if (!sync || sync.state === 'idle') return null;
  if (sync.state === 'done') return <p class="muted">Chat history synced.</p>;
  return (
    <div>
      <p>Syncing the chat history from the phone…</p>
      <ProgressBar value={sync.progress} label="History sync" />
    </div>
  );
}
