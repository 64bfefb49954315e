// Where a notification's action leads: the router, else a full page load; only http(s) and
// same-origin paths, never a `javascript:` URL.

export type Target = { kind: 'route'; path: string } | { kind: 'page'; href: string };

export function resolveTarget(url: string | null | undefined, origin: string): Target | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url, origin);
  } catch (error) {
    console.debug('Bad notification URL', url, error);
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.origin === origin) return { kind: 'route', path: `${parsed.pathname}${parsed.search}${parsed.hash}` };
  return { kind: 'page', href: parsed.href };
}

export interface Navigation {
  navigate: (path: string) => void | Promise<void>;
  assign: (href: string) => void;
}

/** Follows a notification's URL: the router first, a full navigation when it fails (SPEC §8). */
export function openTarget(url: string | null | undefined, origin: string, nav: Navigation): boolean {
  const target = resolveTarget(url, origin);
  if (!target) return false;
  if (target.kind === 'page') {
    nav.assign(target.href);
    return true;
  }
  const fallback = (error: unknown) => {
    console.warn('Notification navigation failed; loading the page', error);
    nav.assign(target.path);
  };
  try {
    const pending = nav.navigate(target.path);
    if (pending && typeof pending.catch === 'function') pending.catch(fallback);
  } catch (error) {
    fallback(error);
  }
  return true;
}
