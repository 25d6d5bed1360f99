import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ROUTE_CLAUSE, type ApiError } from '../api/client.js';
import type { QrState, SessionState, SyncProgress } from '../api/types.js';
import { useLiveEvent } from '../live.js';
import { Link } from '../router.js';
import { useSession } from '../session.js';
import { chatReason, isConnectFirst, isQrExpired, isQrScanned } from '../ui/chat-state.js';
import { useAction, useInterval, useLoad } from '../ui/hooks.js';
import { Badge, Button, Confirm, ErrorNote, Loading, Notice, PageHeader, phoneOfJid } from '../ui/kit.js';
import { SessionControls } from './connect-controls.js';
import { type ChatSession, EndpointCard, ProblemNote, QrCountdown, SyncState } from './connect-details.js';
import { type PairingCode, PairingCodeLink } from './connect-pairing.js';
import { PasskeyCheck, PasskeyRequired, PasskeyStopped } from './connect-passkey.js';

// WhatsApp rotates the code every ~20 s (the first lasts ~60 s): poll a little faster than that.
const QR_POLL_MS = 3000;
// "Scanned, linking…" without a linked number yet lasts at most this long: then the page believes
// the status again (the code may have gone for another reason, e.g. cancelled in another tab).
const LINKING_MAX_MS = 60_000;

/** Link a number by QR or pairing code (scan channel), watch its connection and history sync, stop, restart or unlink it. */
export function ConnectPage(): JSX.Element {
  const { isAdmin } = useSession();
  const status = useLoad(() => api.get<ChatSession>('/api/chat/status'), []);
  const [qr, setQr] = useState<QrState | null>(null);
  // The pairing code this page asked for (only the answer of that request carries it).
  const [pairing, setPairing] = useState<PairingCode | null>(null);
  const [confirming, setConfirming] = useState(false);
  // Between the scan and `connected`: the service says the number is linked but not connected yet
  // and its QR endpoint that the code was scanned; or (a service that does not say so) the code
  // went away without an error, right after it was waiting here.
  const [linking, setLinking] = useState(false);
  // This page stopped a passkey check whose codes differed (said while stopped).
  const [refused, setRefused] = useState(false);
  // A code was waiting in this page (so a code that goes away may have been scanned)…
  const sawCode = useRef(false);
  // …unless it went away because this page cancelled it.
  const cancelled = useRef(false);
  const s = status.data;

  const loadQr = async (): Promise<void> => {
    const next = await api.get<QrState>('/api/chat/qr');
    setQr(next);
    if (next.pending) sawCode.current = true;
    // No code any more: scanned (the status tells), or expired.
    if (!next.pending) await status.reload();
  };

  const connect = useAction(async () => {
    setQr(null);
    setRefused(false);
    cancelled.current = false;
    const state = await api.post<SessionState>('/api/chat/connect');
    status.set((previous) => ({ ...previous, ...state, error: undefined }));
    if (state.qr_pending) await loadQr();
  });
  const gotCode = (code: PairingCode): void => {
    setQr(null);
    sawCode.current = false;
    cancelled.current = false;
    setPairing(code);
    status.set((previous) => previous && { ...previous, state: 'pairing_code', qr_pending: false, error: undefined });
  };
  const disconnect = useAction(async () => {
    const state = await api.post<SessionState>('/api/chat/disconnect');
    setQr(null);
    status.set((previous) => ({ ...previous, ...state, jid: undefined, sync: undefined }));
  });
  // Stops waiting for a scan. For a number that is not linked, disconnect ends the pending session
  // and drops the keys generated for this code (nothing on a phone refers to them); the next
  // "Show the QR code" starts afresh. That is all a cancel needs: no code left to scan.
  const cancel = useAction(async () => {
    cancelled.current = true;
    sawCode.current = false;
    const state = await api.post<SessionState>('/api/chat/disconnect');
    setQr(null);
    setPairing(null);
    status.set((previous) => ({ ...previous, ...state, state: 'stopped', error: undefined, jid: undefined }));
  });

  const stoppedCheck = (state: SessionState): void => {
    setRefused(true);
    status.set((previous) => ({ ...previous, ...state, state: 'stopped', error: undefined, passkey: null, jid: undefined }));
  };

  useLiveEvent<ChatSession>('session.updated', (state) => {
    status.set((previous) => ({ ...previous, ...state, jid: state.jid, error: state.error, passkey: state.passkey }));
    // The code is gone: scanned (logged in), or expired, which only the QR endpoint tells.
    if (!state.qr_pending && !state.logged_in) void loadQr().catch(() => undefined);
    else if (!state.qr_pending) setQr(null);
  });
  useLiveEvent<SyncProgress>('sync.progress', (progress) => {
    status.set((previous) => previous && { ...previous, sync: { state: progress.done ? 'done' : 'running', progress: progress.progress } });
  });

  // On arrival without a linked number, ask the QR endpoint: it says whether the last code expired;
  // with a number linked but not connected, whether its code was just scanned (still linking).
  useEffect(() => {
    if (s && (!s.logged_in || (!s.connected && !s.error)) && qr === null) void loadQr().catch(() => undefined);
  }, [s?.logged_in, s?.connected]);

  // The code this page showed is done with once the session waits for none (entered, expired, cancelled).
  useEffect(() => {
    if (pairing && s?.state && s.state !== 'pairing_code') setPairing(null);
    if (s?.state !== 'stopped') setRefused(false);
  }, [s?.state]);

  // Scanned, linking: the state comes from the status and the QR endpoint together.
  useEffect(() => {
    if (!s) return;
    if (s.connected || s.error || s.qr_pending || cancelled.current || s.state === 'pairing_code' || s.state === 'stopped') {
      setLinking(false);
      if (s.connected || s.error) sawCode.current = false;
    } else if ((s.logged_in && isQrScanned(qr?.error)) || (!s.logged_in && s.state === 'connecting')) {
      // Scanned; or (not linked yet, yet connecting) the passkey check's code was confirmed.
      setLinking(true);
    } else if (sawCode.current && (s.logged_in || (qr && !qr.pending && isConnectFirst(qr.error)))) {
      setLinking(true);
    }
  }, [s, qr]);
  useEffect(() => {
    if (!linking || s?.logged_in) return undefined;
    const timer = window.setTimeout(() => {
      sawCode.current = false;
      setLinking(false);
    }, LINKING_MAX_MS);
    return () => window.clearTimeout(timer);
  }, [linking, s?.logged_in]);

  useInterval(() => void loadQr().catch(() => undefined), QR_POLL_MS, Boolean(s?.qr_pending));
  // While linking, the status may change without an event reaching this page first (a reconnecting stream).
  useInterval(() => void status.reload(), QR_POLL_MS, linking);

  if (status.loading && !s) return <Loading />;
  const expired = !s?.logged_in && !s?.qr_pending && isQrExpired(qr?.error);
  const number = phoneOfJid(s?.jid);
  const startLabel = expired || connect.error ? 'Try again' : 'Show the QR code';
  const waiting = Boolean(s?.qr_pending) && !linking;

  // One reason, said once: a failed connect answers the text the status then carries too (e.g.
  // WhatsApp unreachable), and the QR endpoint repeats it. The API's "connect first" and
  // "expired" answers are states this page shows in its own words.
  const apiText = connect.error ? actionText(connect.error) : s?.error;
  // WhatsApp's passkey check: run here (the service's ceremony), or a dead end (without it).
  const ceremony = connect.error ? null : (s?.passkey ?? null);
  const passkey = s?.state === 'passkey_required' && !ceremony && !connect.error;
  const held = passkey || Boolean(ceremony);
  const codeMode = Boolean(pairing) || s?.state === 'pairing_code';
  const button = s?.logged_in ? 'Reconnect' : apiText && /pairing code/i.test(apiText) ? 'Link with a code instead' : startLabel;
  // The passkey check has its own explanation below.
  let problem = apiText && !held && !isConnectFirst(apiText) && !isQrExpired(apiText) ? chatReason(apiText, button) : null;
  // Out of reach: the server it tried is on this page.
  if (problem && s?.endpoint && /^could not reach WhatsApp/i.test(apiText!)) {
    problem = { ...problem, hint: `Check that the WhatsApp server below is up, then press “${button}”.` };
  }

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
            ) : s.state === 'stopped' && !s.error ? (
              <Badge kind="neutral">Stopped</Badge>
            ) : s.error ? (
              <Badge kind="danger">Stopped</Badge>
            ) : linking ? (
              <Badge kind="warning">Scanned, linking…</Badge>
            ) : (
              <Badge kind="warning">Reconnecting…</Badge>
            )}
          </p>
          {problem ? <ProblemNote problem={problem} /> : null}
          {linking ? <Loading label="Scanned. Linking the number; this takes a few seconds…" /> : null}
          <SyncState sync={s.sync} />
          {isAdmin ? (
            <SessionControls
              session={s}
              linking={linking}
              reconnect={{ run: () => void connect.run(), busy: connect.busy }}
              onChange={(state) => status.set((previous) => previous && { ...previous, ...state })}
              onDisconnect={() => setConfirming(true)}
            />
          ) : null}
        </div>
      ) : (
        <div class="card">
          <h2>Link a WhatsApp number</h2>
          <p>
            {linking ? (
              <Badge kind="warning">Scanned, linking…</Badge>
            ) : waiting ? (
              <Badge kind="warning">Waiting for the scan</Badge>
            ) : codeMode ? (
              <Badge kind="warning">Waiting for the code</Badge>
            ) : ceremony ? (
              <Badge kind="warning">Passkey check</Badge>
            ) : (
              <Badge kind={problem || passkey ? 'danger' : 'neutral'}>Not linked</Badge>
            )}
          </p>
          {problem ? <ProblemNote problem={problem} /> : null}
          {passkey ? <PasskeyRequired isAdmin={isAdmin} busy={connect.busy} onRetry={() => void connect.run()} /> : null}
          {ceremony ? <PasskeyCheck passkey={ceremony} isAdmin={isAdmin} onConfirmed={() => void status.reload()} onStopped={stoppedCheck} /> : null}
          {refused && s?.state === 'stopped' && !connect.busy ? <PasskeyStopped /> : null}
          {codeMode || held ? null : (
            <ol class="steps">
              <li>Open WhatsApp on the phone of the number.</li>
              <li>Go to Settings → Linked devices → Link a device.</li>
              <li>Point the phone at the QR code below.</li>
            </ol>
          )}
          {connect.busy ? <Loading label="Starting the session and waiting for the first QR code…" /> : null}
          {linking ? (
            <Loading label="Scanned. Linking the number; this takes a few seconds…" />
          ) : waiting && qr?.pending && qr.image ? (
            <figure class="qr">
              <img src={qr.image} width={256} height={256} alt="QR code to link WhatsApp (scan it with the phone)" data-qr={qr.code} />
              <QrCountdown expiresAt={qr.expires_at} />
            </figure>
          ) : waiting && !connect.busy ? (
            <Loading label="Waiting for the QR code…" />
          ) : null}
          {expired ? <Notice kind="warning">The QR code expired — try again.</Notice> : null}
          {isAdmin && !linking && !held ? (
            <PairingCodeLink
              pairing={pairing}
              waiting={s?.state === 'pairing_code'}
              onCode={gotCode}
              onCancel={() => void cancel.run()}
              cancelling={cancel.busy}
            />
          ) : null}
          {isAdmin ? (
            codeMode || held ? null : !s?.qr_pending && !connect.busy && !linking ? (
              <Button variant="primary" busy={connect.busy} onClick={() => void connect.run()}>
                {startLabel}
              </Button>
            ) : waiting ? (
              <div class="row">
                <Button busy={cancel.busy} onClick={() => void cancel.run()}>
                  Cancel
                </Button>
                <span class="muted">Stops waiting for the scan; nothing changes on the phone.</span>
              </div>
            ) : null
          ) : (
            <Notice>Only owners and admins can link a number. Ask one of them.</Notice>
          )}
          <ErrorNote error={cancel.error} />
        </div>
      )}
      <EndpointCard endpoint={s?.endpoint} code={waiting && qr?.pending ? qr.code : undefined} pairingCode={pairing?.code} isAdmin={isAdmin} />
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
            {number || 'The number'} is unlinked: the phone drops this device, and messages stop arriving here. Conversations stay. Linking again needs a new QR
            code.
          </p>
        </Confirm>
      ) : null}
    </section>
  );
}

/** A failed action's text: the service's own when it names a route (the hint says which button), else the readable sentence. */
function actionText(error: ApiError): string {
  const raw = error.body.error;
  return typeof raw === 'string' && ROUTE_CLAUSE.test(raw) ? raw : error.message;
}
