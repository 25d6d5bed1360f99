import type { JSX } from 'preact';
import { useEffect, useRef } from 'preact/hooks';
import { LiveProvider } from './live.js';
import { match, navigate, Redirect, usePlace } from './router.js';
import { ROUTES, type Route } from './routes.js';
import { SessionProvider, useSession } from './session.js';
import { Shell } from './shell.js';
import { Empty, Loading } from './ui/kit.js';
import { Link } from './router.js';

export function App(): JSX.Element {
  return (
    <SessionProvider>
      <Pages />
    </SessionProvider>
  );
}

function find(path: string): { route: Route; params: Record<string, string> } | null {
  for (const route of ROUTES) {
    const params = match(route.pattern, path);
    if (params) return { route, params };
  }
  return null;
}

function Pages(): JSX.Element {
  const place = usePlace();
  const { me, workspace } = useSession();
  const found = find(place.path);
  const main = useRef<HTMLElement>(null);

  // After a client-side navigation, move focus to the new page (screen readers announce it;
  // keyboard users start from its top).
  useEffect(() => {
    main.current?.focus({ preventScroll: true });
  }, [place.path]);

  if (me === undefined) return <Loading label="Loading the Console…" />;
  if (!found) {
    return (
      <Shell mainRef={main}>
        <Empty title="This page does not exist.">
          <Link href="/">Go to the overview</Link>
        </Empty>
      </Shell>
    );
  }
  const { route, params } = found;
  const Page = route.page;
  if (route.access === 'public') {
    return (
      <main ref={main} tabIndex={-1} class="auth-main">
        <Page params={params} />
      </main>
    );
  }
  if (!me) {
    const next = `${place.path}${window.location.search}`;
    return <Redirect to={`/login?next=${encodeURIComponent(next)}`} />;
  }
  if (route.access === 'workspace' && !workspace) return <Redirect to="/workspaces" />;
  return (
    <LiveProvider workspaceId={workspace?.id ?? null}>
      <Shell mainRef={main}>
        {/* A workspace page starts afresh in another workspace; a user page (accepting an invite,
            which adds a workspace) must not start again. */}
        <Page params={params} key={route.access === 'workspace' ? workspace?.id : route.pattern} />
      </Shell>
    </LiveProvider>
  );
}

/** Where to go after signing in: the `next` the sign-in page was sent with, if it is ours. */
export function afterSignIn(query: URLSearchParams): void {
  const next = query.get('next');
  navigate(next && next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
}
