import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TOURNAMENT } from '../messages.ts';
import {
  advance,
  betterSeed,
  bracketSchema,
  champion,
  knockoutStandings,
  nextPowerOfTwo,
  noShowWinner,
  playableMatches,
  roundsLeft,
  seedBracket,
  seedingOrder,
  type KnockoutBracket,
} from './bracket.ts';

const field = (n: number) => Array.from({ length: n }, (_, i) => ({ id: `p${i + 1}`, rating: 2000 - i * 10 }));

function decide(bracket: KnockoutBracket, round: number, index: number, slot: 0 | 1): KnockoutBracket {
  const winner = bracket.rounds[round]![index]!.players[slot]!;
  const result = advance(bracket, [{ round, index, winner }]);
  if (!result.ok) throw new Error(result.message);
  return result.bracket;
}

/** A small deterministic generator, so a failing case replays from fast-check's seed. */
function chooser(seed: number): (n: number) => number {
  let state = seed >>> 0 || 1;
  return (n) => {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    return (state >>> 8) % n;
  };
}

/** Plays the bracket out, one result at a time, in a random order among the playable matches. */
function playOut(start: KnockoutBracket, seed: number, check: (b: KnockoutBracket) => void = () => {}): KnockoutBracket {
  const pick = chooser(seed);
  let bracket = start;
  for (let playable = playableMatches(bracket); playable.length > 0; playable = playableMatches(bracket)) {
    const match = playable[pick(playable.length)]!;
    const result = advance(bracket, [{ round: match.round, index: match.index, winner: match.players[pick(2)]! }]);
    if (!result.ok) throw new Error(result.message);
    // What became ready is exactly what is newly playable.
    const before = new Set(playable.filter((m) => m !== match).map((m) => `${m.round}:${m.index}`));
    const now = playableMatches(result.bracket).map((m) => `${m.round}:${m.index}`);
    expect(result.ready.map((m) => `${m.round}:${m.index}`)).toEqual(now.filter((key) => !before.has(key)));
    bracket = result.bracket;
    check(bracket);
  }
  return bracket;
}

const aField = fc
  .integer({ min: 2, max: 64 })
  .chain((n) => fc.array(fc.integer({ min: 800, max: 2400 }), { minLength: n, maxLength: n }))
  .map((ratings) => ratings.map((rating, i) => ({ id: `p${i}`, rating })));

describe('seedingOrder', () => {
  it('is the standard order: 1 v 16, 8 v 9, 4 v 13...', () => {
    expect(seedingOrder(2)).toEqual([1, 2]);
    expect(seedingOrder(4)).toEqual([1, 4, 2, 3]);
    expect(seedingOrder(8)).toEqual([1, 8, 4, 5, 2, 7, 3, 6]);
    expect(seedingOrder(16)).toEqual([1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]);
  });

  it('pairs seeds summing to size + 1, and keeps 1 and 2 apart until the final', () => {
    for (const size of [2, 4, 8, 16, 32, 64]) {
      const order = seedingOrder(size);
      expect([...order].sort((a, b) => a - b)).toEqual(Array.from({ length: size }, (_, i) => i + 1));
      for (let i = 0; i < size; i += 2) expect(order[i]! + order[i + 1]!).toBe(size + 1);
      expect(order.indexOf(2)).toBe(size / 2);
    }
  });
});

describe('seedBracket', () => {
  it('seeds by rating, equal ratings in entry order', () => {
    const bracket = seedBracket([
      { id: 'a', rating: 1500 },
      { id: 'b', rating: 1700 },
      { id: 'c', rating: 1500 },
      { id: 'd', rating: 1600 },
    ]);
    expect(bracket.entrants.map((e) => [e.id, e.seed])).toEqual([
      ['b', 1],
      ['d', 2],
      ['a', 3],
      ['c', 4],
    ]);
    expect(bracket.rounds[0]!.map((m) => m.players)).toEqual([
      ['b', 'c'],
      ['d', 'a'],
    ]);
    expect(bracket.rounds[1]).toEqual([{ round: 1, index: 0, players: [null, null], winner: null, bye: false }]);
  });

  it('gives 5 players three byes, to seeds 1–3; seeds 2 and 3 meet at once in round 2', () => {
    const bracket = seedBracket(field(5));
    expect(bracket.size).toBe(8);
    expect(bracket.rounds[0]!.map((m) => [m.players, m.bye])).toEqual([
      [['p1', null], true],
      [['p4', 'p5'], false],
      [['p2', null], true],
      [['p3', null], true],
    ]);
    expect(bracket.rounds[1]!.map((m) => m.players)).toEqual([
      ['p1', null],
      ['p2', 'p3'],
    ]);
    expect(playableMatches(bracket).map((m) => [m.round, m.index])).toEqual([
      [0, 1],
      [1, 1],
    ]);
  });

  it('refuses fewer than 2 players and a player entered twice', () => {
    expect(() => seedBracket(field(1))).toThrow(RangeError);
    expect(() => seedBracket([...field(3), { id: 'p1', rating: 1 }])).toThrow(RangeError);
  });

  it('places every player once in round 1, byes only to the top nextPow2 − n seeds', () => {
    fc.assert(
      fc.property(aField, (players) => {
        const bracket = seedBracket(players);
        const n = players.length;
        expect(bracket.size).toBe(nextPowerOfTwo(n));
        const placed = bracket.rounds[0]!.flatMap((m) => m.players).filter((id) => id !== null);
        expect([...placed].sort()).toEqual(players.map((p) => p.id).sort());
        const seedOf = new Map(bracket.entrants.map((e) => [e.id, e.seed]));
        const byes = bracket.rounds[0]!.filter((m) => m.bye).map((m) => seedOf.get(m.players[0]!)!);
        expect(byes.sort((a, b) => a - b)).toEqual(Array.from({ length: bracket.size - n }, (_, i) => i + 1));
        // Seeds follow ratings.
        for (let i = 1; i < bracket.entrants.length; i++)
          expect(bracket.entrants[i - 1]!.rating).toBeGreaterThanOrEqual(bracket.entrants[i]!.rating);
        expect(bracketSchema.parse(bracket)).toEqual(bracket);
      }),
    );
  });
});

describe('advance', () => {
  it('advances live: a quarterfinal winner waits only for the other feeder of their semifinal', () => {
    let bracket = seedBracket(field(8));
    bracket = decide(bracket, 0, 0, 0);
    expect(bracket.rounds[1]![0]!.players).toEqual(['p1', null]);
    const result = advance(bracket, [{ round: 0, index: 1, winner: 'p5' }]);
    expect(result).toMatchObject({ ok: true, ready: [{ round: 1, index: 0, players: ['p1', 'p5'], winner: null }] });
  });

  it('refuses a result that does not fit, and changes nothing', () => {
    const bracket = seedBracket(field(6));
    expect(advance(bracket, [{ round: 5, index: 0, winner: 'p1' }])).toEqual({
      ok: false,
      code: 'unknown_match',
      message: TOURNAMENT.unknownMatch,
    });
    expect(advance(bracket, [{ round: 0, index: 0, winner: 'p1' }])).toMatchObject({ ok: false, code: 'match_decided' }); // a bye
    expect(advance(bracket, [{ round: 2, index: 0, winner: 'p1' }])).toMatchObject({ ok: false, code: 'match_not_ready' });
    expect(advance(bracket, [{ round: 0, index: 1, winner: 'p1' }])).toEqual({
      ok: false,
      code: 'not_in_match',
      message: TOURNAMENT.notInMatch,
    });
    const copy = JSON.parse(JSON.stringify(bracket)) as typeof bracket;
    // All or nothing: the good first result is not kept.
    expect(
      advance(bracket, [
        { round: 0, index: 1, winner: 'p4' },
        { round: 0, index: 1, winner: 'p5' },
      ]),
    ).toMatchObject({ ok: false, code: 'match_decided' });
    expect(bracket).toEqual(copy);
  });

  it('takes a round at once, and a result for a match an earlier one made ready', () => {
    const bracket = seedBracket(field(4));
    const result = advance(bracket, [
      { round: 0, index: 0, winner: 'p4' },
      { round: 0, index: 1, winner: 'p2' },
      { round: 1, index: 0, winner: 'p2' },
    ]);
    expect(result).toMatchObject({ ok: true, ready: [] });
    if (result.ok) expect(champion(result.bracket)).toBe('p2');
  });

  it('always ends with one champion, each player once per round, every entrant ranked once', () => {
    fc.assert(
      fc.property(aField, fc.integer(), (players, seed) => {
        const start = seedBracket(players);
        const out = new Set<string>();
        const end = playOut(start, seed, (bracket) => {
          for (const round of bracket.rounds) {
            const ids = round.flatMap((m) => m.players).filter((id) => id !== null);
            expect(new Set(ids).size).toBe(ids.length);
          }
          // A player knocked out never shows up again.
          for (const m of bracket.rounds.flat()) {
            if (m.winner && !m.bye) out.add(m.players[0] === m.winner ? m.players[1]! : m.players[0]!);
          }
          for (const m of bracket.rounds.flat()) {
            if (m.winner === null) for (const id of m.players) if (id !== null) expect(out.has(id)).toBe(false);
          }
        });
        const winner = champion(end);
        expect(winner).not.toBeNull();
        expect(out.size).toBe(players.length - 1);
        expect(out.has(winner!)).toBe(false);
        const standings = knockoutStandings(end)!;
        expect(standings.flat().sort()).toEqual(players.map((p) => p.id).sort());
        expect(standings[0]).toEqual([winner]);
        expect(standings[1]).toHaveLength(1);
        if (players.length >= 4) expect(standings[2]).toHaveLength(2);
      }),
    );
  });
});

describe('standings and helpers', () => {
  it('ranks champion, runner-up, then semifinal losers sharing 3rd–4th by seed', () => {
    let bracket = seedBracket(field(8));
    // Quarterfinals: 1, 5, 7, 3 go through; semifinals: 5 and 3; final: 3.
    for (const [index, slot] of [
      [0, 0],
      [1, 1],
      [2, 1],
      [3, 0],
    ] as const)
      bracket = decide(bracket, 0, index, slot);
    expect(knockoutStandings(bracket)).toBeNull();
    bracket = decide(bracket, 1, 0, 1);
    bracket = decide(bracket, 1, 1, 1);
    bracket = decide(bracket, 2, 0, 1);
    expect(knockoutStandings(bracket)).toEqual([['p3'], ['p5'], ['p1', 'p7'], ['p2', 'p4', 'p6', 'p8']]);
  });

  it('names rounds from the end and picks the better seed', () => {
    const bracket = seedBracket(field(12));
    expect([0, 1, 2, 3].map((r) => roundsLeft(bracket, r))).toEqual([4, 3, 2, 1]);
    expect(betterSeed(bracket, 'p9', 'p2')).toBe('p2');
    expect(betterSeed(bracket, 'p2', 'p9')).toBe('p2');
  });

  it('sends through whoever was ready; neither, the better seed', () => {
    const bracket = seedBracket(field(8));
    const match = bracket.rounds[0]![1]!; // p4 v p5
    expect(noShowWinner(bracket, match, [true, true])).toBeNull();
    expect(noShowWinner(bracket, match, [false, true])).toBe('p5');
    expect(noShowWinner(bracket, match, [true, false])).toBe('p4');
    expect(noShowWinner(bracket, match, [false, false])).toBe('p4');
    expect(noShowWinner(bracket, bracket.rounds[1]![0]!, [false, false])).toBeNull(); // no players yet
  });
});
