// Reminders come with the match on the real paths that make one: accepting a challenge (with
// its scheduled time) and joining a private room (starting now).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKit, type Kit } from '../../challenges/challenges.test-kit.ts';
import { remindersOf } from './reminders.repository.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());

describe('reminders on the paths that make a match', () => {
  it('accepting a scheduled challenge writes all three, for both players, in the accept', async () => {
    const alice = await kit.player();
    const bob = await kit.player();
    const start = new Date(Date.now() + 3 * 3600_000);
    start.setUTCSeconds(0, 0);
    const created = await kit.create(alice, { game: 'chess', stake: 25, duration: 30, scheduledTime: start.toISOString() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const accepted = await kit.api('POST', `/api/challenges/${created.body.challenge.id}/accept`, { as: bob, body: {} });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const rows = await remindersOf(kit.database.db, accepted.body.match.id);
    expect(rows.map((r) => [r.kind, new Date(r.due_at).getTime()]).sort()).toEqual(
      [
        ['at_start', start.getTime()],
        ['at_start', start.getTime()],
        ['before_1h', start.getTime() - 3600_000],
        ['before_1h', start.getTime() - 3600_000],
        ['closing_5m', start.getTime() + 300_000],
        ['closing_5m', start.getTime() + 300_000],
      ].sort(),
    );
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set([alice.id, bob.id]));
  });

  it('joining a private room (a match starting now) writes only "window closing"', async () => {
    const alice = await kit.player();
    const bob = await kit.player();
    const room = await kit.api<{ room: { roomCode: string } }>('POST', '/api/rooms', {
      as: alice,
      body: { gameType: 'tic-tac-toe', betTier: 5 },
    });
    expect(room.status, JSON.stringify(room.body)).toBe(201);
    const joined = await kit.api<{ matchId: string }>('POST', `/api/rooms/${room.body.room.roomCode}/join`, { as: bob });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    const rows = await remindersOf(kit.database.db, joined.body.matchId);
    expect(rows.map((r) => [r.kind, r.status])).toEqual([
      ['closing_5m', 'scheduled'],
      ['closing_5m', 'scheduled'],
    ]);
  });
});
