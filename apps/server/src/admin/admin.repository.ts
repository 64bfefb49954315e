// The SQL of the admin API: the dispute queue, dispute records, resolutions, dashboard counts.
import type { Currency } from '@versus/domain';
import type { DisputeListQuery, ResolutionOutcome } from '@versus/domain/results';
import type { Queryable } from '../db/database.ts';

export interface DisputeRow {
  id: string;
  match_id: string;
  status: 'open' | 'resolved';
  opened_at: Date;
  resolved_at: Date | null;
  resolved_by: string | null;
  outcome: ResolutionOutcome | null;
  reason: string | null;
  game_type: string;
  stake: number;
  currency: Currency;
  player1_id: string;
  player2_id: string;
  player1_name: string;
  player2_name: string;
}

/** Disputes oldest first, filtered; `openedBefore` is the minimum-age filter as a time. */
export function disputes(
  db: Queryable,
  q: DisputeListQuery & { openedBefore: Date | null; id?: string; playerId?: string },
): Promise<DisputeRow[]> {
  return db.query<DisputeRow>(
    `SELECT d.id, d.match_id, d.status, d.opened_at, d.resolved_at, d.resolved_by, d.outcome, d.reason,
            m.game_type, m.stake, m.currency, m.player1_id, m.player2_id, p1.username AS player1_name, p2.username AS player2_name
       FROM disputes d JOIN matches m ON m.id = d.match_id
       JOIN profiles p1 ON p1.id = m.player1_id JOIN profiles p2 ON p2.id = m.player2_id
      WHERE ($1::text = 'all' OR d.status = $1)
        AND ($2::text IS NULL OR m.game_type = $2)
        AND ($3::timestamptz IS NULL OR d.opened_at <= $3)
        AND ($4::int IS NULL OR m.stake >= $4)
        AND ($5::int IS NULL OR m.stake <= $5)
        AND ($6::uuid IS NULL OR d.id = $6)
        AND ($7::uuid IS NULL OR $7 IN (m.player1_id, m.player2_id))
      ORDER BY d.opened_at, d.id LIMIT 200`,
    [q.status, q.game ?? null, q.openedBefore, q.minStake ?? null, q.maxStake ?? null, q.id ?? null, q.playerId ?? null],
  );
}

export interface StatementRow {
  id: string;
  user_id: string;
  body: string | null;
  evidence_id: string | null;
  created_at: Date;
}

export function statementsOf(db: Queryable, disputeId: string): Promise<StatementRow[]> {
  return db.query<StatementRow>(
    'SELECT id::text, user_id, body, evidence_id, created_at FROM dispute_statements WHERE dispute_id = $1 ORDER BY id',
    [disputeId],
  );
}

export interface DisputeRecordRow {
  id: string;
  username: string;
  disputes: number;
  won: number;
  lost: number;
}

/** Per player: disputes taken part in, and resolutions that went for or against them. */
export function disputeRecords(db: Queryable, ids: string[]): Promise<DisputeRecordRow[]> {
  return db.query<DisputeRecordRow>(
    `SELECT p.id, p.username,
            count(d.id)::int AS disputes,
            count(d.id) FILTER (WHERE m.winner_id = p.id AND d.status = 'resolved')::int AS won,
            count(d.id) FILTER (WHERE m.winner_id IS NOT NULL AND m.winner_id <> p.id AND d.status = 'resolved')::int AS lost
       FROM profiles p
       LEFT JOIN matches m ON p.id IN (m.player1_id, m.player2_id)
       LEFT JOIN disputes d ON d.match_id = m.id
      WHERE p.id = ANY ($1::uuid[])
      GROUP BY p.id, p.username`,
    [ids],
  );
}

/** The match of a dispute, read without a lock (a dispute never changes match). */
export async function disputeMatch(db: Queryable, id: string): Promise<string | null> {
  const [row] = await db.query<{ match_id: string }>('SELECT match_id FROM disputes WHERE id = $1', [id]);
  return row?.match_id ?? null;
}

export async function lockDispute(tx: Queryable, id: string): Promise<{ match_id: string; status: string } | null> {
  const [row] = await tx.query<{ match_id: string; status: string }>('SELECT match_id, status FROM disputes WHERE id = $1 FOR UPDATE', [
    id,
  ]);
  return row ?? null;
}

export async function markResolved(
  tx: Queryable,
  r: { id: string; now: Date; adminId: string; outcome: ResolutionOutcome; reason: string },
): Promise<void> {
  await tx.query(
    `UPDATE disputes SET status = 'resolved', resolved_at = $2, resolved_by = $3, outcome = $4, reason = $5
      WHERE id = $1 AND status = 'open'`,
    [r.id, r.now, r.adminId, r.outcome, r.reason],
  );
}

export interface Counts {
  users: number;
  open_challenges: number;
  active_matches: number;
  open_disputes: number;
}

export async function counts(db: Queryable): Promise<Counts> {
  const [row] = await db.query<Counts>(
    `SELECT (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM challenges WHERE status = 'open') AS open_challenges,
            (SELECT count(*)::int FROM matches WHERE status IN ('pending', 'accepted', 'in_progress', 'disputed')) AS active_matches,
            (SELECT count(*)::int FROM disputes WHERE status = 'open') AS open_disputes`,
  );
  return row!;
}

/** Minor units held in escrow, per currency. */
export function escrowHeld(db: Queryable): Promise<{ currency: string; amount: string | number }[]> {
  return db.query<{ currency: string; amount: string | number }>(
    `SELECT currency, coalesce(sum(amount), 0)::bigint AS amount FROM escrow_holds WHERE status = 'held' GROUP BY currency`,
  );
}
