import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { pairWaiting, type WaitingPlayer } from './arena-pairing.ts';

/** The rule, written out: not oneself, and neither was the other's last opponent. */
const canMeet = (a: WaitingPlayer, b: WaitingPlayer): boolean => a.id !== b.id && a.lastOpponent !== b.id && b.lastOpponent !== a.id;

const player = (id: string, over: Partial<WaitingPlayer> = {}): WaitingPlayer => ({
  id,
  score: 0,
  rating: 1500,
  lastOpponent: null,
  waitingSinceMs: 0,
  ...over,
});

const ID_POOL = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'];
const aWaiting = fc.record({
  id: fc.constantFrom(...ID_POOL),
  score: fc.integer({ min: 0, max: 30 }),
  rating: fc.integer({ min: 800, max: 2400 }),
  lastOpponent: fc.option(fc.constantFrom(...ID_POOL)),
  waitingSinceMs: fc.integer({ min: 0, max: 10_000 }),
  paused: fc.boolean(),
});

describe('pairWaiting', () => {
  it('lets the longest waiter pick the closest score, then the closest rating', () => {
    const pairs = pairWaiting([
      player('leader', { score: 20, waitingSinceMs: 100 }),
      player('close-rating', { score: 18, rating: 1510, waitingSinceMs: 50 }),
      player('far-rating', { score: 18, rating: 1900, waitingSinceMs: 10 }),
      player('newcomer', { score: 0, waitingSinceMs: 0 }),
    ]);
    // newcomer waited longest: takes the closest score (18), the closer rating of the two.
    expect(pairs).toEqual([
      ['newcomer', 'close-rating'],
      ['far-rating', 'leader'],
    ]);
  });

  it('never pairs last opponents again: when only they wait, they wait', () => {
    expect(pairWaiting([player('a', { lastOpponent: 'b' }), player('b', { lastOpponent: 'a' })])).toEqual([]);
    // Either way round: b played c since, but a's last game was against b.
    expect(pairWaiting([player('a', { lastOpponent: 'b' }), player('b', { lastOpponent: 'c' })])).toEqual([]);
    expect(pairWaiting([player('a', { lastOpponent: 'b' }), player('b', { lastOpponent: 'a' }), player('c', { score: 9 })])).toEqual([
      ['a', 'c'],
    ]);
  });

  it('never pairs a paused player', () => {
    expect(pairWaiting([player('a'), player('b', { paused: true })])).toEqual([]);
    expect(pairWaiting([player('a'), player('b', { paused: true }), player('c')])).toEqual([['a', 'c']]);
  });

  it('keeps every rule for any waiting list, and leaves no two waiting who could have met', () => {
    fc.assert(
      fc.property(fc.array(aWaiting, { maxLength: 14 }), (waiting) => {
        const pairs = pairWaiting(waiting);
        const entries = (id: string) => waiting.filter((w) => w.id === id);
        const ids = pairs.flat();
        expect(new Set(ids).size).toBe(ids.length);
        for (const [a, b] of pairs) {
          expect(a).not.toBe(b);
          for (const id of [a, b]) expect(entries(id).some((w) => w.paused)).toBe(false);
          for (const x of entries(a)) for (const y of entries(b)) expect(canMeet(x, y)).toBe(true);
        }
        // Greedy but not wasteful: among those left unpaired, nobody could have played anybody.
        const left = [...new Set(waiting.map((w) => w.id))].filter((id) => !ids.includes(id) && !entries(id).some((e) => e.paused));
        for (const a of left) {
          for (const b of left) {
            if (a !== b) expect(entries(a).some((x) => entries(b).some((y) => !canMeet(x, y)))).toBe(true);
          }
        }
      }),
    );
  });

  it('depends only on who waits, not on the order they are listed', () => {
    fc.assert(
      fc.property(fc.uniqueArray(aWaiting, { selector: (w) => w.id, maxLength: 10 }), fc.integer(), (waiting, seed) => {
        const shuffled = [...waiting].sort((x, y) => ((x.id.charCodeAt(0) * 31 + seed) % 7) - ((y.id.charCodeAt(0) * 31 + seed) % 7));
        expect(pairWaiting(shuffled)).toEqual(pairWaiting(waiting));
      }),
    );
  });
});
