import type { ComponentChildren, JSX, RefObject } from 'preact';
import { useState } from 'preact/hooks';
import { api } from './api/client.js';
import { useLiveState } from './live.js';
import { Link, navigate, usePlace } from './router.js';
import { useSession } from './session.js';
import { useAction } from './ui/hooks.js';
import { Button, ErrorNote } from './ui/kit.js';

const NAV: { href: string; label: string }[] = [
  { href: '/', label: 'Overview' },
  { href: '/inbox', label: 'Inbox' },
  { href: '/mentions', label: 'Mentions' },
  { href: '/search', label: 'Search' },
  { href: '/contacts', label: 'Contacts' },
  { href: '/connect', label: 'WhatsApp' },
  { href: '/templates', label: 'Templates' },
  { href: '/automations', label: 'Automations' },
  { href: '/knowledge', label: 'Knowledge' },
  // Owners and admins only (the service refuses agents): filtered below.
  { href: '/reports', label: 'Reports' },
  { href: '/settings', label: 'Settings' },
];

function isCurrent(href: string, path: string): boolean {
  return href === '/' ? path === '/' : path === href || path.startsWith(`${href}/`);
}

/** The frame of every signed-in page: workspace switcher, navigation, account, live state. */
export function Shell({ mainRef, children }: { mainRef: RefObject<HTMLElement | null>; children: ComponentChildren }): JSX.Element {
  const { me, workspace, selectWorkspace, signedOut, isAdmin } = useSession();
  const { path } = usePlace();
  const [menuOpen, setMenuOpen] = useState(false);
  const live = useLiveState();
  const signOut = useAction(async () => {
    await api.post('/api/auth/logout');
    signedOut();
    navigate('/login', { replace: true });
  });

  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to content
      </a>
      <header class="topbar">
        <Link href="/" class="brand">
          WhatsApp Inbox
        </Link>
        {me && me.workspaces.length > 0 ? (
          <div class="switcher">
            <label for="workspace-switcher" class="visually-hidden">
              Workspace
            </label>
            <select
              id="workspace-switcher"
              value={workspace?.id ?? ''}
              onChange={(event) => {
                const value = event.currentTarget.value;
                if (value === '__manage') navigate('/workspaces');
                else selectWorkspace(value);
              }}
            >
              {me.workspaces.map((w) => (
                <option key={w.id} value={w.id}>
                  {w.name}
                </option>
              ))}
              <option value="__manage">New or other workspace…</option>
            </select>
          </div>
        ) : null}
        <span class={`live-dot live-${live}`} title={`Live updates: ${live}`} role="status" aria-label={`Live updates ${live}`} />
        <button type="button" class="menu-toggle btn btn-secondary" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen(!menuOpen)}>
          Menu
        </button>
        <div class="account">
          <span class="account-name" title={me?.user.email}>
            {me?.user.name}
          </span>
          <Button variant="link" busy={signOut.busy} onClick={() => void signOut.run()}>
            Sign out
          </Button>
        </div>
      </header>
      <nav id="main-nav" class={`sidenav ${menuOpen ? 'open' : ''}`} aria-label="Main">
        <ul>
          {NAV.filter((item) => (workspace || item.href === '/') && (item.href !== '/reports' || isAdmin)).map((item) => (
            <li key={item.href}>
              <Link href={item.href} aria-current={isCurrent(item.href, path) ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
                {item.label}
              </Link>
            </li>
          ))}
          <li>
            <Link href="/workspaces" aria-current={path === '/workspaces' ? 'page' : undefined} onClick={() => setMenuOpen(false)}>
              Workspaces
            </Link>
          </li>
        </ul>
      </nav>
      <main id="main" ref={mainRef} tabIndex={-1} class="content">
        <ErrorNote error={signOut.error} />
        {me && !me.user.email_verified ? <VerifyBanner email={me.user.email} /> : null}
        {children}
      </main>
    </div>
  );
}

function VerifyBanner({ email }: { email: string }): JSX.Element {
  const [sent, setSent] = useState(false);
  const resend = useAction(async () => {
    await api.post('/api/auth/resend-verification', { email });
    setSent(true);
  });
  return (
    <div class="note note-warning banner">
      <span>
        Please confirm your email address: we sent a link to <strong>{email}</strong>.
      </span>{' '}
      {sent ? (
        <span role="status">A new link is on its way.</span>
      ) : (
        <Button variant="link" busy={resend.busy} onClick={() => void resend.run()}>
          Send the link again
        </Button>
      )}
      <ErrorNote error={resend.error} />
    </div>
  );
}
