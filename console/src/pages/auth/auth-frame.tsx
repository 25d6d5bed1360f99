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

// The callback's failure codes (`/login?error=google&reason=<code>`), as sentences.
const GOOGLE_REASONS: Record<string, string> = {
  not_configured: 'Google sign-in is not configured on this server.',
  access_denied: 'Google sign-in was cancelled.',
  provider_error: 'Google could not complete the sign-in. Please try again.',
  flow_expired: 'The Google sign-in took too long or was opened twice. Please start again.',
  state_mismatch: 'The Google sign-in was started in another tab or was changed on the way. Please start again.',
  code_rejected: 'Google refused the sign-in (it may have been used already). Please start again.',
  invalid_token: 'Google’s answer could not be verified. Please start again.',
  email_missing: 'Google did not share an email address. Allow access to your email address and try again.',
  unavailable: 'Google cannot be reached right now. Please try again in a moment.',
};

/** The message for `/login?error=google&reason=<code>`, where Google's callback sends failures. */
export function googleFailure(query: URLSearchParams): string | null {
  if (query.get('error') !== 'google') return null;
  const reason = query.get('reason') ?? '';
  // An unknown code is named, but only as letters, digits and a few marks (it came in the URL).
  const shown = reason
    .replace(/[^\w.-]+/g, ' ')
    .trim()
    .slice(0, 60);
  return GOOGLE_REASONS[reason] ?? `Google sign-in did not work${shown ? ` (${shown})` : ''}. Please try again.`;
}
