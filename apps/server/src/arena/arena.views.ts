// What a player or a spectator sees of a match; secrets never leave through here (viewFor, public notation, seeds once over).
import {
  ARENA_RULES,
  canOfferDraw,
  matchTimeControl,
  SERIES_RULES,
  type ArenaMatchSummary,
  type ArenaPlayer,
  type MatchEvent,
  type MatchResult,
  type MatchView,
  type MoveEntry,
  type Replay,
} from '@versus/domain/arena';
import { GAMES } from '@versus/domain/catalogue';
import type { Match } from '@versus/domain/challenges';
import { isWebGame, seriesScore, type Seat, type Viewer } from '@versus/domain/games/index';
import { GLICKO2, displayRating } from '@versus/domain/rating';
import { KNOCKOUT_MATCH_RULES } from '@versus/domain/tournaments';
import type { MatchCoreRow, MatchViewRow, MoveRow, PlayerInfo } from './arena.repository.ts';
import { refereedFormat } from './arena.record.ts';
import { matchFrom } from '../challenges/challenges.service.ts';
import {
  clockView,
  currentGameView,
  gameSummary,
  isOver,
  seriesView,
  spectatorGameOver,
  toMoveOf,
  type ArenaState,
  type GameOver,
  type MoveEntryRecord,
} from './arena.state.ts';

const iso = (value: Date | string | number | null | undefined): string | null =>
  value === null || value === undefined ? null : new Date(value).toISOString();

/** A tournament's single game is won by one win and drawn by one draw; every other match is SPEC's best of 3. */
const seriesRules = (matchFormat: string) =>
  refereedFormat(matchFormat) === 'best-of-1'
    ? { winsNeeded: KNOCKOUT_MATCH_RULES['best-of-1'].winsNeeded, maxDrawnGames: 1 }
    : { winsNeeded: SERIES_RULES.winsNeeded, maxDrawnGames: SERIES_RULES.maxDrawnGames };

export const seatOf = (row: { player1_id: string; player2_id: string }, userId: string): Seat | null =>
  row.player1_id === userId ? 0 : row.player2_id === userId ? 1 : null;

/** 5 minutes after the scheduled start, or the match's own ready deadline (a tournament's). */
export const noShowDeadline = (row: Pick<MatchCoreRow, 'scheduled_time' | 'created_at'> & { ready_by?: Date | string | null }): Date =>
  row.ready_by ? new Date(row.ready_by) : new Date(new Date(row.scheduled_time ?? row.created_at).getTime() + ARENA_RULES.noShowMs);

function baseMatch(row: MatchViewRow, viewer: Viewer): Match {
  const ref = (p: PlayerInfo) => ({ id: p.id, username: p.username, displayName: p.display_name, avatar: p.avatar_url });
  // A room's code is for its players.
  const match = matchFrom(row, ref(row.players[0]), ref(row.players[1]));
  return viewer === 'spectator' ? { ...match, roomCode: null } : match;
}

export function publicMove(entry: MoveEntryRecord | MoveRow): MoveEntry {
  if ('game_index' in entry) {
    return {
      seq: entry.seq,
      gameIndex: entry.game_index,
      seat: entry.seat,
      notation: entry.notation,
      at: iso(entry.created_at)!,
      remainingMs: [entry.remaining_ms[0], entry.remaining_ms[1]],
    };
  }
  return {
    seq: entry.seq,
    gameIndex: entry.gameIndex,
    seat: entry.seat,
    notation: entry.notation,
    at: iso(entry.at)!,
    remainingMs: entry.remainingMs,
  };
}

function player(row: MatchViewRow, seat: Seat, moves: MoveRow[]): ArenaPlayer {
  const p = row.players[seat];
  const readyAt = seat === 0 ? row.player1_ready_at : row.player2_ready_at;
  let lastSeen = readyAt ? new Date(readyAt).getTime() : null;
  for (let i = moves.length - 1; i >= 0; i--) {
    if (moves[i]!.seat !== seat) continue;
    lastSeen = Math.max(lastSeen ?? 0, new Date(moves[i]!.created_at).getTime());
    break;
  }
  const rating = displayRating({
    rating: p.rating ?? GLICKO2.initial.rating,
    rd: p.rd ?? GLICKO2.initial.rd,
    volatility: GLICKO2.initial.volatility,
  });
  return {
    seat,
    id: p.id,
    username: p.username,
    displayName: p.display_name,
    avatar: p.avatar_url,
    gamertag: seat === 0 ? row.player1_gamertag : row.player2_gamertag,
    ready: readyAt !== null,
    readyAt: iso(readyAt),
    lastSeenAt: iso(lastSeen),
    rating: { ...rating, games: p.games ?? 0 },
    level: p.level,
    wins: p.wins,
    losses: p.losses,
    streak: p.streak,
  };
}

/** The match as `viewer` may see it at `now`. */
export function buildMatchView(row: MatchViewRow, moves: MoveRow[], viewer: Viewer, now: number): MatchView {
  const state = row.state;
  const game = row.game_type;
  const viewerSeat = viewer === 'spectator' ? null : viewer;
  const toMove = state && row.status === 'in_progress' ? toMoveOf(state) : [];
  const waiting = row.status === 'pending' || row.status === 'accepted';
  return {
    ...baseMatch(row, viewer),
    gameName: GAMES[row.game_type].name,
    version: row.version,
    viewerSeat,
    players: [player(row, 0, moves), player(row, 1, moves)],
    payout: row.stake * 2,
    tournament: tournamentOf(row),
    noShowDeadline: waiting ? noShowDeadline(row).toISOString() : null,
    startedAt: iso(row.started_at),
    completedAt: iso(row.completed_at),
    series: { ...seriesView(state), ...seriesRules(row.match_format) },
    game: state ? currentGameView(state, viewer) : null,
    clock: state ? clockView(state.clock, now) : null,
    timeControl: state ? state.clock.control : isWebGame(game) ? matchTimeControl(game, row.duration ?? null) : null,
    toMove,
    yourTurn: viewerSeat !== null && toMove.includes(viewerSeat),
    drawOffer: state?.drawOffer ?? null,
    canOfferDraw:
      viewerSeat !== null &&
      row.status === 'in_progress' &&
      canOfferDraw(game) &&
      state !== null &&
      !isOver(state) &&
      state.drawOffer !== viewerSeat,
    moves: moves.map(publicMove),
    result: row.result,
    serverNow: now,
  };
}

const tournamentOf = (row: MatchViewRow) =>
  row.tournament_id && row.tournament_name ? { id: row.tournament_id, name: row.tournament_name } : null;

export function buildSummary(row: MatchViewRow, userId: string): ArenaMatchSummary {
  const seat = seatOf(row, userId) ?? 0;
  const state = row.state;
  // The state is a snapshot (it may be some moves behind); whose turn it is is kept with every change.
  const toMove = row.status === 'in_progress' ? (row.to_move ?? (state ? toMoveOf(state) : [])) : [];
  const series = seriesView(state);
  const waiting = row.status === 'pending' || row.status === 'accepted';
  return {
    ...baseMatch(row, seat),
    gameName: GAMES[row.game_type].name,
    tournament: tournamentOf(row),
    version: row.version,
    viewerSeat: seat,
    yourTurn: toMove.includes(seat),
    ready: [row.player1_ready_at !== null, row.player2_ready_at !== null],
    score: series.wins,
    noShowDeadline: waiting ? noShowDeadline(row).toISOString() : null,
  };
}

export interface EventContext {
  matchId: string;
  version: number;
  status: MatchView['status'];
  readyAt: [unknown, unknown];
  state: ArenaState | null;
  now: number;
}

/** History lists cut to their last entry in events, which would otherwise grow with the game; GET /api/matches/:id has them whole. */
export const EVENT_TRIMMED_VIEW_KEYS = ['moves', 'sans', 'rolls'] as const;

function trimHistory(game: ReturnType<typeof currentGameView>) {
  const view = game.view;
  if (!view || typeof view !== 'object' || Array.isArray(view)) return game;
  const slim: Record<string, unknown> = { ...(view as Record<string, unknown>) };
  for (const key of EVENT_TRIMMED_VIEW_KEYS) {
    const list = slim[key];
    if (Array.isArray(list) && list.length > 1) slim[key] = list.slice(-1);
  }
  return { ...game, view: slim };
}

/** The public payload of an event on `match:{id}`: the state after the change, as a spectator sees it. */
export function matchEvent(
  c: EventContext,
  extra: { move?: MoveEntryRecord | null; gameOver?: GameOver | null; result?: MatchResult } = {},
): MatchEvent {
  // The score alone: seriesView would also summarise every game, which an event does not carry.
  const score = c.state ? seriesScore(c.state.series) : null;
  const game = c.state ? trimHistory(currentGameView(c.state, 'spectator')) : null;
  const event: MatchEvent = {
    matchId: c.matchId,
    version: c.version,
    status: c.status,
    ready: [c.readyAt[0] !== null, c.readyAt[1] !== null],
    score: score ? [score.wins[0], score.wins[1]] : [0, 0],
    draws: score?.draws ?? 0,
    game,
    clock: c.state ? clockView(c.state.clock, c.now) : null,
    toMove: game && c.status === 'in_progress' ? game.toMove : [],
    drawOffer: c.state?.drawOffer ?? null,
  };
  if (extra.move) event.move = publicMove(extra.move);
  if (extra.gameOver && c.state) event.gameOver = spectatorGameOver(c.state, extra.gameOver);
  if (extra.result) event.result = extra.result;
  return event;
}

/** Every move of a finished match in order, with its canonical form and every game's seed. */
export function buildReplay(row: MatchViewRow, moves: MoveRow[]): Replay {
  const state = row.state;
  const games = (state?.games ?? []).map((record) => ({
    ...gameSummary(record),
    // The match is over: every seed may be checked, even a game cut short by a resignation.
    seed: record.seed,
    moves: moves.filter((m) => m.game_index === record.index).map((m) => ({ ...publicMove(m), move: m.move, elapsedMs: m.elapsed_ms })),
  }));
  return {
    match: { ...baseMatch(row, 'spectator'), gameName: GAMES[row.game_type].name, version: row.version },
    players: [0, 1].map((seat) => ({
      seat: seat as Seat,
      id: row.players[seat]!.id,
      username: row.players[seat]!.username,
      displayName: row.players[seat]!.display_name,
    })) as Replay['players'],
    firstSeat: state?.series.firstSeat ?? 0,
    games,
    result: row.result,
  };
}
