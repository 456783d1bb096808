/**
 * A small router over the History API: every view has its own address under /console/, which the
 * service answers with the console's page, so a reload or a shared link opens the same view.
 * Views are matched by the table in views.ts.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';

export const BASE = '/console';

/** The address inside the console: `/animals/42?status=sold` for /console/animals/42?status=sold. */
function currentPlace(): string {
  const path = window.location.pathname.startsWith(`${BASE}/`) ? window.location.pathname.slice(BASE.length) : '/';
  return path + window.location.search;
}

const listeners = new Set<() => void>();
window.addEventListener('popstate', () => listeners.forEach((listener) => listener()));

export function navigate(place: string, options: { replace?: boolean } = {}): void {
  const url = BASE + place;
  if (url === window.location.pathname + window.location.search) return;
  if (options.replace) window.history.replaceState(null, '', url);
  else window.history.pushState(null, '', url);
  listeners.forEach((listener) => listener());
}

/** The current place, updated on navigation and on the browser's back and forward. */
export function usePlace(): { path: string; query: URLSearchParams } {
  const [place, setPlace] = useState(currentPlace);
  useEffect(() => {
    const update = () => setPlace(currentPlace());
    listeners.add(update);
    return () => listeners.delete(update);
  }, []);
  const [path, search = ''] = place.split('?');
  return { path: path!, query: new URLSearchParams(search) };
}

/** The parameters of `path` for `pattern` (`/animals/:id`), or undefined when it does not match. */
export function matchPath(pattern: string, path: string): Record<string, string> | undefined {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return undefined;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const given = decodeURIComponent(have[index]!);
    if (part.startsWith(':')) params[part.slice(1)] = given;
    else if (part !== given) return undefined;
  }
  return params;
}

/** A link inside the console: a real `<a href>` (open in a new tab works), followed without a reload. */
export function Link(props: { to: string; children: ComponentChildren; 'aria-current'?: 'page' | undefined }) {
  const { to, children } = props;
  const follow = (event: MouseEvent) => {
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a href={BASE + to} aria-current={props['aria-current']} onClick={follow}>
      {children}
    </a>
  );
}
