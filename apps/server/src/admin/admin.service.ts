// The admin side: the dispute queue, resolutions (settled through finishMatch), the dashboard.
import { CURRENCIES } from '@versus/domain';
import { fromMinor } from '@versus/domain/money';
import { RESULTS } from '@versus/domain/messages';
import type {
  Dashboard,
  Dispute,
  DisputeListQuery,
  ResolutionOutcome,
  ResolveRequest,
  VoidMatchRequest,
  VoidMatchResponse,
} from '@versus/domain/results';
import { ARENA } from '@versus/domain';
import { isWebGame } from '@versus/domain/games/index';
import { finishStored } from '../arena/arena.finish.ts';
import { findCore } from '../arena/arena.repository.ts';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import type { Ending } from '../arena/arena.finish.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { publish, topics } from '../realtime/publish.ts';
import { reopenDisputed } from '../results/results.repository.ts';
import { ADMIN_TOPIC, evidenceByIds, loadMatch, readChat, readReports, recordTransition, settle } from '../results/results.service.ts';
import * as repo from './admin.repository.ts';
import { UUID } from '../http/validation.ts';

const MAX_INT = 2_147_483_647;

export async function listDisputes(
  db: Queryable,
  query: DisputeListQuery & { id?: string; playerId?: string },
  now = new Date(),
): Promise<Dispute[]> {
  // Filters past any real stake or age mean "none" (or "no bound"), not a value the SQL cannot hold:
  // stakes are `int`, and no dispute was opened before 1970.
  const openedBefore = query.minAgeMinutes === undefined ? null : new Date(Math.max(0, now.getTime() - query.minAgeMinutes * 60_000));
  const stake = (value: number | undefined) => (value === undefined ? undefined : Math.min(value, MAX_INT));
  const rows = await repo.disputes(db, { ...query, minStake: stake(query.minStake), maxStake: stake(query.maxStake), openedBefore });
  const ids = [...new Set(rows.flatMap((r) => [r.player1_id, r.player2_id]))];
  const records = new Map((ids.length ? await repo.disputeRecords(db, ids) : []).map((r) => [r.id, r]));
  const out: Dispute[] = [];
  for (const r of rows) {
    const statements = await repo.statementsOf(db, r.id);
    const evidence = await evidenceByIds(
      db,
      statements.flatMap((s) => (s.evidence_id ? [s.evidence_id] : [])),
    );
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
      records: [r.player1_id, r.player2_id].flatMap((id) => {
        const record = records.get(id);
        return record ? [{ userId: id, username: record.username, disputes: record.disputes, won: record.won, lost: record.lost }] : [];
      }),
      resolution:
        r.status === 'resolved' && r.outcome && r.reason && r.resolved_by && r.resolved_at
          ? { outcome: r.outcome, reason: r.reason, resolvedBy: r.resolved_by, resolvedAt: r.resolved_at.toISOString() }
          : null,
    });
  }
  return out;
}

/** A player's own disputes, oldest first, as admins see them without the players' records. */
export async function myDisputes(db: Queryable, user: AccessClaims): Promise<Dispute[]> {
  const list = await listDisputes(db, { status: 'all', playerId: user.userId });
  return list.map((d) => ({ ...d, records: [] }));
}

const ENDINGS: Record<ResolutionOutcome, Ending> = {
  player1: { kind: 'win', winner: 0, reason: 'games-won' },
  player2: { kind: 'win', winner: 1, reason: 'games-won' },
  // finishMatch's draw reasons are the arena's; the admin's reason is kept on the dispute.
  draw: { kind: 'draw', reason: 'drawn-game-cap' },
  void: { kind: 'void' },
};

export async function resolveDispute(
  ctx: AppContext,
  admin: AccessClaims,
  disputeId: string,
  input: ResolveRequest,
  now = new Date(),
): Promise<Dispute> {
  if (!UUID.test(disputeId)) throw notFound(RESULTS.disputeNotFound);
  const id = disputeId.toLowerCase();
  await ctx.db.transaction(async (tx) => {
    // The match first, then the dispute: the order of a player's statement (results.service's
    // addStatement), so a statement arriving meanwhile waits instead of deadlocking.
    const matchId = await repo.disputeMatch(tx, id);
    if (!matchId) throw notFound(RESULTS.disputeNotFound);
    const m = await loadMatch(tx, matchId, true);
    // An admin who played the match is a party to it, not its judge.
    if (m && (m.player1_id === admin.userId || m.player2_id === admin.userId)) throw forbidden(RESULTS.ownDispute);
    const dispute = await repo.lockDispute(tx, id);
    if (!dispute) throw notFound(RESULTS.disputeNotFound);
    if (dispute.status !== 'open') throw conflict('already_resolved', RESULTS.alreadyResolved);
    if (!m || m.status !== 'disputed') throw conflict('already_resolved', RESULTS.alreadyResolved);
    // Back to 'accepted' for finishMatch in this same transaction
    // (db/functions/matches_status_transition.sql allows it).
    const version = await reopenDisputed(tx, m.id, now);
    if (version === null) throw conflict('already_resolved', RESULTS.alreadyResolved);
    await settle(tx, { ...m, version }, ENDINGS[input.outcome], now, admin.userId, 'dispute_resolved');
    await repo.markResolved(tx, { id, now, adminId: admin.userId, outcome: input.outcome, reason: input.reason });
    await recordTransition(tx, {
      matchId: m.id,
      actorId: admin.userId,
      action: 'resolution',
      from: 'disputed',
      to: null,
      detail: { outcome: input.outcome, reason: input.reason },
      now,
    });
    const payload = { matchId: m.id, disputeId: id, outcome: input.outcome, reason: input.reason, message: RESULTS.resolved };
    for (const userId of [m.player1_id, m.player2_id]) await publish(tx, topics.user(userId), 'dispute.resolved', payload);
    await publish(tx, ADMIN_TOPIC, 'dispute.resolved', payload);
  });
  const [resolved] = await listDisputes(ctx.db, { status: 'all', id });
  if (!resolved) throw notFound(RESULTS.disputeNotFound);
  return resolved;
}

const RUNNING = ['pending', 'accepted', 'in_progress'];

/** Voids a web match that cannot go on (moves that no longer replay, or stuck) through finishMatch; external ones use disputes. */
export async function voidMatch(
  ctx: AppContext,
  admin: AccessClaims,
  id: string,
  input: VoidMatchRequest,
  now = new Date(),
): Promise<VoidMatchResponse> {
  if (!UUID.test(id)) throw notFound(RESULTS.matchNotFound);
  const matchId = id.toLowerCase();
  return ctx.db.transaction(async (tx) => {
    // The row as stored; nothing is replayed (the match may be one that will not replay).
    const core = await findCore(tx, matchId);
    if (!core) throw notFound(RESULTS.matchNotFound);
    if (core.player1_id === admin.userId || core.player2_id === admin.userId) throw forbidden(RESULTS.ownMatch);
    if (!isWebGame(core.game_type)) throw conflict('not_web_game', ARENA.notWebGame);
    if (!RUNNING.includes(core.status)) throw conflict('match_over', RESULTS.matchOver);
    const outcome = await finishStored(tx, core, { kind: 'void' }, now);
    // Another change got there first (a move, or the end): the admin looks again.
    if (!outcome.ok)
      throw outcome.reason === 'stale' ? conflict('stale_version', ARENA.changedMeanwhile) : conflict('match_over', RESULTS.matchOver);
    await recordTransition(tx, {
      matchId,
      actorId: admin.userId,
      action: 'admin_void',
      from: core.status,
      to: 'cancelled',
      detail: { reason: input.reason },
      now,
    });
    return { matchId, status: 'cancelled' };
  });
}

export async function dashboard(db: Queryable): Promise<Dashboard> {
  const counts = await repo.counts(db);
  const held = await repo.escrowHeld(db);
  const escrowHeld: Record<string, number> = Object.fromEntries(CURRENCIES.map((c) => [c, 0]));
  for (const row of held) escrowHeld[row.currency] = fromMinor(Number(row.amount));
  const audit = await auditLedger(db);
  return {
    users: counts.users,
    openChallenges: counts.open_challenges,
    activeMatches: counts.active_matches,
    openDisputes: counts.open_disputes,
    escrowHeld,
    audit: { ok: audit.ok, problems: audit.problems },
  };
}
