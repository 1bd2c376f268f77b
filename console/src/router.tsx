/** A small router over the History API: paths under /console, with the query string as page state. */
import type { ComponentChildren, JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';

const BASE = '/console';

const listeners = new Set<() => void>();
const notify = () => listeners.forEach((listener) => listener());
addEventListener('popstate', notify);

/** The path inside the console, without the base: `/calls/abc`. */
const currentPath = () => location.pathname.slice(BASE.length).replace(/\/$/, '') || '/';

/** Goes to a path inside the console (`/calls?status=failed`). */
export function navigate(href: string, options: { replace?: boolean } = {}): void {
  const target = `${BASE}${href === '/' ? '' : href}`;
  if (options.replace) history.replaceState(null, '', target);
  else history.pushState(null, '', target);
  notify();
  if (!options.replace) scrollTo(0, 0);
}

export interface Location {
  path: string;
  query: URLSearchParams;
}

export function useLocation(): Location {
  const [, setVersion] = useState(0);
  useEffect(() => {
    const listener = () => setVersion((v) => v + 1);
    listeners.add(listener);
    return () => void listeners.delete(listener);
  }, []);
  return { path: currentPath(), query: new URLSearchParams(location.search) };
}

/** Changes some query parameters of the current page, keeping the others; empty values are removed. */
export function setQuery(changes: Record<string, string | null | undefined>, options: { replace?: boolean } = { replace: true }): void {
  const query = new URLSearchParams(location.search);
  for (const [name, value] of Object.entries(changes)) {
    if (value === null || value === undefined || value === '') query.delete(name);
    else query.set(name, value);
  }
  const search = query.toString();
  navigate(`${currentPath()}${search ? `?${search}` : ''}`, options);
}

/** Matches `/calls/:id` against a path; the parameters, or null. */
export function match(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const got = path.split('/');
  if (want.length !== got.length) return null;
  const params: Record<string, string> = {};
  for (const [i, part] of want.entries()) {
    const value = got[i] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(value);
    else if (part !== value) return null;
  }
  return params;
}

type LinkProps = Omit<JSX.HTMLAttributes<HTMLAnchorElement>, 'href'> & { href: string; children?: ComponentChildren };

/** An ordinary link (open in a new tab still works) that navigates in place on a plain click. */
export function Link({ href, children, ...rest }: LinkProps) {
  const full = `${BASE}${href === '/' ? '' : href}`;
  const onClick = (event: JSX.TargetedMouseEvent<HTMLAnchorElement>) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(href);
  };
  return (
    <a {...rest} href={full} onClick={onClick}>
      {children}
    </a>
  );
}
