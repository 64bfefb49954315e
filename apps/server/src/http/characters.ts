// PostgreSQL text and jsonb cannot hold U+0000, and UTF-8 cannot encode an unpaired UTF-16
// surrogate (jsonb refuses its escape): a request body or query carrying either anywhere
// (nested, or in a key; a JSON body or a multipart field) is refused before a route reads it,
// rather than failing in SQL as a 500.
import type { FastifyInstance } from 'fastify';
import { GENERIC } from '@versus/domain/messages';
import { unstorablePath } from '@versus/domain/text';
import { badRequest } from './errors.ts';

/** `text` without control characters (C0, DEL, C1): for labels and search text, which never need them. */
export const withoutControlCharacters = (text: string): string => text.replace(/\p{Cc}/gu, '');

/** The 400 for a NUL or a lone surrogate at `at` (an `unstorablePath`); the field is named when there is one of a sane length. */
export const invalidCharacters = (at: string) =>
  badRequest('invalid_input', GENERIC.invalidCharacters, at && at.length <= 200 ? at : undefined);

/**
 * Routes that answer a NUL in their body themselves, as their tests pin: the push endpoint is
 * refused with its own text (invalid_endpoint), the user agent label loses its control
 * characters, and unsubscribing an endpoint holding one is a 404. A lone surrogate is still refused.
 */
const OWN_HANDLING = new Set(['POST /api/notifications/push/subscriptions', 'DELETE /api/notifications/push/subscriptions']);

/** Routes that clean their own query of NUL: the player search drops control characters from `q`. */
const OWN_QUERY_HANDLING = new Set(['GET /api/social/search']);

/**
 * For every route of `app` (added before the routes): a parsed body or query string holding
 * U+0000 or an unpaired surrogate is a 400 before validation (a query's text reaches SQL as
 * filters: an admin's `game`). Paths are left to the routes: ids are checked as uuids before SQL.
 * (A query's percent-decoded UTF-8 cannot spell a surrogate; only JSON's \u escapes can.)
 */
export function refuseUnstorableCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    const inQuery = unstorablePath(request.query, { allowNul: OWN_QUERY_HANDLING.has(route) });
    if (inQuery !== null) throw invalidCharacters(inQuery);
    const at = unstorablePath(request.body, { allowNul: OWN_HANDLING.has(route) });
    if (at !== null) throw invalidCharacters(at);
  });
}
