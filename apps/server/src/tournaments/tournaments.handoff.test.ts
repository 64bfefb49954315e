import { describe, expect, it } from 'vitest';
import type { Queryable } from '../db/database.ts';
import { TOURNAMENT_GAME_ENDED, handToTournament, handedTournament } from './tournaments.handoff.ts';

/** What a hand-off sends after the commit. */
function sent(runHere: boolean): string {
  const notes: [string, string][] = [];
  const tx = { notifyAfterCommit: (channel: string, payload: string) => notes.push([channel, payload]) } as unknown as Queryable;
  handToTournament(tx, 't1', runHere);
  expect(notes).toHaveLength(1);
  expect(notes[0]![0]).toBe(TOURNAMENT_GAME_ENDED);
  return notes[0]![1];
}

describe('the hand-off of an ended game', () => {
  it('is run by every process, but not again by the one that ran it itself', () => {
    expect(handedTournament(sent(false))).toBe('t1');
    expect(handedTournament(sent(true))).toBeNull();
    // Another process's own hand-off is news here.
    expect(handedTournament('t1 another-process')).toBe('t1');
    expect(handedTournament('')).toBeNull();
  });
});
