// PostgreSQL text and jsonb cannot hold U+0000: a request body carrying one anywhere (nested,
// or in a key; a JSON body or a multipart field) is refused before a route reads it, rather
// than failing in SQL as a 500.
import type { FastifyInstance } from 'fastify';
import { GENERIC } from '@versus/domain/messages';
import { badRequest } from './errors.ts';

/**
 * The dotted path of the first string in `root` (a value, or a key: then its object's path)
 * holding U+0000, '' for `root` itself; null when there is none. Walked without recursion, so
 * a deeply nested body cannot overflow the stack.
 */
export function nulPath(root: unknown): string | null {
  const stack: [unknown, string][] = [[root, '']];
  while (stack.length > 0) {
    const [value, at] = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return at;
      continue;
    }
    if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) continue;
    const entries = Object.entries(value);
    for (let i = entries.length - 1; i >= 0; i--) {
      const [key, item] = entries[i]!;
      if (key.includes('\u0000')) return at;
      stack.push([item, at ? `${at}.${key}` : key]);
    }
  }
  return null;
}

/** `text` without control characters (C0, DEL, C1): for labels and search text, which never need them. */
export const withoutControlCharacters = (text: string): string => text.replace(/\p{Cc}/gu, '');

/** The 400 for a NUL at `at` (a `nulPath`); the field is named when there is one of a sane length. */
export const invalidCharacters = (at: string) =>
  badRequest('invalid_input', GENERIC.invalidCharacters, at && at.length <= 200 ? at : undefined);

/**
 * Routes that answer a NUL in their body themselves, as their tests pin: the push endpoint is
 * refused with its own text (invalid_endpoint), the user agent label loses its control
 * characters, and unsubscribing an endpoint holding one is a 404.
 */
const OWN_HANDLING = new Set(['POST /api/notifications/push/subscriptions', 'DELETE /api/notifications/push/subscriptions']);

/** Routes that clean their own query: the player search drops control characters from `q`. */
const OWN_QUERY_HANDLING = new Set(['GET /api/social/search']);

/**
 * For every route of `app` (added before the routes): a parsed body or query string holding
 * U+0000 is a 400 before validation (a query's text reaches SQL as filters: an admin's `game`).
 * Paths are left to the routes: ids are checked as uuids before SQL.
 */
export function refuseNulCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    const inQuery = OWN_QUERY_HANDLING.has(route) ? null : nulPath(request.query);
    if (inQuery !== null) throw invalidCharacters(inQuery);
    if (OWN_HANDLING.has(route)) return;
    const at = nulPath(request.body);
    if (at !== null) throw invalidCharacters(at);
  });
}
