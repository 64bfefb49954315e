// The sweep acts only a grace past a deadline, so a ready or move that arrived in time elsewhere commits first;
// when it acts, the ending is the one the deadline decided.
import { describe, expect, it, vi } from 'vitest';
import { ARENA_RULES } from '@versus/domain/arena';
import type { App } from '../context.ts';
import type { Arena } from './arena.service.ts';
import { kitPerFile, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

const STAKE = 25;
const START = 100_000;
const GRACE = ARENA_RULES.sweepGraceMs;

const noShowDeadline = async (id: string) => (await kit.startsAt(id)) + ARENA_RULES.noShowMs;

/** When the running match's next flag falls (the stored deadline the sweep looks for). */
async function flagDeadline(id: string): Promise<number> {
  const [row] = await kit.test.database.db.query<{ at: Date }>('SELECT deadline_at AS at FROM matches WHERE id = $1', [id]);
  return new Date(row!.at).getTime();
}

async function storedClock(id: string) {
  return (await kit.storedState(id))!.clock;
}

async function resign(id: string, as: Player, app?: App) {
  const reply = await kit.api('POST', `/api/matches/${id}/resign`, { as, body: {}, ...(app ? { app } : {}) });
  expect(reply.status, reply.raw).toBe(200);
}

/** Another process whose clock the test sets, and whose match writes wait until released. */
async function heldProcess(at: number) {
  const app = await kit.anotherApp();
  const arena: Arena = app.services.arena;
  const clock = { now: at };
  Object.defineProperty(arena, 'now', { value: () => clock.now });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let reached!: () => void;
  const held = new Promise<void>((resolve) => (reached = resolve));
  const plain = arena.writer.plain.bind(arena.writer);
  vi.spyOn(arena.writer, 'plain').mockImplementation(async (write) => {
    reached();
    await gate;
    return plain(write);
  });
  return { app, arena, clock, held, release };
}

describe('the sweep waits a grace past a no-show deadline', () => {
  it('within the grace nothing happens; past it, the absent player forfeits as at the deadline', async () => {
    const alice = await kit.player('swna');
    const bob = await kit.player('swnb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    const deadline = await noShowDeadline(id);
    const before = await kit.snapshot(id);
    expect(await kit.arena.sweep(deadline + 1_000)).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    expect(await kit.arena.sweep(deadline + GRACE)).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    expect(await kit.snapshot(id)).toBe(before);

    expect(await kit.arena.sweep(deadline + GRACE + 1)).toEqual({ flagged: 0, noShows: 1, failed: 0 });
    const view = await kit.view(id, bob);
    expect(view).toMatchObject({ status: 'completed', winnerId: alice.id, game: null });
    expect(view.result).toMatchObject({
      outcome: 'win',
      reason: 'forfeit',
      lastGameReason: null,
      payouts: [{ userId: alice.id, amount: STAKE * 2 }],
    });
    expect([await kit.balance(alice.id), await kit.balance(bob.id)]).toEqual([
      { available: START + STAKE * 100, escrow: 0 },
      { available: START - STAKE * 100, escrow: 0 },
    ]);
    expect((await kit.events(`match:${id}`)).filter((e) => e.type === 'match.completed')).toHaveLength(1);
    await kit.expectAuditClean();
  });

  it('neither ready: void past the grace, both stakes back', async () => {
    const alice = await kit.player('swva');
    const bob = await kit.player('swvb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const deadline = await noShowDeadline(id);
    expect(await kit.arena.sweep(deadline + 1_000)).toMatchObject({ noShows: 0 });
    expect(await kit.arena.sweep(deadline + GRACE + 1)).toMatchObject({ noShows: 1, failed: 0 });
    const view = await kit.view(id, alice);
    expect(view).toMatchObject({ status: 'cancelled', winnerId: null });
    expect(view.result).toMatchObject({ outcome: 'void', reason: 'void', ratings: [] });
    expect([await kit.balance(alice.id), await kit.balance(bob.id)]).toEqual([
      { available: START, escrow: 0 },
      { available: START, escrow: 0 },
    ]);
    await kit.expectAuditClean();
  });

  it('a ready that arrived before the deadline and is still being written when the sweep runs is honoured', async () => {
    const alice = await kit.player('swra');
    const bob = await kit.player('swrb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    const deadline = await noShowDeadline(id);
    // Bob's ready arrives at process A a millisecond before the deadline; its write is slow.
    const a = await heldProcess(deadline - 1);
    const ready = a.arena.ready({ userId: bob.id } as Parameters<Arena['ready']>[0], id);
    await a.held;
    // Meanwhile process B runs the sweep, a few milliseconds past the deadline.
    a.clock.now = deadline + 5;
    const swept = await kit.arena.sweep(deadline + 5);
    a.release();
    expect(await ready).toMatchObject({ started: true });
    const view = await kit.view(id, alice);
    expect(view.status).toBe('in_progress');
    expect(view.winnerId).toBeNull();
    expect(view.clock!.running).toHaveLength(1);
    expect(swept).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    expect([await kit.balance(alice.id), await kit.balance(bob.id)]).toEqual([
      { available: START - STAKE * 100, escrow: STAKE * 100 },
      { available: START - STAKE * 100, escrow: STAKE * 100 },
    ]);
    // A later sweep finds nothing to end.
    expect(await kit.arena.sweep(deadline + GRACE + 1)).toMatchObject({ noShows: 0, flagged: 0 });
    await resign(id, alice, a.app); // the process that wrote the start
    await kit.expectAuditClean();
  });
});

describe('a ready arriving late, within the grace', () => {
  it('does not settle the no-show before an on-time ready still being written elsewhere', async () => {
    const alice = await kit.player('swla');
    const bob = await kit.player('swlb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const deadline = await noShowDeadline(id);
    // Bob's ready arrives at process A a millisecond before the deadline; its write is slow.
    const a = await heldProcess(deadline - 1);
    const onTime = a.arena.ready({ userId: bob.id } as Parameters<Arena['ready']>[0], id);
    await a.held;
    // Alice's ready arrives at process C just after the deadline: too late, and it must not
    // end the match (void, as nobody's ready is stored yet) before Bob's ready commits.
    const c = (await kit.anotherApp()).services.arena;
    Object.defineProperty(c, 'now', { value: () => deadline + 5 });
    await expect(c.ready({ userId: alice.id } as Parameters<Arena['ready']>[0], id)).rejects.toMatchObject({
      status: 409,
      code: 'no_show',
    });
    a.clock.now = deadline + 5;
    a.release();
    expect(await onTime).toMatchObject({ started: false });
    // Past the grace the sweep settles it as the deadline decided: Alice forfeits to Bob.
    expect(await kit.arena.sweep(deadline + GRACE + 1)).toMatchObject({ noShows: 1, failed: 0 });
    expect(await kit.view(id, bob)).toMatchObject({ status: 'completed', winnerId: bob.id });
    expect([await kit.balance(alice.id), await kit.balance(bob.id)]).toEqual([
      { available: START - STAKE * 100, escrow: 0 },
      { available: START + STAKE * 100, escrow: 0 },
    ]);
    await kit.expectAuditClean();
  });
});

describe("the sweep's re-check on a fresh read", () => {
  it('leaves a match whose deadline is within the grace (its clock or readiness changed since the query)', async () => {
    const alice = await kit.player('swka');
    const bob = await kit.player('swkb');
    const waiting = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const noShowAt = await noShowDeadline(waiting);
    const running = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    await kit.start(running, alice, bob);
    const flagAt = await flagDeadline(running);
    const before = [await kit.snapshot(waiting), await kit.snapshot(running)];
    expect(await kit.arena.noShow(waiting, noShowAt + 5, GRACE)).toBe(false);
    expect(await kit.arena.flag(running, flagAt + 5, { fresh: true, graceMs: GRACE })).toBe(false);
    expect([await kit.snapshot(waiting), await kit.snapshot(running)]).toEqual(before);
    expect(await kit.arena.noShow(waiting, noShowAt + GRACE + 1, GRACE)).toBe(true);
    expect(await kit.arena.flag(running, flagAt + GRACE + 1, { fresh: true, graceMs: GRACE })).toBe(true);
    await resign(running, alice); // leaves no clock running for the other tests' sweeps
    await kit.expectAuditClean();
  });
});

describe('the sweep waits a grace past a fallen flag', () => {
  it('within the grace nothing happens; past it, the game is lost on time at the flag, the next one starts then', async () => {
    const alice = await kit.player('swfa');
    const bob = await kit.player('swfb');
    const players: [Player, Player] = [alice, bob];
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const view = await kit.start(id, alice, bob);
    const first = kit.mover(view, players);
    const second = first === alice ? bob : alice;
    const firstSeat = view.players.findIndex((p) => p.id === first.id) as 0 | 1;
    const secondSeat = (1 - firstSeat) as 0 | 1;
    expect((await kit.move(id, first, 4, { version: view.version })).status).toBe(200);

    // The second player never moves.
    const d1 = await flagDeadline(id);
    const before = await kit.snapshot(id);
    expect(await kit.arena.sweep(d1 + 1_000)).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    expect(await kit.arena.sweep(d1 + GRACE)).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    expect(await kit.snapshot(id)).toBe(before);

    const t1 = d1 + GRACE + 1;
    expect(await kit.arena.sweep(t1)).toEqual({ flagged: 1, noShows: 0, failed: 0 });
    let after = await kit.view(id, first);
    expect(after.series.games[0]!.outcome).toEqual({ winner: firstSeat, reason: 'timeout' });
    expect(after.status).toBe('in_progress');
    expect((await kit.events(`match:${id}`)).at(-1)?.type).toBe('match.timeout');
    // Game 2's clocks start when the sweep ended game 1: its mover is not charged the grace.
    expect(await storedClock(id)).toMatchObject({ since: t1, flagged: null });
    expect(kit.mover(after, players)).toBe(second);

    // Game 2: the second player lets their time run out again; that ends the match.
    const d2 = await flagDeadline(id);
    expect(await kit.arena.sweep(d2 + 1_000)).toMatchObject({ flagged: 0 });
    expect(await kit.arena.sweep(d2 + GRACE + 1)).toEqual({ flagged: 1, noShows: 0, failed: 0 });
    after = await kit.view(id, first);
    expect(after).toMatchObject({ status: 'completed', winnerId: first.id });
    expect(after.result).toMatchObject({ outcome: 'win', reason: 'games-won', lastGameReason: 'timeout' });
    const clock = await storedClock(id);
    expect(clock.flagged).toBe(secondSeat);
    expect(clock.remainingMs[secondSeat]).toBe(0);
    expect(await kit.balance(first.id)).toEqual({ available: START + STAKE * 100, escrow: 0 });
    expect(await kit.balance(second.id)).toEqual({ available: START - STAKE * 100, escrow: 0 });
    expect((await kit.events(`match:${id}`)).filter((e) => e.type === 'match.completed')).toHaveLength(1);
    await kit.expectAuditClean();
  });

  it('a move that arrived before the flag fell and is still being written when the sweep runs is played', async () => {
    const alice = await kit.player('swma');
    const bob = await kit.player('swmb');
    const players: [Player, Player] = [alice, bob];
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const view = await kit.start(id, alice, bob);
    const mover = kit.mover(view, players);
    const deadline = await flagDeadline(id);
    const clock = await storedClock(id);
    // The move arrives at process A a millisecond before the flag falls, with the lag the flag
    // waits for (its time is gone but for that); its write is slow.
    const lagMs = deadline - clock.since! - clock.remainingMs[view.toMove[0]!];
    expect(lagMs).toBeGreaterThan(0);
    const a = await heldProcess(deadline - 1);
    const move = a.arena.move({ userId: mover.id } as Parameters<Arena['move']>[0], id, { move: 4, version: view.version, lagMs });
    await a.held;
    // Meanwhile process B runs the sweep, a few milliseconds past the flag.
    a.clock.now = deadline + 5;
    const swept = await kit.arena.sweep(deadline + 5);
    a.release();
    expect(await move).toEqual({ version: view.version + 1 });
    const after = await kit.view(id, mover);
    expect(after.status).toBe('in_progress');
    expect(after.series.games[0]!.outcome).toBeNull();
    expect(after.moves).toHaveLength(1);
    expect(after.toMove).toEqual([1 - view.toMove[0]!]);
    expect(swept).toEqual({ flagged: 0, noShows: 0, failed: 0 });
    await resign(id, mover, a.app);
  });
});
