import type { AnchorHTMLAttributes, ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

// A small history router: the service answers index.html on every Console route
// (src/infra/http/console-assets.ts), so any of these paths survives a reload.

export interface Place {
  path: string;
  query: URLSearchParams;
}

const listeners = new Set<() => void>();

function current(): Place {
  return { path: window.location.pathname, query: new URLSearchParams(window.location.search) };
}

export function navigate(to: string, options: { replace?: boolean } = {}): void {
  if (options.replace) window.history.replaceState(null, '', to);
  else window.history.pushState(null, '', to);
  for (const listener of listeners) listener();
  if (!options.replace) window.scrollTo(0, 0);
}

window.addEventListener('popstate', () => {
  for (const listener of listeners) listener();
});

export function usePlace(): Place {
  const [place, setPlace] = useState(current);
  useEffect(() => {
    const update = (): void => setPlace(current());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  return place;
}

/** Matches `/inbox/:id`-style patterns; answers the parameters or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.replace(/\/+$/, '').split('/');
  if (path === '/') have.splice(1, 1, '');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i += 1) {
    const w = want[i]!;
    const h = have[i]!;
    if (w.startsWith(':')) {
      if (!h) return null;
      params[w.slice(1)] = decodeURIComponent(h);
    } else if (w !== h) return null;
  }
  return params;
}

type LinkProps = AnchorHTMLAttributes<HTMLAnchorElement> & { href: string; children?: ComponentChildren };

/** An ordinary link (open in a new tab works) that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps): JSX.Element {
  const onClick = (event: MouseEvent): void => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a href={href} onClick={onClick} {...rest}>
      {children}
    </a>
  );
}

export function Redirect({ to }: { to: string }): null {
  useEffect(() => navigate(to, { replace: true }), [to]);
  return null;
}
