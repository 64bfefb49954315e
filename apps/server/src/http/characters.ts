// PostgreSQL cannot store U+0000 and UTF-8 cannot encode a lone surrogate: a body or query holding either,
// anywhere, is a 400 before a route reads it, not a 500 from SQL.
import type { FastifyInstance } from 'fastify';
import { GENERIC } from '@versus/domain/messages';
import { unstorablePath } from '@versus/domain/text';
import { badRequest } from './errors.ts';

/** `text` without control characters (C0, DEL, C1): for labels and search text, which never need them. */
export const withoutControlCharacters = (text: string): string => text.replace(/\p{Cc}/gu, '');

/** The 400 for a NUL or a lone surrogate at `at` (an `unstorablePath`); the field is named when there is one of a sane length. */
export const invalidCharacters = (at: string) =>
  badRequest('invalid_input', GENERIC.invalidCharacters, at && at.length <= 200 ? at : undefined);

/** Routes whose tests pin their own answer to a NUL (invalid_endpoint, a stripped label, a 404); a lone surrogate is still refused. */
const OWN_HANDLING = new Set(['POST /api/notifications/push/subscriptions', 'DELETE /api/notifications/push/subscriptions']);

/** Routes that clean their own query of NUL: the player search drops control characters from `q`. */
const OWN_QUERY_HANDLING = new Set(['GET /api/social/search']);

/** Added before the routes; paths are left to them, as ids are checked as uuids before SQL. */
export function refuseUnstorableCharacters(app: FastifyInstance): void {
  app.addHook('preValidation', async (request) => {
    const route = `${request.method} ${request.routeOptions.url}`;
    const inQuery = unstorablePath(request.query, { allowNul: OWN_QUERY_HANDLING.has(route) });
    if (inQuery !== null) throw invalidCharacters(inQuery);
    const at = unstorablePath(request.body, { allowNul: OWN_HANDLING.has(route) });
    if (at !== null) throw invalidCharacters(at);
  });
}
