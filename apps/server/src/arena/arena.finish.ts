// The one way a match ends (lichess's Finisher), in the transaction that records it: row locked and version-checked (no double pay),
// escrow, records and ratings, result, events. Lock order, as the ledger asks: match, holds and accounts, profiles, challenge.
import {
  levelFor,
  nextStreak,
  type MatchCompletedUserEvent,
  type MatchEndReason,
  type MatchResult,
  type WebGameId,
} from '@versus/domain/arena';
import type { Currency } from '@versus/domain';
import type { OutcomeReason, Seat } from '@versus/domain/games/index';
import { GLICKO2, displayRating, rateMatch, type Glicko2Rating, type Score } from '@versus/domain/rating';
import { fromMinor } from '@versus/domain/money';
import type { Queryable } from '../db/database.ts';
import { settleDraw, settleEscrow } from '../ledger/ledger.service.ts';
import { announce, notifyEvent, topics } from '../realtime/publish.ts';
import * as repo from './arena.repository.ts';
import { NOTIFICATION_EVENTS } from '@versus/domain/notifications';
import { endingNotifications } from '../notifications/match-endings.ts';
import { announceCommitted } from '../notifications/notify.ts';
import type { ArenaState } from './arena.state.ts';
import { matchEvent } from './arena.views.ts';
import { handToTournament } from '../tournaments/tournaments.handoff.ts';

export type Ending =
  | { kind: 'win'; winner: Seat; reason: Exclude<MatchEndReason, 'void'> }
  | { kind: 'draw'; reason: Exclude<MatchEndReason, 'void'> }
  | { kind: 'void' };

/** A match nobody started by its deadline: the player who was ready wins by forfeit; nobody (or both), void. */
export const noShowEnding = (readyAt: readonly [unknown, unknown]): Ending => {
  const [ready0, ready1] = [readyAt[0] !== null, readyAt[1] !== null];
  return ready0 === ready1 ? { kind: 'void' } : { kind: 'win', winner: ready0 ? 0 : 1, reason: 'forfeit' };
};

export interface FinishInput {
  match: {
    id: string;
    /** Informational: the challenge is read from the locked match row. */
    challengeId?: string | null;
    players: [string, string];
    game: WebGameId;
    currency: Currency;
    /** The version the finisher saw: another one means someone else changed the match first. */
    version: number;
  };
  /** The final refereed state; null for a match that never started (a forfeit or a void). */
  state: ArenaState | null;
  ending: Ending;
  /** How the last game ended, when one was played. */
  lastGameReason: OutcomeReason | null;
  /** The move that ended the match, stored with the result. */
  move?: repo.MoveInsert | null;
  now: number;
  /** The public `match.completed` payload for the match topic. */
  publicEvent(result: MatchResult, version: number): unknown;
}

export type FinishOutcome = { ok: true; version: number; result: MatchResult } | { ok: false; reason: 'stale' | 'over' };

/** The match finishMatch ends, from its row (finishMatch settles and rates any game; only its type names the web games). */
export const finishTarget = (row: {
  id: string;
  challenge_id: string | null;
  player1_id: string;
  player2_id: string;
  game_type: string;
  currency: Currency;
  version: number;
}): FinishInput['match'] => ({
  id: row.id,
  challengeId: row.challenge_id,
  players: [row.player1_id, row.player2_id],
  game: row.game_type as WebGameId,
  currency: row.currency,
  version: row.version,
});

/** Ends a match from its stored row, nothing replayed (one nobody started, an admin's void); the event carries the row as stored. */
export function finishStored(tx: Queryable, core: repo.MatchCoreJson, ending: Ending, now: Date): Promise<FinishOutcome> {
  const readyAt: [string | null, string | null] = [core.player1_ready_at, core.player2_ready_at];
  return finishMatch(tx, {
    match: finishTarget(core),
    state: null,
    ending,
    lastGameReason: null,
    now: now.getTime(),
    publicEvent: (result, version) =>
      matchEvent(
        { matchId: core.id, version, status: ending.kind === 'void' ? 'cancelled' : 'completed', readyAt, state: null, now: now.getTime() },
        { result },
      ),
  });
}

const ACTIVE = ['pending', 'accepted', 'in_progress'];

export async function finishMatch(tx: Queryable, input: FinishInput): Promise<FinishOutcome> {
  const { match, ending } = input;
  const now = new Date(input.now);
  const locked = await repo.lockForFinish(tx, match.id);
  if (!locked || locked.version !== match.version) return { ok: false, reason: 'stale' };
  if (!ACTIVE.includes(locked.status)) return { ok: false, reason: 'over' };
  const version = match.version + 1;

  // The escrow: every stake held for the match.
  const key = `match:${match.id}:finish`;
  const winnerId = ending.kind === 'win' ? match.players[ending.winner] : null;
  let payouts: MatchResult['payouts'] = [];
  if (locked.holds.length > 0) {
    if (winnerId) {
      await settleEscrow(tx, { idempotencyKey: key, owner: { matchId: match.id }, winnerId, description: 'Match won' });
      payouts = [{ userId: winnerId, amount: fromMinor(locked.holds.reduce((sum, h) => sum + Number(h.amount), 0)) }];
    } else {
      await settleDraw(tx, {
        idempotencyKey: key,
        owner: { matchId: match.id },
        description: ending.kind === 'void' ? 'Match void: nobody showed up' : 'Match drawn',
      });
      payouts = locked.holds.map((h) => ({ userId: h.user_id, amount: fromMinor(Number(h.amount)) }));
    }
  }

  // Records and ratings (a void is no game: nothing changes). VTokens play is not a ranking: the
  // write keeps the real record and counts the virtual one, and nothing is rated.
  const virtual = match.currency === 'vtokens';
  const resultOf = (seat: Seat): 'win' | 'loss' | 'draw' => (ending.kind === 'win' ? (ending.winner === seat ? 'win' : 'loss') : 'draw');
  const profiles: repo.FinishWrite['profiles'] = [];
  const newRatings: repo.FinishWrite['ratings'] = [];
  const ratings: MatchResult['ratings'] = [];
  if (ending.kind !== 'void') {
    const records = await repo.lockRecords(tx, [...match.players], match.game);
    const recordOf = (id: string) => {
      const found = records.find((row) => row.id === id);
      if (!found) throw new Error(`finishMatch: profile ${id} missing`);
      return found;
    };
    const before = match.players.map((id): Glicko2Rating => {
      const r = recordOf(id);
      return r.rating === null || r.rd === null || r.volatility === null
        ? { ...GLICKO2.initial }
        : { rating: r.rating, rd: r.rd, volatility: r.volatility };
    }) as [Glicko2Rating, Glicko2Rating];
    const score: Score = ending.kind === 'win' ? (ending.winner === 0 ? 1 : 0) : 0.5;
    const after = rateMatch(before[0], before[1], score);
    match.players.forEach((id, i) => {
      const seat = i as Seat;
      const record = recordOf(id);
      const result = resultOf(seat);
      const wins = record.wins + (result === 'win' ? 1 : 0);
      profiles.push({
        id,
        wins,
        losses: record.losses + (result === 'loss' ? 1 : 0),
        streak: nextStreak(record.streak, result),
        level: levelFor(wins),
        result,
      });
      if (virtual) return;
      newRatings.push({ userId: id, ...after[seat], result });
      ratings.push({ userId: id, before: displayRating(before[seat]).value, after: displayRating(after[seat]).value });
    });
  }

  const result: MatchResult = {
    outcome: ending.kind,
    winnerId,
    winnerSeat: ending.kind === 'win' ? ending.winner : null,
    reason: ending.kind === 'void' ? 'void' : ending.reason,
    lastGameReason: input.lastGameReason,
    currency: match.currency,
    payouts,
    ratings,
    completedAt: now.toISOString(),
  };

  // The match's own event is not stored: it takes the match's final version (publish.ts isUnstoredTopic).
  const events: repo.FinishWrite['events'] = [];
  for (const [seat, userId] of match.players.entries()) {
    const rating = ratings.find((r) => r.userId === userId);
    const event: MatchCompletedUserEvent = {
      matchId: match.id,
      gameType: match.game,
      result: ending.kind === 'void' ? 'void' : resultOf(seat as Seat),
      reason: result.reason,
      currency: match.currency,
      received: payouts.filter((p) => p.userId === userId).reduce((sum, p) => sum + p.amount, 0),
      rating: rating ? { before: rating.before, after: rating.after } : null,
    };
    events.push({ topic: topics.user(userId), type: 'match.completed', payload: event });
    // The player's notifications ride in the same write (their rows are stored from these events);
    // a tournament's game has no stake to speak of: the tournament tells its players what follows.
    if (locked.tournament_id) continue;
    for (const note of endingNotifications(userId, event, now)) {
      events.push({ topic: topics.user(userId), type: NOTIFICATION_EVENTS.created, payload: note });
      announceCommitted(tx, [note.id]);
    }
  }
  const challengeStatus = ending.kind === 'void' ? 'cancelled' : 'completed';
  if (locked.challenge_id) {
    events.push({
      topic: topics.challenge(locked.challenge_id),
      type: `challenge.${challengeStatus}`,
      payload: { challengeId: locked.challenge_id, status: challengeStatus },
    });
  }

  const move = input.move ?? null;
  const versions = await repo.writeFinish(tx, {
    id: match.id,
    status: ending.kind === 'void' ? 'cancelled' : 'completed',
    winnerId,
    endReason: result.reason,
    completedAt: now,
    state: input.state,
    result,
    version,
    gameData: move ? { moveCount: move.seq, lastMoveBy: match.players[move.seat] } : null,
    challenge: locked.challenge_id ? { id: locked.challenge_id, status: challengeStatus } : null,
    profiles,
    virtual,
    game: match.game,
    ratings: newRatings,
    move,
    events,
  });
  announce(tx, topics.match(match.id), version, 'match.completed', JSON.stringify(input.publicEvent(result, version)));
  events.forEach((e, i) =>
    notifyEvent(tx, { topic: e.topic, version: versions[i]!, type: e.type, payloadJson: JSON.stringify(e.payload) }),
  );
  if (locked.tournament_id) handToTournament(tx, locked.tournament_id);
  return { ok: true, version, result };
}
