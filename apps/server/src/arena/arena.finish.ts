// The one way a match ends (lichess's Finisher). Checkmate, a won series, a timeout, a
// resignation, a no-show forfeit, an agreed draw, the drawn-game cap and a void all come here,
// inside the transaction that records the result:
//   1. the match row, locked and version-checked (a stale finisher changes nothing: no double pay);
//   2. its challenge closed;
//   3. the escrow settled through the ledger: the winner gets every stake (2 × stake), a draw or
//      a void returns each stake to its player;
//   4. (not for a void) wins, losses, streak, level, and the Glicko-2 rating of this game;
//   5. the result stored, `match.completed` published on the match and on both players' topics.
// Lock order, as the ledger asks: match, challenge, holds and accounts (the ledger), profiles, ratings.
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
import { publish, topics } from '../realtime/publish.ts';
import * as repo from './arena.repository.ts';
import type { ArenaState } from './arena.state.ts';

export type Ending =
  | { kind: 'win'; winner: Seat; reason: Exclude<MatchEndReason, 'void'> }
  | { kind: 'draw'; reason: Exclude<MatchEndReason, 'void'> }
  | { kind: 'void' };

export interface FinishInput {
  match: {
    id: string;
    challengeId: string | null;
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
  now: number;
  /** The public `match.completed` payload for the match topic. */
  publicEvent(result: MatchResult, version: number): unknown;
}

export type FinishOutcome = { ok: true; version: number; result: MatchResult } | { ok: false; reason: 'stale' | 'over' };

export async function finishMatch(tx: Queryable, input: FinishInput): Promise<FinishOutcome> {
  const { match, ending } = input;
  const now = new Date(input.now);
  const locked = await repo.lockMatch(tx, match.id);
  if (!locked || locked.version !== match.version) return { ok: false, reason: 'stale' };
  if (!['pending', 'accepted', 'in_progress'].includes(locked.status)) return { ok: false, reason: 'over' };
  const version = match.version + 1;

  if (match.challengeId) await repo.closeChallenge(tx, match.challengeId, ending.kind === 'void' ? 'cancelled' : 'completed', now);

  // The escrow: every stake held for the match.
  const holds = await repo.heldStakes(tx, match.id);
  const key = `match:${match.id}:finish`;
  const winnerId = ending.kind === 'win' ? match.players[ending.winner] : null;
  let payouts: MatchResult['payouts'] = [];
  if (holds.length > 0) {
    if (winnerId) {
      await settleEscrow(tx, { idempotencyKey: key, owner: { matchId: match.id }, winnerId, description: 'Match won' });
      payouts = [{ userId: winnerId, amount: fromMinor(holds.reduce((sum, h) => sum + h.amount, 0)) }];
    } else {
      await settleDraw(tx, {
        idempotencyKey: key,
        owner: { matchId: match.id },
        description: ending.kind === 'void' ? 'Match void: nobody showed up' : 'Match drawn',
      });
      payouts = holds.map((h) => ({ userId: h.user_id, amount: fromMinor(h.amount) }));
    }
  }

  // Records and ratings (a void is no game: nothing changes).
  const ratings: MatchResult['ratings'] = [];
  const resultOf = (seat: Seat): 'win' | 'loss' | 'draw' =>
    ending.kind === 'win' ? (ending.winner === seat ? 'win' : 'loss') : 'draw';
  if (ending.kind !== 'void') {
    const profiles = await repo.lockProfiles(tx, [...match.players]);
    const updates = match.players.map((id, seat) => {
      const p = profiles.find((row) => row.id === id);
      if (!p) throw new Error(`finishMatch: profile ${id} missing`);
      const result = resultOf(seat as Seat);
      const wins = p.wins + (result === 'win' ? 1 : 0);
      return { id, wins, losses: p.losses + (result === 'loss' ? 1 : 0), streak: nextStreak(p.streak, result), level: levelFor(wins), result };
    });
    await repo.updateProfileStats(tx, updates, match.currency === 'vtokens');

    const rows = await repo.lockRatings(tx, [...match.players], match.game);
    const before = match.players.map((id): Glicko2Rating => {
      const row = rows.find((r) => r.user_id === id);
      return row ? { rating: row.rating, rd: row.rd, volatility: row.volatility } : { ...GLICKO2.initial };
    }) as [Glicko2Rating, Glicko2Rating];
    const score: Score = ending.kind === 'win' ? (ending.winner === 0 ? 1 : 0) : 0.5;
    const after = rateMatch(before[0], before[1], score);
    await repo.saveRatings(
      tx,
      match.game,
      match.players.map((userId, seat) => ({ userId, ...after[seat]!, result: resultOf(seat as Seat) })),
    );
    match.players.forEach((userId, seat) =>
      ratings.push({ userId, before: displayRating(before[seat]!).value, after: displayRating(after[seat]!).value }),
    );
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
  await repo.markFinished(tx, match.id, {
    status: ending.kind === 'void' ? 'cancelled' : 'completed',
    winnerId,
    endReason: result.reason,
    completedAt: now,
    state: input.state ? JSON.stringify(input.state) : null,
    result,
    version,
  });

  await publish(tx, topics.match(match.id), 'match.completed', input.publicEvent(result, version));
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
    await publish(tx, topics.user(userId), 'match.completed', event);
  }
  if (match.challengeId) {
    await publish(tx, topics.challenge(match.challengeId), ending.kind === 'void' ? 'challenge.cancelled' : 'challenge.completed', {
      challengeId: match.challengeId,
      status: ending.kind === 'void' ? 'cancelled' : 'completed',
    });
  }
  return { ok: true, version, result };
}
