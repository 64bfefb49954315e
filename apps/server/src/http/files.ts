// Serving a stored file (evidence, feedback screenshots, avatars): its validators and caching
// headers, and 304 when the browser already holds the same bytes.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { StoredFile } from '../storage/file-store.ts';

/** A private upload whose bytes never change under its id: the browser keeps it for a year. */
export const PRIVATE_IMMUTABLE = 'private, max-age=31536000, immutable';

export interface ServeOptions {
  /** The quoted ETag naming these bytes. */
  etag: string;
  cacheControl: string;
}

/** Sends `file` (never sniffed) with its ETag and caching; 304 with no body when If-None-Match matches. */
export function sendStoredFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: Pick<StoredFile, 'data' | 'contentType'>,
  { etag, cacheControl }: ServeOptions,
): FastifyReply {
  reply.header('cache-control', cacheControl).header('etag', etag).header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === etag) return reply.status(304).send();
  return reply.type(file.contentType).send(file.data);
}
