// Fairness at the edges: a fallen flag decides before a resignation or draw answer, draw answers only from the one offered to,
// ready races across processes, and ludo dice anyone can check after the game.
import { describe, expect, it } from 'vitest';
import { ARENA } from '@versus/domain';
import { ludoCommitment, verifyLudoRolls } from '@versus/domain/games/index';
import type { MatchView } from '@versus/domain/arena';
import { kitPerFile, playTicTacToeGame, type Kit, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

const STAKE = 30;
const START = 100_000;

/** The running seat's turn started two hours ago: its flag has fallen, and nobody has noticed yet. */
const letFlagFall = (id: string) => kit.turnBack(id, 7_200_000);

const draw = (id: string, as: Player, action: 'offer' | 'accept' | 'decline', app?: Awaited<ReturnType<Kit['anotherApp']>>) =>
  kit.api('POST', `/api/matches/${id}/draw`, { as, body: { action }, ...(app ? { app } : {}) });

async function chessMatch(a: string, b: string) {
  const alice = await kit.player(a);
  const bob = await kit.player(b);
  const id = await kit.match('chess', alice, bob, { stake: STAKE });
  const view = await kit.start(id, alice, bob);
  const white = kit.mover(view, [alice, bob]);
  const black = white === alice ? bob : alice;
  return { id, view, white, black, whiteSeat: view.toMove[0]! };
}

describe('a flag that fell first decides', () => {
  it('accepting a draw after your own time ran out: the game is lost on time, not drawn', async () => {
    const { id, view, white, black, whiteSeat } = await chessMatch('fdwa', 'fdwb');
    expect((await draw(id, black, 'offer')).status).toBe(200);
    await letFlagFall(id);
    const other = await kit.anotherApp(); // no cached copy: it reads the stored clock
    const late = await draw(id, white, 'accept', other);
    expect(late.status, late.raw).toBe(409);
    expect(late.body.error).toEqual({ code: 'time_out', message: ARENA.timeUp });
    const after = await kit.view(id, white, other);
    expect(after.series.games[0]!.outcome).toMatchObject({ reason: 'timeout', winner: 1 - whiteSeat });
    expect(after.series.draws).toBe(0);
    expect(after.status).toBe('in_progress');
    expect(after.version).toBe(view.version + 2); // the offer, then the timeout; no draw
    await kit.expectAuditClean();
  });

  it('offering a draw after your own time ran out: refused, the game is lost on time', async () => {
    const { id, white, whiteSeat } = await chessMatch('fdoa', 'fdob');
    await letFlagFall(id);
    const other = await kit.anotherApp();
    const late = await draw(id, white, 'offer', other);
    expect(late.status, late.raw).toBe(409);
    expect(late.body.error).toEqual({ code: 'time_out', message: ARENA.timeUp });
    const after = await kit.view(id, white, other);
    expect(after.series.games[0]!.outcome).toMatchObject({ reason: 'timeout', winner: 1 - whiteSeat });
    expect(after.drawOffer).toBeNull();
  });

  it("offering a draw after the opponent's time ran out: the game is yours on time, the offer is not made", async () => {
    const { id, white, black, whiteSeat } = await chessMatch('fdxa', 'fdxb');
    await letFlagFall(id);
    const other = await kit.anotherApp();
    const late = await draw(id, black, 'offer', other);
    expect(late.status, late.raw).toBe(409);
    expect(late.body.error).toEqual({ code: 'stale_version', message: ARENA.changedMeanwhile });
    const after = await kit.view(id, white, other);
    expect(after.series.games[0]!.outcome).toMatchObject({ reason: 'timeout', winner: 1 - whiteSeat });
    expect(after.drawOffer).toBeNull();
  });

  it('rock-paper-scissors, both out of time: the one whose flag fell first loses, however late the other throws', async () => {
    const alice = await kit.player('frpa');
    const bob = await kit.player('frpb');
    const id = await kit.match('rock-paper-scissors', alice, bob, { stake: STAKE });
    const view = await kit.start(id, alice, bob);
    expect([...view.toMove].sort()).toEqual([0, 1]);
    const aliceSeat = view.players.findIndex((p) => p.id === alice.id);
    const bobSeat = 1 - aliceSeat;
    // Both clocks run for the throw; bob had 30 s left, alice 60 s; 75 s have gone by: bob's flag
    // fell at 30 s, alice's at 60 s, and nobody has checked since.
    await kit.test.database.db.query(
      `UPDATE matches SET state = jsonb_set(jsonb_set(state, '{clock,since}', to_jsonb((state->'clock'->>'since')::bigint - 75000)),
                                            '{clock,remainingMs}', $2::jsonb) WHERE id = $1`,
      [id, JSON.stringify(bobSeat === 0 ? [30_000, 60_000] : [60_000, 30_000])],
    );
    const other = await kit.anotherApp();
    const late = await kit.move(id, alice, 'rock', { version: view.version, app: other });
    expect(late.status, late.raw).toBe(409);
    expect(late.body.error).toEqual({ code: 'stale_version', message: ARENA.changedMeanwhile });
    const after = await kit.view(id, alice, other);
    expect(after.series.games[0]!.outcome).toEqual({ winner: aliceSeat, reason: 'timeout' });
    expect(after.moves).toHaveLength(0);
  });

  it('the sweeper, finding both flags fallen, makes the first to fall lose (as the timer would have)', async () => {
    const alice = await kit.player('fswa');
    const bob = await kit.player('fswb');
    const id = await kit.match('rock-paper-scissors', alice, bob, { stake: STAKE });
    const view = await kit.start(id, alice, bob);
    const aliceSeat = view.players.findIndex((p) => p.id === alice.id);
    const [row] = await kit.test.database.db.query<{ since: string }>(
      `SELECT state->'clock'->>'since' AS since FROM matches WHERE id = $1`,
      [id],
    );
    await kit.test.database.db.query(`UPDATE matches SET state = jsonb_set(state, '{clock,remainingMs}', $2::jsonb) WHERE id = $1`, [
      id,
      JSON.stringify(aliceSeat === 0 ? [40_000, 20_000] : [20_000, 40_000]),
    ]);
    const other = await kit.anotherApp();
    // What the sweep runs for each overdue clock (and the timer, when it fires late).
    expect(await other.services.arena.flag(id, Number(row!.since) + 50_000, { fresh: true })).toBe(true);
    const after = await kit.view(id, alice, other);
    expect(after.series.games[0]!.outcome).toEqual({ winner: aliceSeat, reason: 'timeout' });
  });

  /** Alice has won game 1 of tic-tac-toe; in game 2 bob is to move, and his time is gone. */
  async function bobOutOfTimeAtOneNil(a: string, b: string) {
    const alice = await kit.player(a);
    const bob = await kit.player(b);
    const players: [Player, Player] = [alice, bob];
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    await kit.start(id, alice, bob);
    await playTicTacToeGame(kit, id, players, alice);
    let view: MatchView = await kit.view(id, alice);
    if (kit.mover(view, players) === alice) {
      const reply = await kit.move(id, alice, 4, { version: view.version });
      expect(reply.status, reply.raw).toBe(200);
      view = reply.body.match;
    }
    expect(kit.mover(view, players)).toBe(bob);
    await letFlagFall(id);
    return { id, alice, bob, other: await kit.anotherApp() };
  }

  async function expectAliceWonOnTime(id: string, alice: Player, bob: Player) {
    const after = await kit.view(id, alice);
    expect(after).toMatchObject({ status: 'completed', winnerId: alice.id });
    expect(after.result).toMatchObject({ outcome: 'win', reason: 'games-won', lastGameReason: 'timeout' });
    expect(await kit.balance(alice.id)).toEqual({ available: START + STAKE * 100, escrow: 0 });
    expect(await kit.balance(bob.id)).toEqual({ available: START - STAKE * 100, escrow: 0 });
    expect((await kit.events(`match:${id}`)).filter((e) => e.type === 'match.completed')).toHaveLength(1);
    await kit.expectAuditClean();
  }

  it("resigning after the opponent's flag fell in the game that decides: the match was already won, the resigner is paid", async () => {
    const { id, alice, bob, other } = await bobOutOfTimeAtOneNil('frsa', 'frsb');
    // Bob sat on his move until his time was gone; alice, tired of waiting, resigns.
    const resign = await kit.api('POST', `/api/matches/${id}/resign`, { as: alice, body: {}, app: other });
    expect(resign.status, resign.raw).toBe(409);
    expect(resign.body.error).toEqual({ code: 'match_over', message: ARENA.matchOver });
    await expectAliceWonOnTime(id, alice, bob);
  });

  it('resigning after your own flag fell: lost on time (the opponent is paid once), not by resignation', async () => {
    const { id, alice, bob, other } = await bobOutOfTimeAtOneNil('frca', 'frcb');
    const resign = await kit.api('POST', `/api/matches/${id}/resign`, { as: bob, body: {}, app: other });
    expect(resign.status, resign.raw).toBe(409);
    expect(resign.body.error).toEqual({ code: 'time_out', message: ARENA.timeUp });
    await expectAliceWonOnTime(id, alice, bob);
  });

  it('a draw answer that arrived before the flag fell counts, however long it waited for its turn', async () => {
    const { id, white, black } = await chessMatch('fqua', 'fqub');
    expect((await draw(id, black, 'offer')).status).toBe(200);
    const [row] = await kit.test.database.db.query<{
      clock: { since: number; remainingMs: [number, number]; quotaMs: [number, number]; running: number[] };
    }>(`SELECT state->'clock' AS clock FROM matches WHERE id = $1`, [id]);
    const c = row!.clock;
    const seat = c.running[0] as 0 | 1;
    const fallsAt = c.since + c.remainingMs[seat] + Math.min(c.quotaMs[seat], 2_000);
    const other = await kit.anotherApp();
    const arena = other.services.arena;
    let clock = fallsAt - 1;
    Object.defineProperty(arena, 'now', { value: () => clock });
    const accepted = arena.draw({ userId: white.id } as Parameters<typeof arena.draw>[0], id, { action: 'accept' });
    clock = fallsAt + 50; // its turn comes after the flag fell
    await accepted;
    const view = await kit.view(id, white, other);
    expect(view.series.games[0]!.outcome).toEqual({ draw: true, reason: 'agreement' });
  });

  it('within the grace a draw answer still counts', async () => {
    const { id, white, black } = await chessMatch('fgra', 'fgrb');
    expect((await draw(id, black, 'offer')).status).toBe(200);
    const accepted = await draw(id, white, 'accept');
    expect(accepted.status, accepted.raw).toBe(200);
    expect(accepted.body.match.series.games[0]!.outcome).toEqual({ draw: true, reason: 'agreement' });
  });
});

describe('draw answers', () => {
  it('only the player offered a draw can accept it; strangers and finished matches are refused', async () => {
    const { id, white, black } = await chessMatch('dofa', 'dofb');
    const stranger = await kit.player('dofs');
    expect((await draw(id, black, 'offer')).status).toBe(200);
    const before = await kit.snapshot(id);
    const own = await draw(id, black, 'accept');
    expect(own.status).toBe(409);
    expect(own.body.error).toEqual({ code: 'nothing_to_answer', message: ARENA.drawNothingToAnswer });
    const ownDecline = await draw(id, black, 'decline');
    expect(ownDecline.body.error.code).toBe('nothing_to_answer');
    const strangers = await draw(id, stranger, 'accept');
    expect(strangers.status).toBe(403);
    expect(strangers.body.error.message).toBe(ARENA.notAPlayer);
    expect((await kit.api('POST', `/api/matches/${id}/resign`, { as: stranger, body: {} })).status).toBe(403);
    expect(await kit.snapshot(id)).toBe(before);

    // Over by resignation: the standing offer can no longer be taken up.
    expect((await kit.api('POST', `/api/matches/${id}/resign`, { as: white, body: {} })).status).toBe(200);
    const settled = await kit.snapshot(id);
    const late = await draw(id, white, 'accept');
    expect(late.status).toBe(409);
    expect(late.body.error).toEqual({ code: 'match_over', message: ARENA.matchOver });
    expect(await kit.snapshot(id)).toBe(settled);
    await kit.expectAuditClean();
  });

  it('an accept racing a resignation: one of them happens, paid once', async () => {
    const { id, white, black } = await chessMatch('drra', 'drrb');
    expect((await draw(id, black, 'offer')).status).toBe(200);
    const other = await kit.anotherApp();
    const [accepted, resigned] = await Promise.all([
      draw(id, white, 'accept'),
      kit.api('POST', `/api/matches/${id}/resign`, { as: black, body: {}, app: other }),
    ]);
    expect(resigned.status, resigned.raw).toBe(200); // a drawn game 1 leaves the match running: the resignation still ends it
    const view = await kit.view(id, white);
    expect(view).toMatchObject({ status: 'completed', winnerId: white.id });
    expect(view.series.draws).toBe(accepted.status === 200 ? 1 : 0);
    expect(await kit.balance(white.id)).toEqual({ available: START + STAKE * 100, escrow: 0 });
    expect((await kit.events(`match:${id}`)).filter((e) => e.type === 'match.completed')).toHaveLength(1);
    await kit.expectAuditClean();
  });
});

describe('a process with an older copy of the match', () => {
  it('takes a resignation or a draw offer on the current version (it reads the match again)', async () => {
    const { id, view, white, black } = await chessMatch('oldca', 'oldcb');
    const other = await kit.anotherApp();
    // The move is played on the other process: this one still holds the match as it was.
    const moved = await kit.move(id, white, 'e2e4', { version: view.version, app: other });
    expect(moved.status, moved.raw).toBe(200);
    const current = moved.body.match.version;
    const offered = await kit.api('POST', `/api/matches/${id}/draw`, { as: black, body: { action: 'offer', version: current } });
    expect(offered.status, offered.raw).toBe(200);
    const moved2 = await kit.move(id, black, 'e7e5', { version: offered.body.match.version, app: other });
    expect(moved2.status, moved2.raw).toBe(200);
    const resigned = await kit.api('POST', `/api/matches/${id}/resign`, { as: white, body: { version: moved2.body.match.version } });
    expect(resigned.status, resigned.raw).toBe(200);
    expect(resigned.body.match).toMatchObject({ status: 'completed', winnerId: black.id });
    await kit.expectAuditClean();
  });
});

describe('ready', () => {
  it('both players ready at once on two processes: the match starts once', async () => {
    const alice = await kit.player('rdya');
    const bob = await kit.player('rdyb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const other = await kit.anotherApp();
    await kit.view(id, alice, other); // both processes have seen it pending
    const replies = await Promise.all([
      kit.api('POST', `/api/matches/${id}/ready`, { as: alice }),
      kit.api('POST', `/api/matches/${id}/ready`, { as: bob, app: other }),
    ]);
    for (const r of replies) expect(r.status, r.raw).toBe(200);
    const view = await kit.view(id, alice);
    expect(view.status).toBe('in_progress');
    expect(view.version).toBe(2);
    expect((await kit.events(`match:${id}`)).map((e) => e.type)).toEqual(['match.ready', 'match.started']);
    // Readying again changes nothing.
    const started = await kit.snapshot(id);
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: bob })).status).toBe(200);
    expect(await kit.snapshot(id)).toBe(started);
  });

  it("a ready that arrived before the no-show deadline counts, however long it waited behind the match's other work", async () => {
    const alice = await kit.player('rdta');
    const bob = await kit.player('rdtb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice })).status).toBe(200);
    const deadline = (await kit.startsAt(id)) + 5 * 60_000;
    const other = await kit.anotherApp();
    const arena = other.services.arena;
    let clock = deadline - 1;
    Object.defineProperty(arena, 'now', { value: () => clock });
    // Something of this match's is being done (a clock check reading it) when bob's ready
    // arrives, a millisecond before the deadline; by the time its turn comes, the deadline has passed.
    const ahead = arena.flag(id, clock, { fresh: true });
    const ready = arena.ready({ userId: bob.id } as Parameters<typeof arena.ready>[0], id);
    clock = deadline + 50;
    await ahead;
    expect(await ready).toMatchObject({ started: true });
    const view = await kit.view(id, alice, other);
    expect(view.status).toBe('in_progress');
    expect(view.clock!.running).toHaveLength(1);
    await kit.expectAuditClean();
  });

  it('readying after the match was voided is refused and pays nothing', async () => {
    const alice = await kit.player('rdva');
    const bob = await kit.player('rdvb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    await kit.view(id, alice); // cached here as pending
    const startsAt = await kit.startsAt(id);
    const other = await kit.anotherApp();
    expect(await other.services.arena.sweep(startsAt + 6 * 60_000)).toMatchObject({ noShows: 1 });
    const voided = await kit.snapshot(id);
    const late = await kit.api('POST', `/api/matches/${id}/ready`, { as: alice });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe('match_over');
    expect(await kit.snapshot(id)).toBe(voided);
    expect(await kit.balance(alice.id)).toEqual({ available: START, escrow: 0 });
    await kit.expectAuditClean();
  });
});

describe('ludo dice', () => {
  it('are committed before the game and checkable from the replay once it is over', async () => {
    const alice = await kit.player('luda');
    const bob = await kit.player('ludb');
    const players: [Player, Player] = [alice, bob];
    const id = await kit.match('ludo', alice, bob, { stake: STAKE });
    let view = await kit.start(id, alice, bob);
    const commitment = view.game!.commitment;
    const seen: string[] = [];
    expect(view.series.games[0]!.seed).toBeNull();
    for (let i = 0; i < 6; i++) {
      const mover = kit.mover(view, players);
      const state = view.game!.view as { phase: 'roll' | 'move'; die: number | null };
      const move = state.phase === 'roll' ? 'roll' : { token: 0 };
      const reply = await kit.move(id, mover, move, { version: view.version });
      if (reply.status !== 200) break; // token 0 may not be movable: stop there
      view = reply.body.match;
      seen.push(reply.raw, JSON.stringify(await kit.view(id, mover === alice ? bob : alice)));
    }
    expect(view.series.games[0]!.seed).toBeNull();
    seen.push(JSON.stringify(await kit.events(`match:${id}`)));
    expect((await kit.api('POST', `/api/matches/${id}/resign`, { as: alice, body: {} })).status).toBe(200);
    const replay = await kit.replay(id, bob);
    const game = replay.games[0]!;
    expect(game.commitment).toBe(commitment);
    expect(ludoCommitment(game.seed!)).toBe(commitment);
    const rolls = game.moves.flatMap((m) => {
      const found = /rolled (\d)/.exec(m.notation);
      return found ? [Number(found[1])] : [];
    });
    expect(rolls.length).toBeGreaterThan(0);
    expect(verifyLudoRolls(commitment, game.seed!, rolls)).toBe(true);
    // Nobody saw the seed while the game was on: not the players' views, not the events.
    for (const text of seen) expect(text).not.toContain(game.seed!);
    expect(verifyLudoRolls(commitment, game.seed!, [...rolls.slice(0, -1), (rolls.at(-1)! % 6) + 1])).toBe(false);
    await kit.expectAuditClean();
  });
});
