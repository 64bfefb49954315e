// The admin side: the dispute queue, resolutions (settled through finishMatch), the dashboard.
import { CURRENCIES } from '@versus/domain';
import { fromMinor } from '@versus/domain/money';
import { RESULTS } from '@versus/domain/messages';
import type { Dashboard, Dispute, DisputeListQuery, ResolutionOutcome, ResolveRequest } from '@versus/domain/results';
import type { AccessClaims } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { Ending } from '../arena/arena.finish.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { conflict, notFound } from '../http/errors.ts';
import { publish, topics } from '../realtime/publish.ts';
import { UUID, evidenceByIds, loadMatch, readChat, readReports, recordTransition, settle } from '../results/results.service.ts';

interface DisputeRow {
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
  currency: Dispute['currency'];
  player1_id: string;
  player2_id: string;
  player1_name: string;
  player2_name: string;
}

export async function listDisputes(db: Queryable, query: DisputeListQuery, now = new Date()): Promise<Dispute[]> {
  const rows = await db.query<DisputeRow>(
    `SELECT d.id, d.match_id, d.status, d.opened_at, d.resolved_at, d.resolved_by, d.outcome, d.reason,
            m.game_type, m.stake, m.currency, m.player1_id, m.player2_id, p1.username AS player1_name, p2.username AS player2_name
       FROM disputes d JOIN matches m ON m.id = d.match_id
       JOIN profiles p1 ON p1.id = m.player1_id JOIN profiles p2 ON p2.id = m.player2_id
      WHERE ($1::text = 'all' OR d.status = $1)
        AND ($2::text IS NULL OR m.game_type = $2)
        AND ($3::timestamptz IS NULL OR d.opened_at <= $3)
        AND ($4::int IS NULL OR m.stake >= $4)
        AND ($5::int IS NULL OR m.stake <= $5)
      ORDER BY d.opened_at, d.id LIMIT 200`,
    [
      query.status,
      query.game ?? null,
      query.minAgeMinutes === undefined ? null : new Date(now.getTime() - query.minAgeMinutes * 60_000),
      query.minStake ?? null,
      query.maxStake ?? null,
    ],
  );
  const records = await disputeRecords(db, [...new Set(rows.flatMap((r) => [r.player1_id, r.player2_id]))]);
  const out: Dispute[] = [];
  for (const r of rows) {
    const statements = await db.query<{ id: string; user_id: string; body: string | null; evidence_id: string | null; created_at: Date }>(
      'SELECT id::text, user_id, body, evidence_id, created_at FROM dispute_statements WHERE dispute_id = $1 ORDER BY id',
      [r.id],
    );
    const evidence = await evidenceByIds(db, statements.flatMap((s) => (s.evidence_id ? [s.evidence_id] : [])));
    out.push({
      id: r.id,
      matchId: r.match_id,
      status: r.status,
      openedAt: r.opened_at.toISOString(),
      gameType: r.game_type,
      stake: r.stake,
      currency: r.currency,
      player1: { id: r.player1_id, username: r.player1_name },
      player2: { id: r.player2_id, username: r.player2_name },
      reports: await readReports(db, r.match_id),
      statements: statements.map((s) => ({
        id: s.id,
        userId: s.user_id,
        body: s.body,
        evidence: s.evidence_id ? (evidence.get(s.evidence_id) ?? null) : null,
        createdAt: s.created_at.toISOString(),
      })),
      chat: await readChat(db, r.match_id),
      records: [r.player1_id, r.player2_id].map((id) => records.get(id)!).filter(Boolean),
      resolution:
        r.status === 'resolved' && r.outcome && r.reason && r.resolved_by && r.resolved_at
          ? { outcome: r.outcome, reason: r.reason, resolvedBy: r.resolved_by, resolvedAt: r.resolved_at.toISOString() }
          : null,
    });
  }
  return out;
}

/** Each player's dispute record: disputes taken part in, and resolutions won or lost. */
async function disputeRecords(db: Queryable, ids: string[]): Promise<Map<string, Dispute['records'][number]>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<{ id: string; username: string; disputes: number; won: number; lost: number }>(
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
  return new Map(rows.map((r) => [r.id, { userId: r.id, username: r.username, disputes: r.disputes, won: r.won, lost: r.lost }]));
}

const ENDINGS: Record<ResolutionOutcome, Ending> = {
  player1: { kind: 'win', winner: 0, reason: 'games-won' },
  player2: { kind: 'win', winner: 1, reason: 'games-won' },
  // finishMatch's draw reasons are the arena's; the admin's reason is kept on the dispute.
  draw: { kind: 'draw', reason: 'drawn-game-cap' },
  void: { kind: 'void' },
};

export async function resolveDispute(ctx: AppContext, admin: AccessClaims, disputeId: string, input: ResolveRequest, now = new Date()): Promise<Dispute> {
  if (!UUID.test(disputeId)) throw notFound(RESULTS.disputeNotFound);
  const id = disputeId.toLowerCase();
  await ctx.db.transaction(async (tx) => {
    const [dispute] = await tx.query<{ match_id: string; status: string }>('SELECT match_id, status FROM disputes WHERE id = $1 FOR UPDATE', [id]);
    if (!dispute) throw notFound(RESULTS.disputeNotFound);
    if (dispute.status !== 'open') throw conflict('already_resolved', RESULTS.alreadyResolved);
    const m = await loadMatch(tx, dispute.match_id, true);
    if (!m || m.status !== 'disputed') throw conflict('already_resolved', RESULTS.alreadyResolved);
    // Back to 'accepted' for finishMatch in this same transaction (008_results.sql allows it).
    const [reopened] = await tx.query<{ version: number }>(
      `UPDATE matches SET status = 'accepted', version = version + 1, updated_at = $2 WHERE id = $1 AND status = 'disputed' RETURNING version`,
      [m.id, now],
    );
    await settle(tx, { ...m, version: reopened!.version }, ENDINGS[input.outcome], now, admin.userId, 'dispute_resolved');
    await tx.query(`UPDATE disputes SET status = 'resolved', resolved_at = $2, resolved_by = $3, outcome = $4, reason = $5 WHERE id = $1`, [
      id,
      now,
      admin.userId,
      input.outcome,
      input.reason,
    ]);
    await recordTransition(tx, { matchId: m.id, actorId: admin.userId, action: 'resolution', from: 'disputed', to: null, detail: { outcome: input.outcome, reason: input.reason }, now });
    const payload = { matchId: m.id, disputeId: id, outcome: input.outcome, reason: input.reason, message: RESULTS.resolved };
    for (const userId of [m.player1_id, m.player2_id]) await publish(tx, topics.user(userId), 'dispute.resolved', payload);
  });
  const [resolved] = (await listDisputes(ctx.db, { status: 'all' })).filter((d) => d.id === id);
  return resolved!;
}

export async function dashboard(db: Queryable): Promise<Dashboard> {
  const [counts] = await db.query<{ users: number; open_challenges: number; active_matches: number; open_disputes: number }>(
    `SELECT (SELECT count(*)::int FROM users) AS users,
            (SELECT count(*)::int FROM challenges WHERE status = 'open') AS open_challenges,
            (SELECT count(*)::int FROM matches WHERE status IN ('pending', 'accepted', 'in_progress', 'disputed')) AS active_matches,
            (SELECT count(*)::int FROM disputes WHERE status = 'open') AS open_disputes`,
  );
  const held = await db.query<{ currency: string; amount: number }>(
    `SELECT currency, coalesce(sum(amount), 0)::bigint AS amount FROM escrow_holds WHERE status = 'held' GROUP BY currency`,
  );
  const escrowHeld: Record<string, number> = Object.fromEntries(CURRENCIES.map((c) => [c, 0]));
  for (const row of held) escrowHeld[row.currency] = fromMinor(Number(row.amount));
  const audit = await auditLedger(db);
  return {
    users: counts!.users,
    openChallenges: counts!.open_challenges,
    activeMatches: counts!.active_matches,
    openDisputes: counts!.open_disputes,
    escrowHeld,
    audit: { ok: audit.ok, problems: audit.problems },
  };
}
