// Results of external games (fortnite, fifa-24, call-of-duty, rocket-league, valorant): the two
// players report, agreeing reports settle at once, conflicting ones open a dispute that an admin
// resolves; timers settle what the players leave hanging. Every ending goes through the arena's
// finishMatch (escrow, records, ratings, match.completed); every step is a match_transitions row.
import type { WebGameId } from '@versus/domain/arena';
import type { Currency } from '@versus/domain';
import { isWebGame } from '@versus/domain/catalogue';
import type { GameId } from '@versus/domain/catalogue';
import { RESULTS } from '@versus/domain/messages';
import {
  RESULT_RULES,
  type ChatMessage,
  type Evidence,
  type Report,
  type ReportOutcome,
  type ResultState,
} from '@versus/domain/results';
import type { AccessClaims } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { finishMatch, type Ending } from '../arena/arena.finish.ts';
import { conflict, forbidden, notFound } from '../http/errors.ts';
import { publish, topics } from '../realtime/publish.ts';
import { newKey, type FileStore } from '../storage/file-store.ts';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const chatTopic = (matchId: string) => `match-chat:${matchId}`;
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

export interface MatchRow {
  id: string;
  challenge_id: string | null;
  player1_id: string;
  player2_id: string;
  game_type: GameId;
  currency: Currency;
  stake: number;
  status: string;
  version: number;
  start: Date;
}

export async function loadMatch(db: Queryable, id: string, lock = false): Promise<MatchRow | null> {
  if (!UUID.test(id)) return null;
  const [row] = await db.query<MatchRow>(
    `SELECT id, challenge_id, player1_id, player2_id, game_type, currency, stake, status, version,
            coalesce(scheduled_time, created_at) AS start
       FROM matches WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id.toLowerCase()],
  );
  return row ?? null;
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

export async function recordTransition(
  tx: Queryable,
  t: { matchId: string; actorId: string | null; action: string; from: string | null; to: string | null; detail?: unknown; now: Date },
): Promise<void> {
  await tx.query(
    `INSERT INTO match_transitions (match_id, actor_id, action, from_status, to_status, detail, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
    [t.matchId, t.actorId, t.action, t.from, t.to, JSON.stringify(t.detail ?? {}), t.now],
  );
}

/** Ends the match through finishMatch (the one settlement path); refuses when it is already over. */
export async function settle(tx: Queryable, m: MatchRow, ending: Ending, now: Date, actorId: string | null, action: string): Promise<void> {
  const outcome = await finishMatch(tx, {
    match: {
      id: m.id,
      challengeId: m.challenge_id,
      players: [m.player1_id, m.player2_id],
      // finishMatch settles and rates any game; only its type names the web games.
      game: m.game_type as WebGameId,
      currency: m.currency,
      version: m.version,
    },
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

export interface UploadedFile {
  data: Buffer;
  contentType: string;
}

async function storeEvidence(tx: Queryable, store: FileStore, m: MatchRow, userId: string, file: UploadedFile, stored: string[]): Promise<string> {
  const key = newKey(`evidence/${m.id}`, file.contentType);
  await store.put(key, file.data, file.contentType);
  stored.push(key);
  const [row] = await tx.query<{ id: string }>(
    'INSERT INTO match_evidence (match_id, user_id, storage_key, content_type, size) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [m.id, userId, key, file.contentType, file.data.length],
  );
  return row!.id;
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
    const reports = await tx.query<{ user_id: string; outcome: ReportOutcome }>('SELECT user_id, outcome FROM match_reports WHERE match_id = $1', [m.id]);
    if (reports.some((r) => r.user_id === user.userId)) throw conflict('already_reported', RESULTS.alreadyReported);
    if (!ACTIVE.includes(m.status)) throw conflict('match_over', RESULTS.matchOver);
    if (now.getTime() < m.start.getTime()) throw conflict('not_started', RESULTS.notStarted);

    const evidenceId = input.evidence ? await storeEvidence(tx, store, m, user.userId, input.evidence, stored) : null;
    await tx.query('INSERT INTO match_reports (match_id, user_id, outcome, evidence_id, created_at) VALUES ($1, $2, $3, $4, $5)', [
      m.id,
      user.userId,
      input.outcome,
      evidenceId,
      now,
    ]);
    await recordTransition(tx, { matchId: m.id, actorId: user.userId, action: 'reported', from: m.status, to: m.status, detail: { outcome: input.outcome, evidenceId }, now });
    // A report is an answer to a no-show claim against its author.
    await tx.query(`UPDATE match_no_show_claims SET status = 'answered', answered_at = $3 WHERE match_id = $1 AND claimant_id <> $2 AND status = 'open'`, [m.id, user.userId, now]);

    const other = reports.find((r) => r.user_id !== user.userId);
    const opponent = opponentOf(m, user.userId);
    if (!other) {
      const confirmDeadline = new Date(now.getTime() + resultsOptions().confirmWindowMs).toISOString();
      await publish(tx, topics.user(opponent), 'match.result_reported', { matchId: m.id, reporterId: user.userId, outcome: input.outcome, confirmDeadline });
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

async function openDispute(tx: Queryable, m: MatchRow, actorId: string, now: Date): Promise<string> {
  await tx.query(`UPDATE matches SET status = 'disputed', version = version + 1, updated_at = $2 WHERE id = $1`, [m.id, now]);
  const [row] = await tx.query<{ id: string }>('INSERT INTO disputes (match_id, opened_at) VALUES ($1, $2) RETURNING id', [m.id, now]);
  await recordTransition(tx, { matchId: m.id, actorId, action: 'disputed', from: m.status, to: 'disputed', detail: { disputeId: row!.id }, now });
  const payload = { matchId: m.id, disputeId: row!.id, status: 'disputed', message: RESULTS.underReview };
  await publish(tx, topics.match(m.id), 'match.disputed', { matchId: m.id, status: 'disputed' });
  for (const id of [m.player1_id, m.player2_id]) await publish(tx, topics.user(id), 'match.disputed', payload);
  return row!.id;
}

export async function claimNoShow(ctx: AppContext, user: AccessClaims, matchId: string, now = new Date()): Promise<{ deadline: string }> {
  return ctx.db.transaction(async (tx) => {
    const m = await playerMatch(tx, user, matchId);
    if (!ACTIVE.includes(m.status)) throw conflict('match_over', RESULTS.matchOver);
    if (now.getTime() < m.start.getTime() + RESULT_RULES.noShowOpensAfterMs) throw conflict('too_early', RESULTS.noShowTooEarly);
    const deadline = new Date(now.getTime() + RESULT_RULES.noShowAnswerMs);
    const rows = await tx.query(
      `INSERT INTO match_no_show_claims (match_id, claimant_id, claimed_at, deadline) VALUES ($1, $2, $3, $4)
       ON CONFLICT (match_id) DO NOTHING RETURNING match_id`,
      [m.id, user.userId, now, deadline],
    );
    if (rows.length === 0) throw conflict('no_show_exists', RESULTS.noShowExists);
    await recordTransition(tx, { matchId: m.id, actorId: user.userId, action: 'no_show_claimed', from: m.status, to: m.status, detail: { deadline }, now });
    await publish(tx, topics.user(opponentOf(m, user.userId)), 'match.no_show_claimed', {
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
    const rows = await tx.query<{ claimant_id: string }>(
      `UPDATE match_no_show_claims SET status = 'answered', answered_at = $3
        WHERE match_id = $1 AND claimant_id <> $2 AND status = 'open' AND deadline >= $3 RETURNING claimant_id`,
      [m.id, user.userId, now],
    );
    if (rows.length === 0 || !ACTIVE.includes(m.status)) throw conflict('no_claim', RESULTS.noShowNone);
    await recordTransition(tx, { matchId: m.id, actorId: user.userId, action: 'no_show_answered', from: m.status, to: m.status, now });
    await publish(tx, topics.user(rows[0]!.claimant_id), 'match.no_show_answered', { matchId: m.id, answeredBy: user.userId });
  });
}

// ---------------------------------------------------------------------------------------
// Timers

export interface SweepCounts {
  forfeits: number;
  confirmedByTimeout: number;
  voided: number;
}

const EXTERNAL_SQL = `m.game_type IN ('fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')`;

/**
 * Settles what the players left hanging at `now`: unanswered no-show claims (the claimant
 * wins), single reports older than the confirmation window (settled as reported), and matches
 * with no report 24 h after the start (void). Each match in its own transaction; a failure is
 * logged and retried next run.
 */
export async function sweepResults(ctx: Pick<AppContext, 'db' | 'log'>, now: Date, options: ResultsOptions = resultsOptions()): Promise<SweepCounts> {
  const counts: SweepCounts = { forfeits: 0, confirmedByTimeout: 0, voided: 0 };
  const active = `m.status IN ('pending', 'accepted', 'in_progress')`;
  const claims = await ctx.db.query<{ match_id: string }>(
    `SELECT c.match_id FROM match_no_show_claims c JOIN matches m ON m.id = c.match_id
      WHERE c.status = 'open' AND c.deadline < $1 AND ${active} ORDER BY c.deadline LIMIT 200`,
    [now],
  );
  const lonely = await ctx.db.query<{ match_id: string }>(
    `SELECT r.match_id FROM match_reports r JOIN matches m ON m.id = r.match_id
      WHERE ${active} AND ${EXTERNAL_SQL} AND r.created_at <= $1
        AND NOT EXISTS (SELECT 1 FROM match_reports o WHERE o.match_id = r.match_id AND o.user_id <> r.user_id)
      ORDER BY r.created_at LIMIT 200`,
    [new Date(now.getTime() - options.confirmWindowMs)],
  );
  const silent = await ctx.db.query<{ match_id: string }>(
    `SELECT m.id AS match_id FROM matches m
      WHERE ${active} AND ${EXTERNAL_SQL} AND coalesce(m.scheduled_time, m.created_at) <= $1
        AND NOT EXISTS (SELECT 1 FROM match_reports r WHERE r.match_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM match_no_show_claims c WHERE c.match_id = m.id AND c.status = 'open')
      ORDER BY coalesce(m.scheduled_time, m.created_at) LIMIT 200`,
    [new Date(now.getTime() - RESULT_RULES.noReportVoidMs)],
  );

  const each = async (ids: { match_id: string }[], what: keyof SweepCounts, work: (tx: Queryable, m: MatchRow) => Promise<boolean>) => {
    for (const { match_id } of ids) {
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

  await each(claims, 'forfeits', async (tx, m) => {
    const [claim] = await tx.query<{ claimant_id: string }>(
      `UPDATE match_no_show_claims SET status = 'forfeited' WHERE match_id = $1 AND status = 'open' AND deadline < $2 RETURNING claimant_id`,
      [m.id, now],
    );
    if (!claim) return false;
    await settle(tx, m, { kind: 'win', winner: seatOf(m, claim.claimant_id), reason: 'forfeit' }, now, null, 'no_show_forfeit');
    return true;
  });
  await each(lonely, 'confirmedByTimeout', async (tx, m) => {
    const rows = await tx.query<{ user_id: string; outcome: ReportOutcome; created_at: Date }>('SELECT user_id, outcome, created_at FROM match_reports WHERE match_id = $1', [m.id]);
    const only = rows[0];
    if (rows.length !== 1 || !only || only.created_at.getTime() > now.getTime() - options.confirmWindowMs) return false;
    const winner = only.outcome === 'win' ? only.user_id : opponentOf(m, only.user_id);
    await settle(tx, m, { kind: 'win', winner: seatOf(m, winner), reason: 'games-won' }, now, null, 'confirmed_by_timeout');
    return true;
  });
  await each(silent, 'voided', async (tx, m) => {
    const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM match_reports WHERE match_id = $1', [m.id]);
    if (row!.n > 0 || m.start.getTime() > now.getTime() - RESULT_RULES.noReportVoidMs) return false;
    await settle(tx, m, { kind: 'void' }, now, null, 'no_report_void');
    return true;
  });
  return counts;
}

// ---------------------------------------------------------------------------------------
// Chat

const canRead = (m: MatchRow, user: AccessClaims) => isPlayer(m, user.userId) || user.role === 'admin';

export async function readChat(db: Queryable, matchId: string): Promise<ChatMessage[]> {
  const rows = await db.query<{ id: string; match_id: string; user_id: string; username: string; body: string; created_at: Date }>(
    `SELECT c.id::text, c.match_id, c.user_id, p.username, c.body, c.created_at
       FROM match_chat c JOIN profiles p ON p.id = c.user_id WHERE c.match_id = $1 ORDER BY c.id LIMIT 500`,
    [matchId],
  );
  return rows.map((r) => ({ id: r.id, matchId: r.match_id, userId: r.user_id, username: r.username, body: r.body, createdAt: r.created_at.toISOString() }));
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
    const [row] = await tx.query<{ id: string; username: string; created_at: Date }>(
      `INSERT INTO match_chat (match_id, user_id, body) VALUES ($1, $2, $3)
       RETURNING id::text, created_at, (SELECT username FROM profiles WHERE id = $2) AS username`,
      [m.id, user.userId, body],
    );
    const message: ChatMessage = { id: row!.id, matchId: m.id, userId: user.userId, username: row!.username, body, createdAt: row!.created_at.toISOString() };
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
    const [dispute] = await tx.query<{ id: string }>(`SELECT id FROM disputes WHERE match_id = $1 AND status = 'open' FOR UPDATE`, [m.id]);
    if (!dispute) throw conflict('dispute_not_open', RESULTS.disputeNotOpen);
    const evidenceId = input.evidence ? await storeEvidence(tx, store, m, user.userId, input.evidence, stored) : null;
    const [row] = await tx.query<{ id: string }>(
      'INSERT INTO dispute_statements (dispute_id, user_id, body, evidence_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id::text',
      [dispute.id, user.userId, input.body, evidenceId, now],
    );
    await recordTransition(tx, { matchId: m.id, actorId: user.userId, action: 'statement_added', from: m.status, to: m.status, detail: { statementId: row!.id, evidenceId }, now });
    await publish(tx, topics.user(opponentOf(m, user.userId)), 'dispute.statement', { matchId: m.id, disputeId: dispute.id, userId: user.userId });
    return { id: row!.id };
  });
}

// ---------------------------------------------------------------------------------------
// Reading

export const evidenceUrl = (matchId: string, id: string) => `/api/matches/${matchId}/evidence/${id}`;

interface EvidenceRow {
  id: string;
  match_id: string;
  user_id: string;
  content_type: string;
  size: number;
  created_at: Date;
}

export const toEvidence = (e: EvidenceRow): Evidence => ({
  id: e.id,
  userId: e.user_id,
  contentType: e.content_type,
  size: e.size,
  url: evidenceUrl(e.match_id, e.id),
  createdAt: e.created_at.toISOString(),
});

export async function evidenceByIds(db: Queryable, ids: string[]): Promise<Map<string, Evidence>> {
  if (ids.length === 0) return new Map();
  const rows = await db.query<EvidenceRow>('SELECT id, match_id, user_id, content_type, size, created_at FROM match_evidence WHERE id = ANY ($1::uuid[])', [ids]);
  return new Map(rows.map((r) => [r.id, toEvidence(r)]));
}

export async function readReports(db: Queryable, matchId: string): Promise<Report[]> {
  const rows = await db.query<{ user_id: string; outcome: ReportOutcome; evidence_id: string | null; created_at: Date }>(
    'SELECT user_id, outcome, evidence_id, created_at FROM match_reports WHERE match_id = $1 ORDER BY created_at',
    [matchId],
  );
  const evidence = await evidenceByIds(db, rows.flatMap((r) => (r.evidence_id ? [r.evidence_id] : [])));
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
  const [claim] = await ctx.db.query<{ claimant_id: string; claimed_at: Date; deadline: Date; status: 'open' | 'answered' | 'forfeited' }>(
    'SELECT claimant_id, claimed_at, deadline, status FROM match_no_show_claims WHERE match_id = $1',
    [m.id],
  );
  const [dispute] = await ctx.db.query<{ id: string }>('SELECT id FROM disputes WHERE match_id = $1', [m.id]);
  const transitions = await ctx.db.query<{ actor_id: string | null; action: string; from_status: string | null; to_status: string | null; detail: unknown; created_at: Date }>(
    'SELECT actor_id, action, from_status, to_status, detail, created_at FROM match_transitions WHERE match_id = $1 ORDER BY id',
    [m.id],
  );
  const single = reports.length === 1 && ACTIVE.includes(m.status) ? reports[0] : undefined;
  return {
    matchId: m.id,
    status: m.status,
    reports,
    confirmDeadline: single ? new Date(new Date(single.createdAt).getTime() + options.confirmWindowMs).toISOString() : null,
    noShowClaim: claim
      ? { claimantId: claim.claimant_id, claimedAt: claim.claimed_at.toISOString(), deadline: claim.deadline.toISOString(), status: claim.status }
      : null,
    disputeId: dispute?.id ?? null,
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
  const [row] = await ctx.db.query<{ storage_key: string; content_type: string }>(
    'SELECT storage_key, content_type FROM match_evidence WHERE id = $1 AND match_id = $2',
    [evidenceId.toLowerCase(), m.id],
  );
  if (!row) throw notFound(RESULTS.evidenceNotFound);
  const file = await store.get(row.storage_key);
  if (!file) throw notFound(RESULTS.evidenceNotFound);
  return { id: evidenceId.toLowerCase(), data: file.data, contentType: row.content_type };
}
