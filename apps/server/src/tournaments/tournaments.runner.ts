// One run of a tournament, in one transaction under its row lock (one at a time across processes): start or cancel, results,
// next games, and the whole pool paid in ONE ledger operation; all it knows is stored, so any process carries on after a restart.
import crypto from 'node:crypto';
import { TOURNAMENT_VIEW } from '@versus/domain';
import type { DecidedOutcome, Seat } from '@versus/domain/games/index';
import { fromMinor } from '@versus/domain/money';
import {
  TOURNAMENT_READY_MS,
  advance,
  arenaNoShow,
  arenaPayoutStandings,
  arenaStandings,
  betterSeed,
  champion,
  deciderFirstSeat,
  deciderResult,
  knockoutStandings,
  noShowWinner,
  pairWaiting,
  payouts,
  playableMatches,
  prizePool,
  scoreGame,
  seedBracket,
  startDecision,
  type ArenaRecord,
  type BracketMatch,
  type GameResult,
  type KnockoutBracket,
  type KnockoutMatchFormat,
} from '@versus/domain/tournaments';
import { finishStored } from '../arena/arena.finish.ts';
import { findCore } from '../arena/arena.repository.ts';
import type { Queryable } from '../db/database.ts';
import { payPool, releaseEscrow } from '../ledger/ledger.service.ts';
import { notify, notifyMany, type NotifyInput } from '../notifications/notify.ts';
import { topics } from '../realtime/publish.ts';
import * as repo from './tournaments.repository.ts';

/** Players are told a tournament they entered starts soon this long before it does. */
export const STARTING_SOON_MS = 5 * 60_000;

/** Each seat's result of an arena game as it counts (null: it does not: a void both players were at). */
export function arenaResults(g: repo.GameRow): [GameResult, GameResult] | null {
  if (g.status === 'cancelled') return arenaNoShow(g.ready)?.results ?? null;
  if (g.winner_id === null) return ['draw', 'draw'];
  return g.winner_id === g.player1_id ? ['win', 'loss'] : ['loss', 'win'];
}

/** A game nobody started because a player was not ready in time: who is paused for it. */
const noShowPause = (g: repo.GameRow): [boolean, boolean] =>
  !g.started && (g.status === 'cancelled' || g.end_reason === 'forfeit') ? (arenaNoShow(g.ready)?.pause ?? [false, false]) : [false, false];

/** Every entrant's arena record, from the games applied so far, in the order they were applied. */
export function arenaRecords(entries: readonly repo.EntryRow[], games: readonly repo.GameRow[]): ArenaRecord[] {
  const records = new Map(
    entries.map((e) => [e.user_id, { id: e.user_id, rating: e.rating, games: [] as ArenaRecord['games'][number][] }]),
  );
  // In the order their results were taken: each player's games in the order played.
  const applied = games.filter((g) => g.applied_order !== null).sort((a, b) => a.applied_order! - b.applied_order!);
  for (const g of applied) {
    const results = arenaResults(g);
    if (!results) continue;
    records.get(g.player1_id)?.games.push({ result: results[0], opponentRating: g.player2_rating });
    records.get(g.player2_id)?.games.push({ result: results[1], opponentRating: g.player1_rating });
  }
  return [...records.values()];
}

const resultOf = (g: repo.GameRow): NonNullable<repo.GameRow['result']> =>
  g.status === 'cancelled' ? 'void' : g.winner_id === null ? 'draw' : g.winner_id === g.player1_id ? 'player1' : 'player2';

/** Runs the tournament once at `now`; false when there is no such tournament. */
export async function runTournament(tx: Queryable, id: string, now: Date): Promise<boolean> {
  const row = await repo.lockTournamentRow(tx, id);
  if (!row) return false;
  const entries = await repo.entries(tx, id);
  const run = new TournamentRun(tx, { ...row, players: entries.length }, entries, now);
  await run.go();
  return true;
}

/** Cancels the tournament locked in `tx` (an admin, or its creator before the start): TournamentRun.cancel. */
export async function cancelTournament(tx: Queryable, t: repo.TournamentRow, now: Date, by: 'admin' | 'creator'): Promise<void> {
  const run = new TournamentRun(tx, t, await repo.entries(tx, t.id), now);
  await run.cancel(by);
  await run.flush();
  await run.announce();
}

/** Ends a game of a cancelled tournament as stored, void (the arena's own path for an admin's void); its hand-off finds it cancelled. */
async function voidGame(tx: Queryable, matchId: string, now: Date): Promise<void> {
  // Locked by the first try: a move committed meanwhile is seen by the second.
  for (let attempt = 0; attempt < 2; attempt++) {
    const core = await findCore(tx, matchId);
    if (!core) return;
    const outcome = await finishStored(tx, core, { kind: 'void' }, now);
    if (outcome.ok || outcome.reason === 'over') return;
  }
  throw new Error(`tournament game ${matchId}: could not be made void`);
}

/** After a change made elsewhere under the same lock (a join, a leave, a pause ended): pairs the waiting now and tells followers. */
export async function pairAfter(tx: Queryable, t: repo.TournamentRow, now: Date, change: string): Promise<void> {
  const run = new TournamentRun(tx, t, await repo.entries(tx, t.id), now);
  if (t.status === 'running' && t.format === 'arena') await run.arenaNext();
  run.changed(change);
  // The list shows how many have entered: a join or a leave before the start is news there too.
  if (t.status === 'scheduled') run.listChanged = true;
  await run.flush();
  await run.announce();
}

class TournamentRun {
  private readonly changes = new Set<string>();
  listChanged = false;
  private bracket: KnockoutBracket | null;
  private readonly byId: Map<string, repo.EntryRow>;
  // Written at flush(), a few statements for the whole run: each statement waits its turn on a busy machine.
  private readonly dirty = new Set<repo.EntryRow>();
  private newGames: repo.NewGame[] = [];
  /** Told at announce(), after the flush that makes their games, in the statement of the tournament's own event. */
  private gameNotices: NotifyInput[] = [];
  private applied: { matchId: string; result: NonNullable<repo.GameRow['result']> }[] = [];

  constructor(
    private readonly tx: Queryable,
    private readonly t: repo.TournamentRow,
    private readonly entries: repo.EntryRow[],
    private readonly now: Date,
  ) {
    this.bracket = t.bracket;
    this.byId = new Map(entries.map((e) => [e.user_id, e]));
  }

  changed(change: string): void {
    this.changes.add(change);
  }

  async go(): Promise<void> {
    const { t, now } = this;
    if (t.status === 'scheduled') {
      const untilStart = t.starts_at.getTime() - now.getTime();
      if (untilStart <= 0) await this.startOrCancel();
      else if (t.starting_soon_sent_at === null && untilStart <= STARTING_SOON_MS) await this.startingSoon(untilStart);
    }
    if (t.status === 'running') {
      await this.applyEnded();
      if (t.format === 'arena' && t.status === 'running') await this.arenaNext();
    }
    await this.flush();
    await this.announce();
  }

  /** The results taken, the games made and the entries changed, so far in this run. */
  async flush(): Promise<void> {
    const [games, applied] = [this.newGames, this.applied];
    this.newGames = [];
    this.applied = [];
    await repo.markApplied(this.tx, applied, this.now);
    await repo.insertGames(this.tx, games);
    await repo.writeEntries(this.tx, this.t.id, [...this.dirty]);
    this.dirty.clear();
  }

  /** The players' "game ready" notices and one event on the tournament's topic for the run's changes (clients refetch it). */
  async announce(): Promise<void> {
    const notices = this.gameNotices;
    this.gameNotices = [];
    const events: { topic: string; type: string; payload: unknown }[] = [];
    if (this.changes.size > 0) {
      const payload = { tournamentId: this.t.id, status: this.t.status, changes: [...this.changes], players: this.entries.length };
      events.push({ topic: topics.tournament(this.t.id), type: 'tournament.updated', payload });
      if (this.listChanged) events.push({ topic: topics.tournaments(), type: 'tournament.updated', payload });
    }
    await notifyMany(this.tx, notices, events);
  }

  private entry(userId: string): repo.EntryRow {
    const found = this.byId.get(userId);
    if (!found) throw new Error(`tournament ${this.t.id}: ${userId} has no entry`);
    return found;
  }

  /** Changes the entry in memory; flush() writes it. */
  private updateEntry(userId: string, change: repo.EntryChange): void {
    const e = this.entry(userId);
    Object.assign(e, change);
    this.dirty.add(e);
  }

  private meta(extra: Record<string, unknown> = {}) {
    return { tournamentId: this.t.id, tournamentName: this.t.name, gameType: this.t.game, currency: this.t.currency, ...extra };
  }

  // -------------------------------------------------------------------------------------
  // Before and at the start

  private async startingSoon(untilStartMs: number): Promise<void> {
    const minutesUntil = Math.max(1, Math.ceil(untilStartMs / 60_000));
    for (const e of this.entries) {
      await notify(this.tx, { userId: e.user_id, type: 'tournament_starting_soon', metadata: this.meta({ minutesUntil }), now: this.now });
    }
    await repo.markStartingSoonSent(this.tx, this.t.id, this.now);
  }

  private async startOrCancel(): Promise<void> {
    const { t, tx, now } = this;
    this.listChanged = true;
    if (startDecision(this.entries.length, t.min_players) === 'cancel') {
      await this.cancel('too_few');
      return;
    }
    const pool = prizePool({ entryStake: t.entry_stake, sponsoredPrize: t.sponsored_prize }, this.entries.length);
    if (t.format === 'knockout') {
      const bracket = seedBracket(this.entries.map((e) => ({ id: e.user_id, rating: e.rating })));
      for (const seeded of bracket.entrants) this.updateEntry(seeded.id, { seed: seeded.seed });
      await repo.setStatus(tx, t.id, { status: 'running', now, bracket, prizePool: pool });
      t.status = 'running';
      this.bracket = bracket;
      await this.playReady(playableMatches(bracket));
    } else {
      await repo.setStatus(tx, t.id, { status: 'running', now, prizePool: pool });
      t.status = 'running';
      await repo.startWaiting(tx, t.id, now);
      for (const e of this.entries) if (!e.paused) e.waiting_since = now;
    }
    t.prize_pool = pool;
    this.changed('started');
  }

  /**
   * Cancels it: its live games void (no winner, nobody rated), every stake back to its player and a sponsor's prize to the
   * sponsor in ONE ledger release, everyone told.
   */
  async cancel(reason: repo.CancelReason): Promise<void> {
    const { t, tx, now } = this;
    for (const matchId of await repo.liveGameIds(tx, t.id)) await voidGame(tx, matchId, now);
    for (const e of this.entries) this.updateEntry(e.user_id, { current_match_id: null, waiting_since: null });
    if (await repo.holdsEscrow(tx, t.id)) {
      await releaseEscrow(tx, {
        idempotencyKey: `tournament:${t.id}:cancel`,
        owner: { tournamentId: t.id },
        description: `${t.name}: cancelled`,
      });
    }
    await repo.setStatus(tx, t.id, { status: 'cancelled', now, cancelReason: reason });
    t.status = 'cancelled';
    const told = this.entries.map((e) => ({ userId: e.user_id, amount: t.entry_stake, currency: t.currency }));
    // The sponsor's prize goes back in the currency it was locked in (their pcredits), not the tournament's.
    if (t.sponsored_prize > 0) told.push({ userId: t.creator_id, amount: t.sponsored_prize, currency: t.sponsor_currency ?? t.currency });
    const why = reason === 'too_few' ? { minPlayers: t.min_players } : {};
    for (const { userId, amount, currency } of told) {
      await notify(tx, {
        userId,
        type: 'tournament_cancelled',
        metadata: this.meta({ ...why, ...(amount > 0 ? { amount: fromMinor(amount), currency } : {}) }),
        now,
      });
    }
    this.listChanged = true;
    this.changed('cancelled');
  }

  // -------------------------------------------------------------------------------------
  // Making games

  private createGame(
    players: [string, string],
    place: { round: number | null; slot: number | null; decider: number; firstSeat: Seat | null; format: KnockoutMatchFormat },
  ): void {
    const { t, now } = this;
    const matchId = crypto.randomUUID();
    const [a, b] = players.map((id) => this.entry(id)) as [repo.EntryRow, repo.EntryRow];
    this.newGames.push({
      matchId,
      tournamentId: t.id,
      game: t.game,
      currency: t.currency,
      players: [
        { id: a.user_id, rating: a.rating },
        { id: b.user_id, rating: b.rating },
      ],
      matchFormat: TOURNAMENT_VIEW.matchFormats[place.format],
      duration: t.match_minutes,
      readyBy: new Date(now.getTime() + TOURNAMENT_READY_MS[t.format]),
      firstSeat: place.firstSeat,
      round: place.round,
      slot: place.slot,
      decider: place.decider,
    });
    for (const [me, other] of [
      [a, b],
      [b, a],
    ] as const) {
      this.updateEntry(me.user_id, { current_match_id: matchId, waiting_since: null });
      this.gameNotices.push({
        userId: me.user_id,
        type: 'tournament_game_ready',
        metadata: this.meta({ matchId, opponentName: other.display_name || other.username }),
        matchId,
        now,
      });
    }
    this.changed('game');
  }

  /** Knockout matches whose players are known: a game each, or a walkover when a player has left. */
  private async playReady(ready: BracketMatch[]): Promise<void> {
    const queue = [...ready];
    for (let m = queue.shift(); m; m = queue.shift()) {
      const [a, b] = m.players as [string, string];
      const [left, right] = [this.entry(a).withdrawn, this.entry(b).withdrawn];
      if (left || right) {
        const winner = left && right ? betterSeed(this.bracket!, a, b) : left ? b : a;
        queue.push(...(await this.decide(m.round, m.index, winner)));
        continue;
      }
      this.createGame([a, b], { round: m.round, slot: m.index, decider: 0, firstSeat: null, format: this.t.match_format! });
    }
  }

  /** A knockout pairing has its winner: the bracket advances; answers the matches that became ready. */
  private async decide(round: number, slot: number, winner: string): Promise<BracketMatch[]> {
    const advanced = advance(this.bracket!, [{ round, index: slot, winner }]);
    if (!advanced.ok) throw new Error(`tournament ${this.t.id}: round ${round} match ${slot}: ${advanced.code}`);
    this.bracket = advanced.bracket;
    await repo.saveBracket(this.tx, this.t.id, advanced.bracket, this.now);
    const m = advanced.bracket.rounds[round]![slot]!;
    const loser = m.players[0] === winner ? m.players[1]! : m.players[0]!;
    this.updateEntry(winner, { current_match_id: null });
    this.updateEntry(loser, { current_match_id: null, eliminated_round: round });
    if (!this.entry(loser).withdrawn) {
      const w = this.entry(winner);
      await notify(this.tx, {
        userId: loser,
        type: 'tournament_eliminated',
        metadata: this.meta({ opponentName: w.display_name || w.username }),
        now: this.now,
      });
    }
    this.changed('result');
    return advanced.ready;
  }

  // -------------------------------------------------------------------------------------
  // Results

  private async applyEnded(): Promise<void> {
    for (const g of await repo.endedUnapplied(this.tx, this.t.id)) {
      if (this.t.format === 'knockout') await this.applyKnockout(g);
      else await this.applyArena(g);
      this.applied.push({ matchId: g.match_id, result: resultOf(g) });
      this.changed('result');
    }
    if (this.t.format === 'knockout' && this.bracket && champion(this.bracket) !== null) await this.finish();
  }

  private async applyKnockout(g: repo.GameRow): Promise<void> {
    const m = this.bracket!.rounds[g.round!]?.[g.slot!];
    // A pairing already decided (nothing should make this happen) takes no second result.
    if (!m || m.winner !== null) return;
    const winner = await this.knockoutWinner(g, m);
    if (winner !== null) await this.playReady(await this.decide(g.round!, g.slot!, winner));
  }

  /** Who goes through a knockout game that ended; null when a deciding game is made instead. */
  private async knockoutWinner(g: repo.GameRow, m: BracketMatch): Promise<string | null> {
    const players: [string, string] = [g.player1_id, g.player2_id];
    const result = resultOf(g);
    if (result === 'player1' || result === 'player2') return g.winner_id;
    // Nobody ready: a knockout match cannot be void; the better seed goes through.
    if (result === 'void') return noShowWinner(this.bracket!, m, g.ready) ?? betterSeed(this.bracket!, ...players);
    const place = { round: g.round, slot: g.slot, format: 'best-of-1' as const };
    if (g.decider === 0) {
      // A drawn match: one deciding game, the first move swapped.
      this.createGame(players, { ...place, decider: 1, firstSeat: deciderFirstSeat(g.first_seat ?? 0) });
      return null;
    }
    const outcome: DecidedOutcome = g.last_outcome ?? { draw: true, reason: 'agreement' };
    const decided = deciderResult(this.t.game, g.first_seat ?? 0, outcome);
    if ('replay' in decided) {
      this.createGame(players, { ...place, decider: g.decider + 1, firstSeat: g.first_seat });
      return null;
    }
    return players[decided.winner];
  }

  private async applyArena(g: repo.GameRow): Promise<void> {
    const results = arenaResults(g);
    const pause = noShowPause(g);
    const pairing = this.now < this.t.ends_at!;
    const players = [g.player1_id, g.player2_id] as const;
    for (const seat of [0, 1] as const) {
      const e = this.entry(players[seat]);
      const change: repo.EntryChange = { current_match_id: null, last_opponent: players[1 - seat]! };
      if (results) {
        const scored = scoreGame(e.win_streak, results[seat]);
        Object.assign(change, {
          score: e.score + scored.points,
          win_streak: scored.winStreak,
          games: e.games + 1,
          wins: e.wins + (results[seat] === 'win' ? 1 : 0),
        });
      }
      const paused = e.paused || pause[seat];
      // The player who left meanwhile (or did not show up) waits for nothing until they come back.
      this.updateEntry(e.user_id, { ...change, paused, waiting_since: paused || !pairing ? null : this.now });
    }
  }

  // -------------------------------------------------------------------------------------
  // The arena: pairing while it runs, the end

  async arenaNext(): Promise<void> {
    const { t, now } = this;
    if (now >= t.ends_at!) {
      // Pairing has stopped; the games still being played count when they end.
      await this.flush();
      if ((await repo.liveGames(this.tx, t.id)) === 0) await this.finish();
      return;
    }
    const waiting = this.entries.filter((e) => !e.paused && e.current_match_id === null && e.waiting_since !== null);
    const pairs = pairWaiting(
      waiting.map((e) => ({
        id: e.user_id,
        score: e.score,
        rating: e.rating,
        lastOpponent: e.last_opponent,
        waitingSinceMs: e.waiting_since!.getTime(),
      })),
    );
    for (const [a, b] of pairs) this.createGame([a, b], { round: null, slot: null, decider: 0, firstSeat: null, format: 'best-of-1' });
  }

  // -------------------------------------------------------------------------------------
  // The end: places, and the whole pool paid in one ledger operation

  private async finish(): Promise<void> {
    const { t, tx, now } = this;
    await this.flush();
    const standings =
      t.format === 'knockout'
        ? knockoutStandings(this.bracket!)!
        : arenaPayoutStandings(arenaStandings(arenaRecords(this.entries, await repo.games(tx, t.id))));
    const pool = t.prize_pool!;
    const prizes = payouts(standings, pool);
    if (prizes.length > 0) {
      await payPool(tx, {
        idempotencyKey: `tournament:${t.id}:payout`,
        tournamentId: t.id,
        currency: t.currency,
        payouts: prizes.map((p) => ({
          userId: p.userId,
          amount: p.amount,
          description: `${t.name}: ${TOURNAMENT_VIEW.place(p.place)} place`,
        })),
        description: `${t.name}: prize pool`,
      });
    }
    let place = 1;
    for (const group of standings) {
      for (const userId of group) {
        const prize = prizes.find((p) => p.userId === userId)?.amount ?? 0;
        this.updateEntry(userId, { place, prize, current_match_id: null, waiting_since: null });
      }
      place += group.length;
    }
    await repo.setStatus(tx, t.id, { status: 'finished', now });
    t.status = 'finished';
    for (const p of prizes) {
      await notify(tx, {
        userId: p.userId,
        type: 'tournament_prize',
        metadata: this.meta({ place: p.place, amount: fromMinor(p.amount) }),
        now,
      });
    }
    this.listChanged = true;
    this.changed('finished');
  }
}
