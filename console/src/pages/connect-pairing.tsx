import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { api } from '../api/client.js';
import { useAction } from '../ui/hooks.js';
import { Button, ErrorNote, Field } from '../ui/kit.js';
import { useSecondsLeft } from './connect-details.js';

/** The answer of `POST /api/chat/pairing-code`. */
export interface PairingCode {
  code: string;
  expires_at: string | null;
}

/**
 * "Link with a code instead": for a phone that cannot scan (it is the only screen, its camera
 * fails). The person gives the number, gets an eight-character code, and types it on the phone.
 * `pairing`: the code this page got (a reloaded page no longer has it: it offers a new one).
 */
export function PairingCodeLink({
  pairing,
  waiting,
  onCode,
  onCancel,
  cancelling,
}: {
  pairing: PairingCode | null;
  /** The session waits for a code to be entered (status `pairing_code`). */
  waiting: boolean;
  onCode: (pairing: PairingCode) => void;
  /** Back to the QR code: ends the pending session. */
  onCancel: () => void;
  cancelling: boolean;
}): JSX.Element {
  const [open, setOpen] = useState(false);
  const [phone, setPhone] = useState('');
  const request = useAction(async () => onCode(await api.post<PairingCode>('/api/chat/pairing-code', { phone })));

  if (pairing) {
    return (
      <div class="pairing-code" data-pairing>
        <p>On the phone, open WhatsApp → Settings → Linked devices → Link a device → “Link with phone number instead”, and type this code:</p>
        <p class="big-number" data-pairing-code>
          {pairing.code}
        </p>
        <CodeCountdown expiresAt={pairing.expires_at} />
        <div class="row">
          <Button busy={request.busy} onClick={() => void request.run()}>
            Get a new code
          </Button>
          <Button busy={cancelling} onClick={onCancel}>
            Use a QR code instead
          </Button>
        </div>
        <ErrorNote error={request.error} />
      </div>
    );
  }
  if (!open && !waiting) {
    return (
      <Button variant="link" onClick={() => setOpen(true)}>
        Link with a code instead
      </Button>
    );
  }
  return (
    <form
      class="pairing-code"
      data-pairing
      onSubmit={(event) => {
        event.preventDefault();
        void request.run();
      }}
    >
      {waiting ? <p>A pairing code was asked for and waits to be typed on the phone; it is not shown here any more. Get a new one:</p> : null}
      <Field
        label="Phone number of the WhatsApp account"
        hint="With the country code, e.g. +49 151 2345678. The code only works on this number's phone."
        type="tel"
        autocomplete="tel"
        value={phone}
        onInput={(event) => setPhone(event.currentTarget.value)}
        required
      />
      <div class="row">
        <Button variant="primary" type="submit" busy={request.busy}>
          Get a code
        </Button>
        {waiting ? (
          <Button busy={cancelling} onClick={onCancel}>
            Use a QR code instead
          </Button>
        ) : (
          <Button onClick={() => setOpen(false)}>Back to the QR code</Button>
        )}
      </div>
      <ErrorNote error={request.error} />
    </form>
  );
}

function CodeCountdown({ expiresAt }: { expiresAt: string | null }): JSX.Element | null {
  const left = useSecondsLeft(expiresAt ?? undefined);
  if (left === null) return null;
  return (
    <p role="timer" class="muted" data-seconds={left}>
      {left > 0 ? `The code works for ${left} more second${left === 1 ? '' : 's'}.` : 'The code is no longer valid; get a new one.'}
    </p>
  );
}
