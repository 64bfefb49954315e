// What a player sees of a tournament: the rules and money before entering, then the entrants,
// the bracket or the standings, the games, and their own place and current game.
import { matchTimeControl } from '@versus/domain/arena';
import { GAMES } from '@versus/domain/catalogue';
import { fromMinor } from '@versus/domain/money';
import {
  arenaStandings,
  describePrizeSplit,
  isOnFire,
  prizePool,
  prizeSplit,
  type TournamentDetail,
  type TournamentPlayer,
  type TournamentSummary,
} from '@versus/domain/tournaments';
import type { EntryRow, GameRow, TournamentRow } from './tournaments.repository.ts';
import { arenaRecords } from './tournaments.runner.ts';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

export function summaryOf(t: TournamentRow, entered: boolean): TournamentSummary {
  // Fixed at the start; until then, the pool as the field stands.
  const pool = t.prize_pool ?? prizePool({ entryStake: t.entry_stake, sponsoredPrize: t.sponsored_prize }, t.players);
  const field = Math.max(1, t.players);
  return {
    id: t.id,
    name: t.name,
    game: t.game,
    gameName: GAMES[t.game].name,
    format: t.format,
    status: t.status,
    currency: t.currency,
    creatorId: t.creator_id,
    entry: { kind: t.sponsored_prize > 0 ? 'sponsored' : 'stake', stake: fromMinor(t.entry_stake), stakeMinor: t.entry_stake },
    prizePool: { amount: fromMinor(pool), amountMinor: pool },
    prizeSplit: describePrizeSplit(field),
    prizes: prizeSplit(pool, field).map(fromMinor),
    minPlayers: t.min_players,
    maxPlayers: t.max_players,
    players: t.players,
    startsAt: t.starts_at.toISOString(),
    endsAt: iso(t.ends_at),
    matchMinutes: t.match_minutes,
    matchFormat: t.match_format,
    arenaMinutes: t.arena_minutes,
    timeControl: matchTimeControl(t.game, t.match_minutes),
    startedAt: iso(t.started_at),
    finishedAt: iso(t.finished_at),
    cancelledAt: iso(t.cancelled_at),
    entered,
  };
}

function playerOf(e: EntryRow): TournamentPlayer {
  return {
    id: e.user_id,
    username: e.username,
    displayName: e.display_name,
    avatar: e.avatar_url,
    rating: e.rating,
    seed: e.seed,
    score: e.score,
    winStreak: e.win_streak,
    onFire: isOnFire(e.win_streak),
    games: e.games,
    wins: e.wins,
    paused: e.paused,
    withdrawn: e.withdrawn,
    eliminatedRound: e.eliminated_round,
    place: e.place,
    prize: fromMinor(e.prize),
  };
}

export function detailOf(t: TournamentRow, entries: EntryRow[], games: GameRow[], viewerId: string): TournamentDetail {
  const mine = entries.find((e) => e.user_id === viewerId) ?? null;
  const started = t.status === 'running' || t.status === 'finished';
  return {
    ...summaryOf(t, mine !== null),
    entrants: entries.map(playerOf),
    bracket: t.format === 'knockout' ? t.bracket : null,
    games: games.map((g) => ({
      matchId: g.match_id,
      round: g.round,
      slot: g.slot,
      decider: g.decider,
      players: [g.player1_id, g.player2_id],
      status: g.status,
      winnerId: g.winner_id,
      result: g.result,
    })),
    standings: t.format === 'arena' && started ? arenaStandings(arenaRecords(entries, games)) : null,
    me: mine && { ...playerOf(mine), currentMatchId: mine.current_match_id },
  };
}
