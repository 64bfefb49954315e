// Arena scoring and standings, as lichess's arenas score; folded from the games in order, so the
// stored games are the only record.

export const ARENA_SCORING = {
  points: { win: 2, draw: 1, loss: 0 },
  /** Wins in a row that start a streak. */
  streakAfterWins: 2,
  streakMultiplier: 2,
  /** A win's weight in the performance rating, above or below the opponent's rating (lichess: 500). */
  performanceSpread: 500,
} as const;

export type GameResult = 'win' | 'draw' | 'loss';

/** A player not ready by TOURNAMENT_READY_MS loses the game and is paused; null when both were ready. */
export function arenaNoShow(ready: readonly [boolean, boolean]): { results: [GameResult, GameResult]; pause: [boolean, boolean] } | null {
  if (ready[0] && ready[1]) return null;
  const result = (seat: 0 | 1): GameResult => (ready[seat] ? 'win' : 'loss');
  return { results: [result(0), result(1)], pause: [!ready[0], !ready[1]] };
}

export interface ScoredGame {
  points: number;
  /** Wins in a row after this game. */
  winStreak: number;
  /** Whether the next game is worth double. */
  onFire: boolean;
}

export const isOnFire = (winStreak: number): boolean => winStreak >= ARENA_SCORING.streakAfterWins;

/** The points of one game for a player who came to it with `winStreak` wins in a row. */
export function scoreGame(winStreak: number, result: GameResult): ScoredGame {
  const base = ARENA_SCORING.points[result];
  const points = isOnFire(winStreak) ? base * ARENA_SCORING.streakMultiplier : base;
  const next = result === 'win' ? winStreak + 1 : 0;
  return { points, winStreak: next, onFire: isOnFire(next) };
}

/** A player's score from their games in the order played. */
export function arenaScore(results: readonly GameResult[]): { score: number; winStreak: number; onFire: boolean } {
  let score = 0;
  let winStreak = 0;
  for (const result of results) {
    const game = scoreGame(winStreak, result);
    score += game.points;
    winStreak = game.winStreak;
  }
  return { score, winStreak, onFire: isOnFire(winStreak) };
}

export interface ArenaGameRecord {
  result: GameResult;
  /** The opponent's rating when the game was paired. */
  opponentRating: number;
}

export interface ArenaRecord {
  id: string;
  /** Rating at entry: seeds nothing in an arena, breaks the last ties. */
  rating: number;
  /** In the order played. */
  games: readonly ArenaGameRecord[];
}

/** Tournament performance: the opponents' mean rating, ±500 per win or loss (lichess); null before any game. */
export function arenaPerformance(games: readonly ArenaGameRecord[]): number | null {
  if (games.length === 0) return null;
  const spread = ARENA_SCORING.performanceSpread;
  const total = games.reduce((sum, g) => sum + g.opponentRating + (g.result === 'win' ? spread : g.result === 'loss' ? -spread : 0), 0);
  return Math.round(total / games.length);
}

export interface ArenaStanding {
  /** 1-based and never shared: the tie-breaks settle every tie. */
  rank: number;
  id: string;
  score: number;
  performance: number | null;
  games: number;
  wins: number;
  onFire: boolean;
}

/** Points, performance (none yet: last), entry rating, then id, so the order is total. */
export function arenaStandings(records: readonly ArenaRecord[]): ArenaStanding[] {
  const rows = records.map((record) => {
    const { score, onFire } = arenaScore(record.games.map((g) => g.result));
    return {
      id: record.id,
      rating: record.rating,
      score,
      performance: arenaPerformance(record.games),
      games: record.games.length,
      wins: record.games.filter((g) => g.result === 'win').length,
      onFire,
    };
  });
  const perf = (p: number | null) => p ?? Number.NEGATIVE_INFINITY;
  rows.sort(
    (a, b) =>
      b.score - a.score ||
      (perf(b.performance) > perf(a.performance) ? 1 : perf(b.performance) < perf(a.performance) ? -1 : 0) ||
      b.rating - a.rating ||
      (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
  return rows.map(({ rating: _rating, ...row }, i) => ({ rank: i + 1, ...row }));
}

/** Arena standings as payout groups: one player per place, ties already broken. */
export const arenaPayoutStandings = (standings: readonly ArenaStanding[]): string[][] => standings.map((s) => [s.id]);
