// Keeping a match view in step: the fetched view is the truth, events apply in version order, and a
// skipped version makes the caller refetch.
import { canOfferDraw, matchEventSchema, type MatchEvent, type MatchView } from '@versus/domain/arena';

export type EventResult =
  | { kind: 'applied'; view: MatchView }
  /** Already seen (or older than what a fetch returned): nothing to do. */
  | { kind: 'duplicate' }
  /** One or more changes were missed: fetch the match again. */
  | { kind: 'gap' };

/** Reads an event payload from the socket; null when it is not a match event. */
export function readMatchEvent(payload: unknown): MatchEvent | null {
  const parsed = matchEventSchema.safeParse(payload);
  return parsed.success ? parsed.data : null;
}

/** The game part becomes the spectator's view; games with secrets refetch the player's. */
export function applyMatchEvent(view: MatchView, event: MatchEvent): EventResult {
  if (event.matchId !== view.id || event.version <= view.version) return { kind: 'duplicate' };
  if (event.version !== view.version + 1) return { kind: 'gap' };

  const seat = view.viewerSeat;
  const moves = event.move && !view.moves.some((m) => m.seq === event.move!.seq) ? [...view.moves, event.move] : view.moves;
  let games = view.series.games;
  if (event.gameOver) {
    const summary = event.gameOver.summary;
    games = games.some((g) => g.index === summary.index)
      ? games.map((g) => (g.index === summary.index ? summary : g))
      : [...games, summary];
  }
  if (event.game && !games.some((g) => g.index === event.game!.index)) {
    games = [
      ...games,
      { index: event.game.index, firstSeat: event.game.firstSeat, commitment: event.game.commitment, seed: null, outcome: null },
    ];
  }
  const players: MatchView['players'] = [
    { ...view.players[0], ready: event.ready[0] },
    { ...view.players[1], ready: event.ready[1] },
  ];
  const inProgress = event.status === 'in_progress';
  const result = event.result ?? view.result;
  return {
    kind: 'applied',
    view: {
      ...view,
      version: event.version,
      status: event.status,
      players,
      series: {
        ...view.series,
        wins: event.score,
        draws: event.draws,
        played: event.score[0] + event.score[1] + event.draws,
        games,
      },
      game: event.game,
      clock: event.clock,
      toMove: event.toMove,
      yourTurn: seat !== null && event.toMove.includes(seat),
      drawOffer: event.drawOffer,
      canOfferDraw: seat !== null && inProgress && canOfferDraw(view.gameType) && event.drawOffer !== seat,
      moves,
      result,
      winnerId: result?.winnerId ?? view.winnerId,
      completedAt: result?.completedAt ?? view.completedAt,
    },
  };
}

/** A fetched view replaces the one shown unless the one shown is newer (an event overtook the fetch). */
export function newerView(current: MatchView | undefined, fetched: MatchView): MatchView {
  return current && current.id === fetched.id && current.version > fetched.version ? current : fetched;
}

/** A refetch's answer against the view shown when it arrives: an event applied during the fetch may be newer than it. */
export async function fetchNewer(shown: () => MatchView | undefined, fetch: () => Promise<MatchView>): Promise<MatchView> {
  const fetched = await fetch();
  return newerView(shown(), fetched);
}

/** Games whose player view holds a secret the spectator's view hides (the viewer's own throw). */
export const SECRET_GAMES: readonly string[] = ['rock-paper-scissors', 'ai-rock-paper-scissors'];

/** Whether, after this event, the player's own view must be fetched again. */
export function needsRefetch(view: MatchView, event: MatchEvent, type: string): boolean {
  if (view.viewerSeat === null) return false;
  if (type === 'match.started' || type === 'match.completed' || event.result) return true;
  return SECRET_GAMES.includes(view.gameType);
}
