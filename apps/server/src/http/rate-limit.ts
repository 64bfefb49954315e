// Abuse limits kept in PostgreSQL (table rate_limits, migration 025), so they hold across every
// server process: a fixed window per key, counted by one upsert. docs/security.md has the numbers.
import ipaddr from 'ipaddr.js';
import { LIMITS } from '@versus/domain/messages';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError } from './errors.ts';

/** A refusal that tells when to come back: answered with a Retry-After header (app.ts). */
export class RetryLaterError extends AppError {
  constructor(
    status: 429 | 503,
    code: string,
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super(status, code, message);
  }
}

/** IPv4 (mapped too) as it is, IPv6 by its /64, as one subscriber is usually given a whole /64. */
export function addressKey(ip: string): string {
  if (!ipaddr.isValid(ip)) return ip;
  const address = ipaddr.process(ip);
  if (address.kind() === 'ipv4') return address.toString();
  const prefix = new ipaddr.IPv6([...(address as ipaddr.IPv6).parts.slice(0, 4), 0, 0, 0, 0]);
  return `${prefix.toString()}/64`;
}

export interface Verdict {
  allowed: boolean;
  /** Whole seconds until the window resets (at least 1). */
  retryAfterSeconds: number;
}

/** One hit on `key` in its fixed window; refused hits count too without lengthening it. Prunes a few finished windows. */
export async function consume(db: Queryable, key: string, limit: number, windowSeconds: number): Promise<Verdict> {
  const [row] = await db.query<{ hits: number; seconds: number }>(
    `WITH pruned AS (
       DELETE FROM rate_limits WHERE key IN (
         SELECT key FROM rate_limits WHERE resets_at < now() - interval '1 minute' AND key <> $1 LIMIT 20 FOR UPDATE SKIP LOCKED))
     INSERT INTO rate_limits AS r (key, hits, resets_at) VALUES ($1, 1, now() + make_interval(secs => $2))
     ON CONFLICT (key) DO UPDATE SET
       hits = CASE WHEN r.resets_at <= now() THEN 1 ELSE least(r.hits, 1000000000) + 1 END,
       resets_at = CASE WHEN r.resets_at <= now() THEN now() + make_interval(secs => $2) ELSE r.resets_at END
     RETURNING hits, extract(epoch FROM resets_at - now())::float8 AS seconds`,
    [key, windowSeconds],
  );
  return { allowed: row!.hits <= limit, retryAfterSeconds: Math.max(1, Math.ceil(row!.seconds)) };
}

export interface Limit {
  key: string;
  limit: number;
  windowSeconds: number;
  /** The refusal's message, given the seconds to wait. */
  message: (retryAfterSeconds: number) => string;
}

/** Counts a hit on every limit; throws a 429 (the longest wait of those exceeded) if any is. */
export async function enforce(db: Queryable, code: string, limits: Limit[]): Promise<void> {
  const verdicts = await Promise.all(limits.map((l) => consume(db, l.key, l.limit, l.windowSeconds)));
  let refused: { limit: Limit; wait: number } | null = null;
  for (const [i, verdict] of verdicts.entries()) {
    if (verdict.allowed || (refused && refused.wait >= verdict.retryAfterSeconds)) continue;
    refused = { limit: limits[i]!, wait: verdict.retryAfterSeconds };
  }
  if (refused) throw new RetryLaterError(429, code, refused.limit.message(refused.wait), refused.wait);
}

/** Per address and, signed in, per account, so private codes cannot be swept (docs/security.md). */
export function limitCodeLookups(ctx: AppContext, address: string, userId: string | null): Promise<void> {
  const { windowSeconds, perAddress, perAccount } = ctx.config.limits.codeLookups;
  const limits: Limit[] = [{ key: `code:address:${addressKey(address)}`, limit: perAddress, windowSeconds, message: LIMITS.codeLookups }];
  if (userId) limits.push({ key: `code:account:${userId}`, limit: perAccount, windowSeconds, message: LIMITS.codeLookups });
  return enforce(ctx.db, 'too_many_code_attempts', limits);
}
