// The SQL of external-game results: matches as the results see them, reports, evidence,
// no-show claims, the chat, disputes, statements and transitions.
import type { Currency } from '@versus/domain';
import type { GameId } from '@versus/domain/catalogue';
import type { ReportOutcome } from '@versus/domain/results';
import type { Queryable } from '../db/database.ts';

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
  /** The scheduled start (the creation time when none was set). */
  start: Date;
  /** When each player said they are ready to play now (both: the match starts at once). */
  player1_ready_at: Date | null;
  player2_ready_at: Date | null;
}

export async function findMatch(db: Queryable, id: string, lock: boolean): Promise<MatchRow | null> {
  const [row] = await db.query<MatchRow>(
    `SELECT id, challenge_id, player1_id, player2_id, game_type, currency, stake, status, version,
            coalesce(scheduled_time, created_at) AS start, player1_ready_at, player2_ready_at
       FROM matches WHERE id = $1 ${lock ? 'FOR UPDATE' : ''}`,
    [id],
  );
  return row ?? null;
}

export interface TransitionInsert {
  matchId: string;
  actorId: string | null;
  action: string;
  from: string | null;
  to: string | null;
  detail?: unknown;
  now: Date;
}

export async function insertTransition(tx: Queryable, t: TransitionInsert): Promise<void> {
  await tx.query(
    `INSERT INTO match_transitions (match_id, actor_id, action, from_status, to_status, detail, created_at)
     VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7)`,
    [t.matchId, t.actorId, t.action, t.from, t.to, JSON.stringify(t.detail ?? {}), t.now],
  );
}

export interface TransitionRow {
  actor_id: string | null;
  action: string;
  from_status: string | null;
  to_status: string | null;
  detail: unknown;
  created_at: Date;
}

export function transitionsOf(db: Queryable, matchId: string): Promise<TransitionRow[]> {
  return db.query<TransitionRow>(
    'SELECT actor_id, action, from_status, to_status, detail, created_at FROM match_transitions WHERE match_id = $1 ORDER BY id',
    [matchId],
  );
}

// Evidence

export interface EvidenceRow {
  id: string;
  match_id: string;
  user_id: string;
  content_type: string;
  size: number;
  created_at: Date;
}

export async function insertEvidence(
  tx: Queryable,
  e: { matchId: string; userId: string; key: string; contentType: string; size: number },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    'INSERT INTO match_evidence (match_id, user_id, storage_key, content_type, size) VALUES ($1, $2, $3, $4, $5) RETURNING id',
    [e.matchId, e.userId, e.key, e.contentType, e.size],
  );
  return row!.id;
}

export function evidenceRows(db: Queryable, ids: string[]): Promise<EvidenceRow[]> {
  return db.query<EvidenceRow>(
    'SELECT id, match_id, user_id, content_type, size, created_at FROM match_evidence WHERE id = ANY ($1::uuid[])',
    [ids],
  );
}

export async function evidenceFile(
  db: Queryable,
  id: string,
  matchId: string,
): Promise<{ storage_key: string; content_type: string } | null> {
  const [row] = await db.query<{ storage_key: string; content_type: string }>(
    'SELECT storage_key, content_type FROM match_evidence WHERE id = $1 AND match_id = $2',
    [id, matchId],
  );
  return row ?? null;
}

// Reports

export interface ReportRow {
  user_id: string;
  outcome: ReportOutcome;
  evidence_id: string | null;
  created_at: Date;
}

export function reportsOf(db: Queryable, matchId: string): Promise<ReportRow[]> {
  return db.query<ReportRow>(
    'SELECT user_id, outcome, evidence_id, created_at FROM match_reports WHERE match_id = $1 ORDER BY created_at, user_id',
    [matchId],
  );
}

export async function insertReport(
  tx: Queryable,
  r: { matchId: string; userId: string; outcome: ReportOutcome; evidenceId: string | null; now: Date },
): Promise<void> {
  await tx.query('INSERT INTO match_reports (match_id, user_id, outcome, evidence_id, created_at) VALUES ($1, $2, $3, $4, $5)', [
    r.matchId,
    r.userId,
    r.outcome,
    r.evidenceId,
    r.now,
  ]);
}

/** The match disputed (in the disputing transaction): its new version. */
export async function markDisputed(tx: Queryable, matchId: string, now: Date): Promise<number> {
  const [row] = await tx.query<{ version: number }>(
    `UPDATE matches SET status = 'disputed', version = version + 1, updated_at = $2 WHERE id = $1 RETURNING version`,
    [matchId, now],
  );
  return row!.version;
}

/** A player of an external match is ready to play now (in the locking transaction): its new version. */
export async function markReady(tx: Queryable, matchId: string, seat: 0 | 1, now: Date): Promise<number> {
  const column = seat === 0 ? 'player1_ready_at' : 'player2_ready_at';
  const [row] = await tx.query<{ version: number }>(
    `UPDATE matches SET ${column} = coalesce(${column}, $2), version = version + 1, updated_at = $2 WHERE id = $1 RETURNING version`,
    [matchId, now],
  );
  return row!.version;
}

/** An external match starts (both ready, or its scheduled start came): pending → in_progress; its new version. */
export async function markStarted(tx: Queryable, matchId: string, startedAt: Date, now: Date): Promise<number | null> {
  const [row] = await tx.query<{ version: number }>(
    `UPDATE matches SET status = 'in_progress', started_at = $2, version = version + 1, updated_at = $3
      WHERE id = $1 AND status IN ('pending', 'accepted') RETURNING version`,
    [matchId, startedAt, now],
  );
  return row?.version ?? null;
}

/** A disputed match back to 'accepted' for its resolution (in the resolving transaction): its new version. */
export async function reopenDisputed(tx: Queryable, matchId: string, now: Date): Promise<number | null> {
  const [row] = await tx.query<{ version: number }>(
    `UPDATE matches SET status = 'accepted', version = version + 1, updated_at = $2
      WHERE id = $1 AND status = 'disputed' RETURNING version`,
    [matchId, now],
  );
  return row?.version ?? null;
}

// No-show claims

export interface ClaimRow {
  claimant_id: string;
  claimed_at: Date;
  deadline: Date;
  status: 'open' | 'answered' | 'forfeited';
}

export async function insertClaim(tx: Queryable, c: { matchId: string; claimantId: string; now: Date; deadline: Date }): Promise<boolean> {
  const rows = await tx.query(
    `INSERT INTO match_no_show_claims (match_id, claimant_id, claimed_at, deadline) VALUES ($1, $2, $3, $4)
     ON CONFLICT (match_id) DO NOTHING RETURNING match_id`,
    [c.matchId, c.claimantId, c.now, c.deadline],
  );
  return rows.length > 0;
}

/** Answers the open claim against `userId` if its deadline has not passed: the claimant, or null. */
export async function answerClaim(tx: Queryable, matchId: string, userId: string, now: Date): Promise<string | null> {
  const [row] = await tx.query<{ claimant_id: string }>(
    `UPDATE match_no_show_claims SET status = 'answered', answered_at = $3
      WHERE match_id = $1 AND claimant_id <> $2 AND status = 'open' AND deadline >= $3 RETURNING claimant_id`,
    [matchId, userId, now],
  );
  return row?.claimant_id ?? null;
}

/** Closes an open claim as answered at `at` (a report answered it, or its claimant conceded). */
export async function closeClaimAnswered(tx: Queryable, matchId: string, at: Date): Promise<void> {
  await tx.query(`UPDATE match_no_show_claims SET status = 'answered', answered_at = $2 WHERE match_id = $1 AND status = 'open'`, [
    matchId,
    at,
  ]);
}

/** Ends an unanswered claim whose deadline passed: the claimant, or null. */
export async function forfeitClaim(tx: Queryable, matchId: string, now: Date): Promise<string | null> {
  const [row] = await tx.query<{ claimant_id: string }>(
    `UPDATE match_no_show_claims SET status = 'forfeited' WHERE match_id = $1 AND status = 'open' AND deadline < $2 RETURNING claimant_id`,
    [matchId, now],
  );
  return row?.claimant_id ?? null;
}

export async function claimOf(db: Queryable, matchId: string): Promise<ClaimRow | null> {
  const [row] = await db.query<ClaimRow>('SELECT claimant_id, claimed_at, deadline, status FROM match_no_show_claims WHERE match_id = $1', [
    matchId,
  ]);
  return row ?? null;
}

// The timers' work lists

const ACTIVE_SQL = `m.status IN ('pending', 'accepted', 'in_progress')`;
const EXTERNAL_SQL = `m.game_type IN ('fortnite', 'fifa-24', 'call-of-duty', 'rocket-league', 'valorant')`;
const BATCH = 200;

/** External matches whose scheduled start has come and that still wait for it. */
export async function dueStarts(db: Queryable, now: Date): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT m.id FROM matches m
      WHERE m.status IN ('pending', 'accepted') AND coalesce(m.scheduled_time, m.created_at) <= $1 AND ${EXTERNAL_SQL}
      ORDER BY coalesce(m.scheduled_time, m.created_at) LIMIT ${BATCH}`,
    [now],
  );
  return rows.map((r) => r.id);
}

export async function dueClaims(db: Queryable, now: Date): Promise<string[]> {
  const rows = await db.query<{ match_id: string }>(
    `SELECT c.match_id FROM match_no_show_claims c JOIN matches m ON m.id = c.match_id
      WHERE c.status = 'open' AND c.deadline < $1 AND ${ACTIVE_SQL} ORDER BY c.deadline LIMIT ${BATCH}`,
    [now],
  );
  return rows.map((r) => r.match_id);
}

/** Active external matches with one report, made at or before `before`. */
export async function unansweredReports(db: Queryable, before: Date): Promise<string[]> {
  const rows = await db.query<{ match_id: string }>(
    `SELECT r.match_id FROM match_reports r JOIN matches m ON m.id = r.match_id
      WHERE ${ACTIVE_SQL} AND ${EXTERNAL_SQL} AND r.created_at <= $1
        AND NOT EXISTS (SELECT 1 FROM match_reports o WHERE o.match_id = r.match_id AND o.user_id <> r.user_id)
      ORDER BY r.created_at LIMIT ${BATCH}`,
    [before],
  );
  return rows.map((r) => r.match_id);
}

/** Active external matches started at or before `before` with no report and no open claim. */
export async function silentMatches(db: Queryable, before: Date): Promise<string[]> {
  const rows = await db.query<{ match_id: string }>(
    `SELECT m.id AS match_id FROM matches m
      WHERE ${ACTIVE_SQL} AND ${EXTERNAL_SQL} AND coalesce(m.scheduled_time, m.created_at) <= $1
        AND NOT EXISTS (SELECT 1 FROM match_reports r WHERE r.match_id = m.id)
        AND NOT EXISTS (SELECT 1 FROM match_no_show_claims c WHERE c.match_id = m.id AND c.status = 'open')
      ORDER BY coalesce(m.scheduled_time, m.created_at) LIMIT ${BATCH}`,
    [before],
  );
  return rows.map((r) => r.match_id);
}

// Chat

export interface ChatRow {
  id: string;
  match_id: string;
  user_id: string;
  username: string;
  body: string;
  created_at: Date;
}

export function chatOf(db: Queryable, matchId: string): Promise<ChatRow[]> {
  return db.query<ChatRow>(
    `SELECT c.id::text, c.match_id, c.user_id, p.username, c.body, c.created_at
       FROM match_chat c JOIN profiles p ON p.id = c.user_id WHERE c.match_id = $1 ORDER BY c.id LIMIT 500`,
    [matchId],
  );
}

export async function insertChat(tx: Queryable, matchId: string, userId: string, body: string): Promise<ChatRow> {
  const [row] = await tx.query<ChatRow>(
    `INSERT INTO match_chat (match_id, user_id, body) VALUES ($1, $2, $3)
     RETURNING id::text, match_id, user_id, body, created_at, (SELECT username FROM profiles WHERE id = $2) AS username`,
    [matchId, userId, body],
  );
  return row!;
}

// Disputes

export async function insertDispute(tx: Queryable, matchId: string, now: Date): Promise<string> {
  const [row] = await tx.query<{ id: string }>('INSERT INTO disputes (match_id, opened_at) VALUES ($1, $2) RETURNING id', [matchId, now]);
  return row!.id;
}

export async function disputeIdOf(db: Queryable, matchId: string): Promise<string | null> {
  const [row] = await db.query<{ id: string }>('SELECT id FROM disputes WHERE match_id = $1', [matchId]);
  return row?.id ?? null;
}

export async function lockOpenDispute(tx: Queryable, matchId: string): Promise<string | null> {
  const [row] = await tx.query<{ id: string }>(`SELECT id FROM disputes WHERE match_id = $1 AND status = 'open' FOR UPDATE`, [matchId]);
  return row?.id ?? null;
}

export async function insertStatement(
  tx: Queryable,
  s: { disputeId: string; userId: string; body: string | null; evidenceId: string | null; now: Date },
): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    'INSERT INTO dispute_statements (dispute_id, user_id, body, evidence_id, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id::text',
    [s.disputeId, s.userId, s.body, s.evidenceId, s.now],
  );
  return row!.id;
}
