// External games: agreeing reports settle, conflicting ones open a dispute, timers settle silence; every
// ending goes through finishMatch and every step is a match_transitions row.
import { isWebGame } from '@versus/domain/catalogue';
import { RESULTS } from '@versus/domain/messages';
import { RESULT_RULES, type ChatMessage, type Evidence, type Report, type ReportOutcome, type ResultState } from '@versus/domain/results';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { finishMatch, finishTarget, type Ending } from '../arena/arena.finish.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { notify } from '../notifications/notify.ts';
import { announce, publish, topics } from '../realtime/publish.ts';
import { newKey, type FileStore, type UploadedFile } from '../storage/file-store.ts';
import * as repo from './results.repository.ts';
import type { MatchRow } from './results.repository.ts';
import { UUID } from '../http/validation.ts';

export type { MatchRow };

export const chatTopic = (matchId: string) => `match-chat:${matchId}`;
/** The admins' feed: dispute.opened and dispute.resolved, for the queue and the dashboard. */
export const ADMIN_TOPIC = 'admin';
const ACTIVE = ['pending', 'accepted', 'in_progress'];

export interface ResultsOptions {
  /** How long an unanswered report waits before it settles for its reporter. */
  confirmWindowMs: number;
}

/** RESULT_CONFIRM_WINDOW_MS (milliseconds), else 1 hour. */
export function resultsOptions(env: NodeJS.ProcessEnv = process.env): ResultsOptions {
  const raw = env.RESULT_CONFIRM_WINDOW_MS;
  const value = raw === undefined || raw === '' ? RESULT_RULES.confirmWindowMs : Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`RESULT_CONFIRM_WINDOW_MS must be a positive number of ms, got ${raw}`);
  return { confirmWindowMs: value };
}

export async function loadMatch(db: Queryable, id: string, lock = false): Promise<MatchRow | null> {
  return UUID.test(id) ? repo.findMatch(db, id.toLowerCase(), lock) : null;
}

const isPlayer = (m: MatchRow, userId: string) => m.player1_id === userId || m.player2_id === userId;
const opponentOf = (m: MatchRow, userId: string) => (m.player1_id === userId ? m.player2_id : m.player1_id);
const seatOf = (m: MatchRow, userId: string): 0 | 1 => (m.player1_id === userId ? 0 : 1);

/** The match for a player's action: 404 unknown, 403 not theirs, 409 a web game. */
async function playerMatch(tx: Queryable, user: AccessClaims, matchId: string): Promise<MatchRow> {
  const m = await loadMatch(tx, matchId, true);
  if (!m) throw notFound(RESULTS.matchNotFound);
  if (!isPlayer(m, user.userId)) throw forbidden(RESULTS.notPlayer);
  if (isWebGame(m.game_type)) throw conflict('not_external', RESULTS.notExternal);
  return m;
}

export const recordTransition = repo.insertTransition;

/** Ends the match through finishMatch (the one settlement path); refuses when it is already over. */
export async function settle(tx: Queryable, m: MatchRow, ending: Ending, now: Date, actorId: string | null, action: string): Promise<void> {
  const outcome = await finishMatch(tx, {
    match: finishTarget(m),
    state: null,
    ending,
    lastGameReason: null,
    now: now.getTime(),
    publicEvent: (result, version) => ({ matchId: m.id, version, result }),
  });
  if (!outcome.ok) throw conflict('match_over', RESULTS.matchOver);
  await recordTransition(tx, {
    matchId: m.id,
    actorId,
    action,
    from: m.status,
    to: ending.kind === 'void' ? 'cancelled' : 'completed',
    detail: { ending, payouts: outcome.result.payouts },
    now,
  });
}

async function storeEvidence(
  tx: Queryable,
  store: FileStore,
  m: MatchRow,
  userId: string,
  file: UploadedFile,
  stored: string[],
): Promise<string> {
  const key = newKey(`evidence/${m.id}`, file.contentType);
  // In the report's transaction: the database store then keeps no file of a report rolled back.
  await store.put(key, file.data, file.contentType, tx);
  stored.push(key);
  return repo.insertEvidence(tx, { matchId: m.id, userId, key, contentType: file.contentType, size: file.data.length });
}

/** Runs `work` in a transaction; files it stored are removed again if it fails. */
async function withFiles<T>(ctx: AppContext, store: FileStore, work: (tx: Queryable, stored: string[]) => Promise<T>): Promise<T> {
  const stored: string[] = [];
  try {
    return await ctx.db.transaction((tx) => work(tx, stored));
  } catch (error) {
    for (const key of stored) {
      await store.delete(key).catch((deleteError: unknown) => ctx.log.error({ err: deleteError, key }, 'evidence cleanup failed'));
    }
    throw error;
  }
}

export type ReportResult = { status: 'waiting' | 'settled' | 'disputed'; disputeId: string | null };

export async function report(
  ctx: AppContext,
  store: FileStore,
  user: AccessClaims,
  matchId: string,
  input: { outcome: ReportOutcome; evidence: UploadedFile | null },
  now = new Date(),
): Promise<ReportResult> {
  return withFiles(ctx, store, async (tx, stored) => {
    const m = await playerMatch(tx, user, matchId);
    const reports = await repo.reportsOf(tx, m.id);
    if (reports.some((r) => r.user_id === user.userId)) throw conflict('already_reported', RESULTS.alreadyReported);
    if (!ACTIVE.includes(m.status)) throw conflict('match_over', RESULTS.matchOver);
    if (m.status !== 'in_progress' && now.getTime() < m.start.getTime()) throw conflict('not_started', RESULTS.notStarted);

    const evidenceId = input.evidence ? await storeEvidence(tx, store, m, user.userId, input.evidence, stored) : null;
    await repo.insertReport(tx, { matchId: m.id, userId: user.userId, outcome: input.outcome, evidenceId, now });
    await recordTransition(tx, {
      matchId: m.id,
      actorId: user.userId,
      action: 'reported',
      from: m.status,
      to: m.status,
      detail: { outcome: input.outcome, evidenceId },
      now,
    });
    // A report is an answer to a no-show claim against its author.
    const claimant = await repo.answerClaim(tx, m.id, user.userId, now);
    if (claimant) await claimAnswered(tx, m, user.userId, claimant, now, { byReport: true });

    const other = reports.find((r) => r.user_id !== user.userId);
    const opponent = opponentOf(m, user.userId);
    if (!other) {
      const confirmDeadline = new Date(now.getTime() + resultsOptions().confirmWindowMs).toISOString();
      await publish(tx, topics.user(opponent), 'match.result_reported', {
        matchId: m.id,
        reporterId: user.userId,
        outcome: input.outcome,
        confirmDeadline,
      });
      return { status: 'waiting', disputeId: null };
    }
    if (other.outcome !== input.outcome) {
      const winner = input.outcome === 'win' ? user.userId : opponent;
      await settle(tx, m, { kind: 'win', winner: seatOf(m, winner), reason: 'games-won' }, now, user.userId, 'reports_agreed');
      return { status: 'settled', disputeId: null };
    }
    const disputeId = await openDispute(tx, m, user.userId, now);
    return { status: 'disputed', disputeId };
  });
}

export type ReadyResult = { status: 'waiting' | 'in_progress' };

/** Once both players are ready the match starts, ahead of its schedule; readying again changes nothing. */
export async function readyNow(ctx: AppContext, user: AccessClaims, matchId: string, now = new Date()): Promise<ReadyResult> {
  return ctx.db.transaction(async (tx) => {
    const m = await playerMatch(tx, user, matchId);
    if (m.status === 'in_progress') return { status: 'in_progress' };
    if (!ACTIVE.includes(m.status)) throw conflict('match_over', RESULTS.matchOver);
    const seat = seatOf(m, user.userId);
    const readyAt = [m.player1_ready_at, m.player2_ready_at];
    if (readyAt[seat]) return { status: 'waiting' };
    await repo.markReady(tx, m.id, seat, now);
    await recordTransition(tx, { matchId: m.id, actorId: user.userId, action: 'ready', from: m.status, to: m.status, now });
    const opponent = opponentOf(m, user.userId);
    if (!readyAt[seat === 0 ? 1 : 0]) {
      await publish(tx, topics.user(opponent), 'match.ready', { matchId: m.id, userId: user.userId });
      await notify(tx, {
        userId: opponent,
        type: 'match_ready',
        metadata: { matchId: m.id, gameType: m.game_type },
        matchId: m.id,
        creatorId: user.userId,
        now,
      });
      return { status: 'waiting' };
    }
    await startExternal(tx, m, now, user.userId, 'started_both_ready');
    return { status: 'in_progress' };
  });
}

/** pending → in_progress: reports open; both players are told what to do (play on the platform, then report). */
async function startExternal(tx: Queryable, m: MatchRow, now: Date, actorId: string | null, action: string): Promise<boolean> {
  const version = await repo.markStarted(tx, m.id, now, now);
  if (version === null) return false;
  await recordTransition(tx, { matchId: m.id, actorId, action, from: m.status, to: 'in_progress', now });
  announce(tx, topics.match(m.id), version, 'match.started', JSON.stringify({ matchId: m.id, version, status: 'in_progress' }));
  for (const id of [m.player1_id, m.player2_id]) {
    await publish(tx, topics.user(id), 'match.started', { matchId: m.id, gameType: m.game_type });
    // At the scheduled start the reminder says it; started early by both, a notification does.
    if (actorId !== null)
      await notify(tx, { userId: id, type: 'match_started', metadata: { matchId: m.id, gameType: m.game_type }, matchId: m.id, now });
  }
  return true;
}

async function openDispute(tx: Queryable, m: MatchRow, actorId: string, now: Date): Promise<string> {
  const version = await repo.markDisputed(tx, m.id, now);
  const disputeId = await repo.insertDispute(tx, m.id, now);
  await recordTransition(tx, { matchId: m.id, actorId, action: 'disputed', from: m.status, to: 'disputed', detail: { disputeId }, now });
  const payload = { matchId: m.id, disputeId, status: 'disputed', message: RESULTS.underReview };
  announce(tx, topics.match(m.id), version, 'match.disputed', JSON.stringify({ matchId: m.id, version, status: 'disputed' }));
  for (const id of [m.player1_id, m.player2_id]) await publish(tx, topics.user(id), 'match.disputed', payload);
  for (const id of [m.player1_id, m.player2_id]) {
    await notify(tx, {
      userId: id,
      type: 'match_disputed',
      metadata: { matchId: m.id, gameType: m.game_type, disputeId },
      matchId: m.id,
      now,
    });
  }
  await publish(tx, ADMIN_TOPIC, 'dispute.opened', {
    disputeId,
    matchId: m.id,
    gameType: m.game_type,
    stake: m.stake,
    currency: m.currency,
  });
  return disputeId;
}

export async function claimNoShow(ctx: AppContext, user: AccessClaims, matchId: string, now = new Date()): Promise<{ deadline: string }> {
  return ctx.db.transaction(async (tx) => {
    const m = await playerMatch(tx, user, matchId);
    if (!ACTIVE.includes(m.status)) throw conflict('match_over', RESULTS.matchOver);
    if (now.getTime() < m.start.getTime() + RESULT_RULES.noShowOpensAfterMs) throw conflict('too_early', RESULTS.noShowTooEarly);
    // A report proves its author showed up; the row lock keeps one from landing between check and claim.
    const opponent = opponentOf(m, user.userId);
    if ((await repo.reportsOf(tx, m.id)).some((r) => r.user_id === opponent))
      throw conflict('opponent_reported', RESULTS.noShowOpponentReported);
    const deadline = new Date(now.getTime() + RESULT_RULES.noShowAnswerMs);
    if (!(await repo.insertClaim(tx, { matchId: m.id, claimantId: user.userId, now, deadline })))
      throw conflict('no_show_exists', RESULTS.noShowExists);
    await recordTransition(tx, {
      matchId: m.id,
      actorId: user.userId,
      action: 'no_show_claimed',
      from: m.status,
      to: m.status,
      detail: { deadline },
      now,
    });
    await publish(tx, topics.user(opponent), 'match.no_show_claimed', {
      matchId: m.id,
      claimantId: user.userId,
      deadline: deadline.toISOString(),
      message: RESULTS.noShowClaimed,
    });
    return { deadline: deadline.toISOString() };
  });
}

export async function answerNoShow(ctx: AppContext, user: AccessClaims, matchId: string, now = new Date()): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const m = await playerMatch(tx, user, matchId);
    const claimant = ACTIVE.includes(m.status) ? await repo.answerClaim(tx, m.id, user.userId, now) : null;
    if (!claimant) throw conflict('no_claim', RESULTS.noShowNone);
    await claimAnswered(tx, m, user.userId, claimant, now);
  });
}

/** A no-show claim was answered (by its accused, or by a report): recorded, and its claimant told. */
async function claimAnswered(
  tx: Queryable,
  m: MatchRow,
  answeredBy: string,
  claimant: string,
  now: Date,
  detail?: Record<string, unknown>,
): Promise<void> {
  await recordTransition(tx, {
    matchId: m.id,
    actorId: answeredBy,
    action: 'no_show_answered',
    from: m.status,
    to: m.status,
    ...(detail ? { detail } : {}),
    now,
  });
  if (answeredBy !== claimant) await publish(tx, topics.user(claimant), 'match.no_show_answered', { matchId: m.id, answeredBy });
}

// ---------------------------------------------------------------------------------------
// Timers

export interface SweepCounts {
  /** External matches whose scheduled start came: now in progress. */
  started: number;
  forfeits: number;
  confirmedByTimeout: number;
  voided: number;
}

/** Settles unanswered claims, lone reports past the window and silent matches, each in its own transaction (retried next run). */
export async function sweepResults(
  ctx: Pick<AppContext, 'db' | 'log'>,
  now: Date,
  options: ResultsOptions = resultsOptions(),
): Promise<SweepCounts> {
  const counts: SweepCounts = { started: 0, forfeits: 0, confirmedByTimeout: 0, voided: 0 };
  const starts = await repo.dueStarts(ctx.db, now);
  const claims = await repo.dueClaims(ctx.db, now);
  const lonely = await repo.unansweredReports(ctx.db, new Date(now.getTime() - options.confirmWindowMs));
  const silent = await repo.silentMatches(ctx.db, new Date(now.getTime() - RESULT_RULES.noReportVoidMs));

  const each = async (ids: string[], what: keyof SweepCounts, work: (tx: Queryable, m: MatchRow) => Promise<boolean>) => {
    for (const match_id of ids) {
      try {
        const done = await ctx.db.transaction(async (tx) => {
          const m = await loadMatch(tx, match_id, true);
          if (!m || !ACTIVE.includes(m.status)) return false;
          return work(tx, m);
        });
        if (done) counts[what] += 1;
      } catch (error) {
        ctx.log.error({ err: error, matchId: match_id, what }, 'results timer failed for a match');
      }
    }
  };

  await each(starts, 'started', async (tx, m) => {
    if (m.status === 'in_progress' || m.start.getTime() > now.getTime()) return false;
    return startExternal(tx, m, m.start, null, 'started_at_schedule');
  });
  await each(claims, 'forfeits', async (tx, m) => {
    const claim = await repo.claimOf(tx, m.id);
    if (!claim || claim.status !== 'open' || claim.deadline.getTime() >= now.getTime()) return false;
    // The accused's report says they showed up, the claimant's 'loss' that it was played: reports settle it, not the claim.
    const reports = await repo.reportsOf(tx, m.id);
    const answer =
      reports.find((r) => r.user_id !== claim.claimant_id && r.created_at.getTime() <= claim.deadline.getTime()) ??
      reports.find((r) => r.user_id === claim.claimant_id && r.outcome === 'loss');
    if (answer) {
      const at = new Date(Math.max(answer.created_at.getTime(), claim.claimed_at.getTime()));
      await repo.closeClaimAnswered(tx, m.id, at);
      await claimAnswered(tx, m, answer.user_id, claim.claimant_id, now, { byReport: true });
      return false;
    }
    const claimant = await repo.forfeitClaim(tx, m.id, now);
    if (!claimant) return false;
    await settle(tx, m, { kind: 'win', winner: seatOf(m, claimant), reason: 'forfeit' }, now, null, 'no_show_forfeit');
    return true;
  });
  await each(lonely, 'confirmedByTimeout', async (tx, m) => {
    const rows = await repo.reportsOf(tx, m.id);
    const only = rows[0];
    if (rows.length !== 1 || !only || only.created_at.getTime() > now.getTime() - options.confirmWindowMs) return false;
    const winner = only.outcome === 'win' ? only.user_id : opponentOf(m, only.user_id);
    await settle(tx, m, { kind: 'win', winner: seatOf(m, winner), reason: 'games-won' }, now, null, 'confirmed_by_timeout');
    return true;
  });
  await each(silent, 'voided', async (tx, m) => {
    if ((await repo.reportsOf(tx, m.id)).length > 0 || m.start.getTime() > now.getTime() - RESULT_RULES.noReportVoidMs) return false;
    // A claim made since the list was read: the claim decides (the claimant wins unless answered).
    if ((await repo.claimOf(tx, m.id))?.status === 'open') return false;
    await settle(tx, m, { kind: 'void' }, now, null, 'no_report_void');
    return true;
  });
  return counts;
}

// ---------------------------------------------------------------------------------------
// Chat

const canRead = (m: MatchRow, user: AccessClaims) => isPlayer(m, user.userId) || user.role === 'admin';

export async function readChat(db: Queryable, matchId: string): Promise<ChatMessage[]> {
  const rows = await repo.chatOf(db, matchId);
  return rows.map((r) => ({
    id: r.id,
    matchId: r.match_id,
    userId: r.user_id,
    username: r.username,
    body: r.body,
    createdAt: r.created_at.toISOString(),
  }));
}

export async function listChat(ctx: AppContext, user: AccessClaims, matchId: string): Promise<ChatMessage[]> {
  const m = await loadMatch(ctx.db, matchId);
  if (!m) throw notFound(RESULTS.matchNotFound);
  if (!canRead(m, user)) throw forbidden(RESULTS.notPlayer);
  return readChat(ctx.db, m.id);
}

export async function postChat(ctx: AppContext, user: AccessClaims, matchId: string, body: string): Promise<ChatMessage> {
  return ctx.db.transaction(async (tx) => {
    const m = await loadMatch(tx, matchId);
    if (!m) throw notFound(RESULTS.matchNotFound);
    if (!isPlayer(m, user.userId)) throw forbidden(RESULTS.chatPlayersOnly);
    const row = await repo.insertChat(tx, m.id, user.userId, body);
    const message: ChatMessage = {
      id: row.id,
      matchId: m.id,
      userId: user.userId,
      username: row.username,
      body,
      createdAt: row.created_at.toISOString(),
    };
    await publish(tx, chatTopic(m.id), 'chat.message', message);
    return message;
  });
}

/** `match-chat:{id}`: the two players and admins. */
export async function canFollowChat(db: Queryable, user: AccessClaims, matchId: string | undefined): Promise<boolean> {
  if (!matchId) return false;
  const m = await loadMatch(db, matchId);
  return m !== null && canRead(m, user);
}

// ---------------------------------------------------------------------------------------
// Disputes (the players' side)

export async function addStatement(
  ctx: AppContext,
  store: FileStore,
  user: AccessClaims,
  matchId: string,
  input: { body: string | null; evidence: UploadedFile | null },
  now = new Date(),
): Promise<{ id: string }> {
  return withFiles(ctx, store, async (tx, stored) => {
    const m = await playerMatch(tx, user, matchId);
    const disputeId = await repo.lockOpenDispute(tx, m.id);
    if (!disputeId) throw conflict('dispute_not_open', RESULTS.disputeNotOpen);
    const evidenceId = input.evidence ? await storeEvidence(tx, store, m, user.userId, input.evidence, stored) : null;
    const id = await repo.insertStatement(tx, { disputeId, userId: user.userId, body: input.body, evidenceId, now });
    await recordTransition(tx, {
      matchId: m.id,
      actorId: user.userId,
      action: 'statement_added',
      from: m.status,
      to: m.status,
      detail: { statementId: id, evidenceId },
      now,
    });
    await publish(tx, topics.user(opponentOf(m, user.userId)), 'dispute.statement', { matchId: m.id, disputeId, userId: user.userId });
    return { id };
  });
}

// ---------------------------------------------------------------------------------------
// Reading

export const evidenceUrl = (matchId: string, id: string) => `/api/matches/${matchId}/evidence/${id}`;

export const toEvidence = (e: repo.EvidenceRow): Evidence => ({
  id: e.id,
  userId: e.user_id,
  contentType: e.content_type,
  size: e.size,
  url: evidenceUrl(e.match_id, e.id),
  createdAt: e.created_at.toISOString(),
});

export async function evidenceByIds(db: Queryable, ids: string[]): Promise<Map<string, Evidence>> {
  if (ids.length === 0) return new Map();
  const rows = await repo.evidenceRows(db, ids);
  return new Map(rows.map((r) => [r.id, toEvidence(r)]));
}

export async function readReports(db: Queryable, matchId: string): Promise<Report[]> {
  const rows = await repo.reportsOf(db, matchId);
  const evidence = await evidenceByIds(
    db,
    rows.flatMap((r) => (r.evidence_id ? [r.evidence_id] : [])),
  );
  return rows.map((r) => ({
    userId: r.user_id,
    outcome: r.outcome,
    evidence: r.evidence_id ? (evidence.get(r.evidence_id) ?? null) : null,
    createdAt: r.created_at.toISOString(),
  }));
}

export async function resultState(ctx: AppContext, user: AccessClaims, matchId: string, options = resultsOptions()): Promise<ResultState> {
  const m = await loadMatch(ctx.db, matchId);
  if (!m) throw notFound(RESULTS.matchNotFound);
  if (!canRead(m, user)) throw forbidden(RESULTS.notPlayer);
  const reports = await readReports(ctx.db, m.id);
  const claim = await repo.claimOf(ctx.db, m.id);
  const disputeId = await repo.disputeIdOf(ctx.db, m.id);
  const transitions = await repo.transitionsOf(ctx.db, m.id);
  const single = reports.length === 1 && ACTIVE.includes(m.status) ? reports[0] : undefined;
  return {
    matchId: m.id,
    status: m.status,
    reports,
    confirmDeadline: single ? new Date(new Date(single.createdAt).getTime() + options.confirmWindowMs).toISOString() : null,
    noShowClaim: claim
      ? {
          claimantId: claim.claimant_id,
          claimedAt: claim.claimed_at.toISOString(),
          deadline: claim.deadline.toISOString(),
          status: claim.status,
        }
      : null,
    disputeId,
    transitions: transitions.map((t) => ({
      actorId: t.actor_id,
      action: t.action,
      fromStatus: t.from_status,
      toStatus: t.to_status,
      detail: t.detail,
      createdAt: t.created_at.toISOString(),
    })),
  };
}

/** The evidence file for a player of its match or an admin. */
export async function evidenceFile(ctx: AppContext, store: FileStore, user: AccessClaims, matchId: string, evidenceId: string) {
  const m = await loadMatch(ctx.db, matchId);
  if (!m || !UUID.test(evidenceId)) throw notFound(RESULTS.evidenceNotFound);
  if (!canRead(m, user)) throw forbidden(RESULTS.notPlayer);
  const row = await repo.evidenceFile(ctx.db, evidenceId.toLowerCase(), m.id);
  if (!row) throw notFound(RESULTS.evidenceNotFound);
  const file = await store.get(row.storage_key);
  if (!file) throw notFound(RESULTS.evidenceNotFound);
  return { id: evidenceId.toLowerCase(), data: file.data, contentType: row.content_type };
}
