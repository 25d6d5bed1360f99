import type { JSX } from 'preact';
import { Link } from '../router.js';
import { Button } from '../ui/kit.js';

/**
 * WhatsApp answered the scan (or the entered code) with its passkey check instead of linking
 * (status `state: passkey_required`). Said in plain words: what the phone showed, why this page
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
