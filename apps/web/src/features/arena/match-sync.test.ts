import { describe, expect, it } from 'vitest';
import { applyMatchEvent, fetchNewer, needsRefetch, newerView, readMatchEvent } from './match-sync.ts';
import { matchView, moveEvent } from './match.fixture.ts';

describe('applyMatchEvent', () => {
  it('applies the next version: board, clock, turn and the move list', () => {
    const result = applyMatchEvent(matchView(), moveEvent());
    expect(result.kind).toBe('applied');
    if (result.kind !== 'applied') return;
    const view = result.view;
    expect(view.version).toBe(5);
    expect(view.yourTurn).toBe(true);
    expect(view.toMove).toEqual([0]);
    expect(view.clock?.remainingMs).toEqual([300_000, 298_000]);
    expect(view.moves.map((m) => m.notation)).toEqual(['e4', 'e5']);
    expect((view.game?.view as { fen: string }).fen).toBe('after e5');
  });

  it('ignores what it has seen and asks for a refetch after a gap', () => {
    expect(applyMatchEvent(matchView(), moveEvent({ version: 4 })).kind).toBe('duplicate');
    expect(applyMatchEvent(matchView(), moveEvent({ version: 3 })).kind).toBe('duplicate');
    expect(applyMatchEvent(matchView(), moveEvent({ version: 7 })).kind).toBe('gap');
    expect(applyMatchEvent(matchView(), moveEvent({ matchId: 'other' })).kind).toBe('duplicate');
  });

  it('does not list a move twice', () => {
    const first = applyMatchEvent(matchView(), moveEvent());
    if (first.kind !== 'applied') throw new Error('not applied');
    const again = applyMatchEvent(first.view, moveEvent({ version: 6 }));
    if (again.kind !== 'applied') throw new Error('not applied');
    expect(again.view.moves).toHaveLength(2);
  });

  it('records a finished game, the score and the next game', () => {
    const result = applyMatchEvent(
      matchView(),
      moveEvent({
        score: [1, 0],
        game: { index: 1, firstSeat: 1, commitment: 'def', toMove: [1], view: {} },
        gameOver: {
          summary: { index: 0, firstSeat: 0, commitment: 'abc', seed: 's', outcome: { winner: 0, reason: 'checkmate' } },
          view: {},
        },
      }),
    );
    if (result.kind !== 'applied') throw new Error('not applied');
    expect(result.view.series.wins).toEqual([1, 0]);
    expect(result.view.series.played).toBe(1);
    expect(result.view.series.games.map((g) => [g.index, g.outcome])).toEqual([
      [0, { winner: 0, reason: 'checkmate' }],
      [1, null],
    ]);
  });

  it('keeps ready flags, draw offers and the result', () => {
    const pending = matchView({
      status: 'pending',
      players: [
        { ...matchView().players[0], ready: false },
        { ...matchView().players[1], ready: false },
      ],
    });
    const ready = applyMatchEvent(
      pending,
      moveEvent({ status: 'pending', ready: [false, true], move: undefined, game: null, clock: null, toMove: [] }),
    );
    if (ready.kind !== 'applied') throw new Error('not applied');
    expect(ready.view.players.map((p) => p.ready)).toEqual([false, true]);
    expect(ready.view.canOfferDraw).toBe(false);

    const offered = applyMatchEvent(matchView(), moveEvent({ drawOffer: 1, move: undefined }));
    if (offered.kind !== 'applied') throw new Error('not applied');
    expect(offered.view.drawOffer).toBe(1);
    expect(offered.view.canOfferDraw).toBe(true);

    const result = {
      outcome: 'win' as const,
      winnerId: 'alice',
      winnerSeat: 0 as const,
      reason: 'resignation' as const,
      lastGameReason: 'resignation' as const,
      currency: 'credits' as const,
      payouts: [{ userId: 'alice', amount: 20 }],
      ratings: [],
      completedAt: '2030-01-01T10:05:00.000Z',
    };
    const done = applyMatchEvent(matchView(), moveEvent({ status: 'completed', toMove: [], result, move: undefined }));
    if (done.kind !== 'applied') throw new Error('not applied');
    expect(done.view.result).toEqual(result);
    expect(done.view.winnerId).toBe('alice');
    expect(done.view.yourTurn).toBe(false);
  });
});

describe('newerView', () => {
  it('keeps the shown view when an event overtook the fetch, else takes the fetched one', () => {
    const shown = matchView({ version: 6 });
    expect(newerView(shown, matchView({ version: 5 }))).toBe(shown);
    const fetched = matchView({ version: 6 });
    expect(newerView(shown, fetched)).toBe(fetched);
    expect(newerView(undefined, fetched)).toBe(fetched);
  });
});

describe('readMatchEvent and needsRefetch', () => {
  it('reads only well-formed match events', () => {
    expect(readMatchEvent(moveEvent())).not.toBeNull();
    expect(readMatchEvent({ matchId: 'm1' })).toBeNull();
  });

  it('refetches a player view for a start, an end, and games with a secret', () => {
    expect(needsRefetch(matchView(), moveEvent(), 'match.move')).toBe(false);
    expect(needsRefetch(matchView(), moveEvent(), 'match.started')).toBe(true);
    expect(needsRefetch(matchView({ gameType: 'rock-paper-scissors' }), moveEvent(), 'match.move')).toBe(true);
    expect(needsRefetch(matchView({ viewerSeat: null }), moveEvent(), 'match.completed')).toBe(false);
  });
});

describe('fetchNewer', () => {
  it('keeps the move an event brought in while the refetch was on its way', async () => {
    // The start's refetch leaves at version 4; the opponent's first move (5) arrives before its answer (4).
    let shown = matchView({ version: 4 });
    const fetched = matchView({ version: 4 });
    const answer = fetchNewer(
      () => shown,
      async () => {
        shown = matchView({ version: 5 });
        return fetched;
      },
    );
    expect((await answer).version).toBe(5);
  });

  it('takes the fetched view when it is the newer one', async () => {
    const fetched = matchView({ version: 7 });
    expect(
      await fetchNewer(
        () => matchView({ version: 6 }),
        async () => fetched,
      ),
    ).toBe(fetched);
    expect(
      await fetchNewer(
        () => undefined,
        async () => fetched,
      ),
    ).toBe(fetched);
  });
});
