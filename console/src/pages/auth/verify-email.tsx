import type { JSX } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, type ApiError } from '../../api/client.js';
import { Link, usePlace } from '../../router.js';
import { useSession } from '../../session.js';
import { ErrorNote, Loading } from '../../ui/kit.js';
import { AuthFrame } from './auth-frame.js';

/** The page of the mailed `/verify-email?token=…` link: confirms the address at once. */
export function VerifyEmailPage(): JSX.Element {
  const { query } = usePlace();
  const { me, refresh } = useSession();
  const token = query.get('token') ?? '';
  const [state, setState] = useState<'working' | 'done' | ApiError>('working');
  const started = useRef(false);
  useEffect(() => {
    if (started.current || !token) return;
    started.current = true;
    api
      .post('/api/auth/verify-email', { token }, { quiet401: true })
      .then(async () => {
        setState('done');
        await refresh().catch(() => null);
      })
      .catch((error: ApiError) => setState(error));
  }, [token, refresh]);

  return (
    <AuthFrame title="Confirm your email">
      {!token ? (
        <ErrorNote>This link has no token. Open the link from the mail exactly as it was sent.</ErrorNote>
      ) : state === 'working' ? (
        <Loading label="Confirming your email address…" />
      ) : state === 'done' ? (
        <p class="note note-success" role="status">
          Your email address is confirmed.
        </p>
      ) : (
        <>
          <ErrorNote error={state} />
          <p>The link may have been used already or be older than 48 hours. Sign in to ask for a new one.</p>
        </>
      )}
      <p class="auth-links">{me ? <Link href="/">Go to the Console</Link> : <Link href="/login">Sign in</Link>}</p>
    </AuthFrame>
  );
}
