import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import type { PasskeyLink, PasskeyStatus, SessionState } from '../api/types.js';
import { Link } from '../router.js';
import { useAction } from '../ui/hooks.js';
import { Button, ErrorNote, Loading, Notice } from '../ui/kit.js';

/**
 * WhatsApp answered the scan (or the entered code) with its passkey check instead of linking
 * (status `state: passkey_required` without `passkey`: the service's ceremony is off). Said in plain words: what the phone showed, why this page
 * cannot finish it, that nothing was kept, and what the person can do instead.
 */
export function PasskeyRequired({ isAdmin, busy, onRetry }: { isAdmin: boolean; busy: boolean; onRetry: () => void }): JSX.Element {
  return (
    <div class="note note-warning" role="alert" data-passkey-required>
      <h3>WhatsApp asks for a passkey</h3>
      <p>
        When the phone tried to link this number, WhatsApp asked for a passkey check instead of linking it. On the phone this shows as “Continue on WhatsApp
        Web” or “Create a passkey to log in”.
      </p>
      <p>
        That check only works with the passkey of the WhatsApp account, in a browser on WhatsApp’s own website. This page cannot do it yet, so the number was
        not linked and nothing of this attempt was kept.
      </p>
      <p>What you can do:</p>
      <ul>
        <li>
          Connect the number through the WhatsApp Cloud API instead: <Link href="/settings/cloud">Settings → Cloud API</Link>. A WhatsApp Business app number
          can keep using its app.
        </li>
        <li>Or try again later: WhatsApp does not ask every account for this every time.</li>
      </ul>
      {isAdmin ? (
        <Button busy={busy} onClick={onRetry}>
          Try again
        </Button>
      ) : null}
    </div>
  );
}

/** `expires_at` as the reader's clock shows it (hours and minutes). */
function clock(value: string): string {
  return new Date(value).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

/**
 * WhatsApp's passkey check, run by the service (status `passkey`, docs/passkey.md): the person
 * opens WhatsApp Web in a browser with the passkey extension, approves with the account's passkey,
 * then compares the code the phone shows with the one here. Owners and admins get the buttons;
 * other members see how far it got.
 */
export function PasskeyCheck({
  passkey,
  isAdmin,
  onConfirmed,
  onStopped,
}: {
  passkey: PasskeyStatus;
  isAdmin: boolean;
  /** The code was confirmed: WhatsApp links the number now. */
  onConfirmed: () => void;
  /** "It shows another code": the session was stopped, nothing is linked. */
  onStopped: (state: SessionState) => void;
}): JSX.Element {
  const [opened, setOpened] = useState<PasskeyLink | null>(null);
  const open = useAction(async () => {
    const link = await api.post<PasskeyLink>('/api/chat/passkey/link');
    window.open(link.url, '_blank', 'noopener');
    setOpened(link);
  });
  const confirm = useAction(async () => {
    await api.post('/api/chat/passkey/confirm', {});
    onConfirmed();
  });
  const stop = useAction(async () => onStopped(await api.post<SessionState>('/api/chat/stop')));
  const step = passkey.state;
  const deadline = (
    <p class="muted" data-passkey-expires={passkey.expires_at}>
      Finish by <time dateTime={passkey.expires_at}>{clock(passkey.expires_at)}</time>; after that WhatsApp gives up and you start again.
    </p>
  );
  const openButton = isAdmin ? (
    <>
      <div class="row">
        <Button variant={step === 'passkey_required' ? 'primary' : 'secondary'} busy={open.busy} onClick={() => void open.run()} data-passkey-open>
          Open WhatsApp Web
        </Button>
        <span class="muted">
          {opened ? 'Opened in a new tab. ' : ''}
          {opened || step !== 'passkey_required' ? 'Tab closed? Open it again:' : 'You may open it again later:'} a new link replaces the previous one.
        </span>
      </div>
      {opened ? (
        <p class="muted">
          No tab opened (the browser may block it)?{' '}
          <a href={opened.url} target="_blank" rel="noopener noreferrer">
            Use this link
          </a>
          .
        </p>
      ) : null}
    </>
  ) : null;

  return (
    <div class="note note-info passkey-check" data-passkey={step}>
      {step === 'passkey_required' ? (
        <>
          <h3>WhatsApp asks for a passkey check</h3>
          <p>
            The phone shows “Continue on WhatsApp Web”: before this number can link, WhatsApp wants the passkey of the account, used on WhatsApp’s own website.
          </p>
          <p>
            That needs a desktop browser (Chrome, Edge or Firefox) with the passkey extension of this service. Install it once from the folder{' '}
            <code>extensions/passkey</code> of the service’s repository (in Chrome or Edge: Extensions → Developer mode → Load unpacked); its README explains
            each browser.
          </p>
          <ol class="steps">
            <li>Click “Open WhatsApp Web”: WhatsApp’s website opens in a new tab.</li>
            <li>There, click “Continue with passkey” and approve with the account’s passkey (saved in the browser, or on the phone with “use a phone”).</li>
            <li>Come back here: the phone and this page then show a code to compare.</li>
          </ol>
          {openButton}
        </>
      ) : step === 'passkey_assertion' ? (
        <>
          <h3>Approve with your passkey</h3>
          <Loading label="Approve with your passkey in the WhatsApp Web tab… Then the phone shows a code, and this page the same code." />
          {openButton}
        </>
      ) : (
        <>
          <h3>Compare the codes</h3>
          <p>Does the phone show this code?</p>
          <p class="passkey-code" data-passkey-code>
            {passkey.code}
          </p>
          <p>Confirm only if it is the same. Another code means the phone is linking some other device: then stop, and nothing is linked.</p>
          {isAdmin ? (
            <div class="row">
              <Button variant="primary" busy={confirm.busy} disabled={stop.busy} onClick={() => void confirm.run()} data-passkey-confirm>
                Confirm
              </Button>
              <Button busy={stop.busy} disabled={confirm.busy} onClick={() => void stop.run()} data-passkey-mismatch>
                It shows another code
              </Button>
            </div>
          ) : (
            <p class="muted">An owner or admin of this workspace confirms the code here.</p>
          )}
        </>
      )}
      {deadline}
      <ErrorNote error={open.error ?? confirm.error ?? stop.error} />
    </div>
  );
}

/** After "It shows another code": said once, until the next try. */
export function PasskeyStopped(): JSX.Element {
  return (
    <Notice kind="warning">
      Stopped: nothing was linked. A different code on the phone means it was linking another device, not this one. Start again when you are ready.
    </Notice>
  );
}
