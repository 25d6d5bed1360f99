import type { ComponentChildren, JSX } from 'preact';
import { useEffect } from 'preact/hooks';
import { api } from '../../api/client.js';
import type { Providers } from '../../api/types.js';
import { useLoad } from '../../ui/hooks.js';

/** The centred card of the signed-out pages. */
export function AuthFrame({ title, children }: { title: string; children: ComponentChildren }): JSX.Element {
  useEffect(() => {
    document.title = `${title} · WhatsApp Inbox`;
  }, [title]);
  return (
    <div class="auth-card">
      <p class="brand">WhatsApp Inbox</p>
      <h1>{title}</h1>
      {children}
    </div>
  );
}

/** "Continue with Google", when the service has Google sign-in configured. */
export function GoogleButton(): JSX.Element | null {
  const providers = useLoad(() => api.get<Providers>('/api/auth/providers', { quiet401: true }), []);
  if (!providers.data?.google) return null;
  return (
    <div class="oauth">
      <a class="btn btn-secondary btn-block" href="/api/auth/google/start">
        Continue with Google
      </a>
      <p class="divider">
        <span>or</span>
      </p>
    </div>
  );
}

const GOOGLE_REASONS: Record<string, string> = {
  access_denied: 'Google sign-in was cancelled.',
  cancelled: 'Google sign-in was cancelled.',
  state: 'The Google sign-in expired or was started in another tab. Please try again.',
  invalid_state: 'The Google sign-in expired or was started in another tab. Please try again.',
  expired: 'The Google sign-in expired. Please try again.',
  email_unverified: 'Google has not verified this email address, so it cannot be used to sign in here.',
  unverified_email: 'Google has not verified this email address, so it cannot be used to sign in here.',
  not_configured: 'Google sign-in is not configured on this server.',
};

/** The message for `/login?error=google&reason=<code>`, where Google's callback sends failures. */
export function googleFailure(query: URLSearchParams): string | null {
  if (query.get('error') !== 'google') return null;
  const reason = query.get('reason') ?? '';
  return GOOGLE_REASONS[reason] ?? `Google sign-in did not work${reason ? ` (${reason.replace(/[^\w.-]/g, ' ').slice(0, 60)})` : ''}. Please try again.`;
}
