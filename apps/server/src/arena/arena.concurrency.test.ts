// One writer per match: two "final" moves at once cannot both apply nor pay twice, in one
// process or across two; and a restart mid-match loses nothing.
import { describe, expect, it } from 'vitest';
import type { MatchView } from '@versus/domain/arena';
import type { App } from '../context.ts';
import { TestSocket, listen } from '../realtime/test-socket.ts';
import { kitPerFile, playTicTacToeGame, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

const STAKE = 40;

/** A view with its running clock's readings set aside: two reads of one match compare equal. */
const stable = (v: MatchView) => ({ ...v, serverNow: 0, clock: { ...v.clock!, remainingMs: [0, 0], at: 0 } });

/** In a checkers match, the player to move plays their `pick`-th legal move (modulo their count), reporting `metrics`. */
async function playLegal(
  id: string,
  players: [Player, Player],
  { pick = 0, metrics = {}, app }: { pick?: number; metrics?: object; app?: App } = {},
) {
  const mover = kit.mover(await kit.view(id, players[0], app), players);
  const own = await kit.view(id, mover, app);
  const legal = (own.game!.view as { legal: string[] }).legal;
  return kit.api('POST', `/api/matches/${id}/moves`, {
    as: mover,
    body: { move: legal[pick % legal.length], version: own.version, ...metrics },
    app,
  });
}
const START = 100_000;

/** Alice wins game 1, then in game 2 she is to move holding 0, 1 and 4: both 2 and 7 win. */
async function twoWinningMoves(alice: Player, bob: Player): Promise<{ id: string; view: MatchView }> {
  const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
  await kit.start(id, alice, bob);
  await playTicTacToeGame(kit, id, [alice, bob], alice);
  const plan = new Map([
    [alice.id, [0, 1, 4]],
    [bob.id, [5, 6, 3, 8]],
  ]);
  for (;;) {
    const view = await kit.view(id, alice);
    const mover = kit.mover(view, [alice, bob]);
    const next = plan.get(mover.id)!;
    if (mover === alice && next.length === 0) return { id, view };
    const reply = await kit.move(id, mover, next.shift()!, { version: view.version });
    expect(reply.status, reply.raw).toBe(200);
  }
}

async function expectPaidOnce(id: string, alice: Player, bob: Player) {
  const view = await kit.view(id, alice);
  expect(view).toMatchObject({ status: 'completed', winnerId: alice.id });
  expect(await kit.balance(alice.id)).toEqual({ available: START + STAKE * 100, escrow: 0 });
  expect(await kit.balance(bob.id)).toEqual({ available: START - STAKE * 100, escrow: 0 });
  const settles = await kit.test.database.db.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM ledger_transfers WHERE match_id = $1 AND reason = 'settle'`,
    [id],
  );
  expect(settles[0]!.n).toBe(2); // one transfer per stake, once
  const completed = (await kit.events(`match:${id}`)).filter((e) => e.type === 'match.completed');
  expect(completed).toHaveLength(1);
  const moves = await kit.test.database.db.query<{ n: number }>(
    'SELECT count(*)::int AS n FROM match_moves WHERE match_id = $1 AND game_index = 1',
    [id],
  );
  expect(moves[0]!.n).toBe(view.moves.filter((m) => m.gameIndex === 1).length);
  await kit.expectAuditClean();
}

describe('two final moves at once', () => {
  it('in one process: one wins the match, the other is refused, the stakes are paid once', async () => {
    const alice = await kit.player('cona');
    const bob = await kit.player('conb');
    const { id, view } = await twoWinningMoves(alice, bob);
    const replies = await Promise.all([2, 7].map((cell) => kit.move(id, alice, cell, { version: view.version })));
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    // The second finds the match over (or, had it raced the write, its version stale).
    expect(['match_over', 'stale_version']).toContain(replies.find((r) => r.status === 409)!.body.error.code);
    await expectPaidOnce(id, alice, bob);
  });

  it('across two server processes on one database: the same', async () => {
    const alice = await kit.player('xpa');
    const bob = await kit.player('xpb');
    const { id, view } = await twoWinningMoves(alice, bob);
    const other = await kit.anotherApp();
    // Both processes hold the match at the same version (the other one reads it now).
    expect((await kit.view(id, alice, other)).version).toBe(view.version);
    const replies = await Promise.all([
      kit.move(id, alice, 2, { version: view.version }),
      kit.move(id, alice, 7, { version: view.version, app: other }),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 409]);
    await expectPaidOnce(id, alice, bob);
  });

  it('a move and a timeout at once: exactly one of them happens', async () => {
    const alice = await kit.player('mta');
    const bob = await kit.player('mtb');
    const { id, view } = await twoWinningMoves(alice, bob);
    const other = await kit.anotherApp();
    const [reply, swept] = await Promise.all([
      kit.move(id, alice, 2, { version: view.version }),
      // Another process's sweeper thinks alice's time is up.
      other.services.arena.sweep(Date.now() + 10 * 60_000),
    ]);
    const after = await kit.view(id, alice);
    expect(after.status).toBe(reply.status === 200 ? 'completed' : 'in_progress');
    if (reply.status === 200) expect(swept.flagged).toBe(0);
    else expect(swept.flagged).toBe(1);
    await kit.expectAuditClean();
  });
});

describe('two server processes', () => {
  it("a player is not refused for what only one process's cached copy says", async () => {
    const alice = await kit.player('cca');
    const bob = await kit.player('ccb');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const other = await kit.anotherApp();
    // Alice readies through the other process (which keeps the pending match in its cache);
    // Bob's ready through this one starts the match.
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: alice, app: other })).status).toBe(200);
    expect((await kit.api('POST', `/api/matches/${id}/ready`, { as: bob })).status).toBe(200);
    expect((await kit.view(id, alice)).status).toBe('in_progress');
    // Alice resigns through the other process: its copy still says "pending".
    const resigned = await kit.api('POST', `/api/matches/${id}/resign`, { as: alice, body: {}, app: other });
    expect(resigned.status, resigned.raw).toBe(200);
    const after = await kit.view(id, bob);
    expect(after.series.games[0]?.outcome).toMatchObject({ winner: after.players.findIndex((p) => p.id === bob.id) });
    await kit.expectAuditClean();
  });

  it('a spectator on one hears the moves played on the other, in order', async () => {
    const alice = await kit.player('spa');
    const bob = await kit.player('spb');
    const carol = await kit.player('spc');
    const id = await kit.match('tic-tac-toe', alice, bob, { stake: STAKE });
    const other = await kit.anotherApp();
    const url = await listen(other);
    const socket = await TestSocket.signedIn(url, carol.token);
    try {
      socket.send({ t: 'sub', d: { topic: `match:${id}` } });
      await socket.next('subscribed');
      let view = await kit.start(id, alice, bob);
      const played: string[] = [];
      for (const cell of [4, 0, 8]) {
        const reply = await kit.move(id, kit.mover(view, [alice, bob]), cell, { version: view.version });
        expect(reply.status, reply.raw).toBe(200);
        view = reply.body.match;
        played.push(view.moves.at(-1)!.notation);
      }
      const events = await socket.events(5); // ready, started, three moves
      expect(events.map((e) => e.v)).toEqual([1, 2, 3, 4, 5]);
      expect(events.map((e) => e.type)).toEqual(['match.ready', 'match.started', 'match.move', 'match.move', 'match.move']);
      expect(events.slice(2).map((e) => (e.payload as { move: { notation: string } }).move.notation)).toEqual(played);
      // Events carry the board, with its history cut to the last move (they must not grow with the game).
      expect((events[4]!.payload as { game: { view: { moves: number[]; cells: unknown[] } } }).game.view.moves).toEqual([8]);
      expect((events[4]!.payload as { game: { view: { cells: unknown[] } } }).game.view.cells.filter((c) => c !== null)).toHaveLength(3);
    } finally {
      socket.close();
    }
  });
});

describe('a restart mid-match', () => {
  it('loses nothing: the view is the same, the clock resumes from the stored time, play goes on', async () => {
    const alice = await kit.player('rsa');
    const bob = await kit.player('rsb');
    const id = await kit.match('chess', alice, bob, { stake: STAKE });
    let first: App | null = await kit.anotherApp();
    const ready = async (as: Player) => expect((await kit.api('POST', `/api/matches/${id}/ready`, { as, app: first! })).status).toBe(200);
    await ready(alice);
    await ready(bob);
    const players: [Player, Player] = [alice, bob];
    for (const uci of ['e2e4', 'e7e5', 'g1f3', 'b8c6']) {
      const view = await kit.view(id, alice, first);
      const reply = await kit.move(id, kit.mover(view, players), uci, { version: view.version, app: first });
      expect(reply.status, reply.raw).toBe(200);
    }
    const before = await kit.view(id, bob, first);
    await first.close();
    first = null;

    const second = await kit.anotherApp();
    const after = await kit.view(id, bob, second);
    expect(stable(after)).toEqual(stable(before));
    // The clock kept running from the stored turn start: the running seat has less, the other the same.
    const running = before.clock!.running[0]!;
    const idle = 1 - running;
    expect(after.clock!.remainingMs[idle]).toBe(before.clock!.remainingMs[idle]);
    const elapsed = after.clock!.at - before.clock!.at;
    expect(Math.abs(before.clock!.remainingMs[running] - elapsed - after.clock!.remainingMs[running])).toBeLessThanOrEqual(2);
    expect((after.game!.view as { sans: string[] }).sans).toEqual(['e4', 'e5', 'Nf3', 'Nc6']);

    // Play goes on from where it was, on the new process.
    const next = await kit.move(id, kit.mover(after, players), 'f1c4', { version: after.version, app: second });
    expect(next.status, next.raw).toBe(200);
    expect(next.body.match.moves.map((m) => m.notation)).toEqual(['e4', 'e5', 'Nf3', 'Nc6', 'Bc4']);
  });
});

describe('the move is the write', () => {
  it('stores each move as its row and the state only as a snapshot every 32 moves; another process replays to the same match', async () => {
    const alice = await kit.player('mwa');
    const bob = await kit.player('mwb');
    const id = await kit.match('checkers', alice, bob, { stake: STAKE });
    const players: [Player, Player] = [alice, bob];
    await kit.start(id, alice, bob);
    const snapshotSeq = async () => {
      const [row] = await kit.test.database.db.query<{ seq: number }>(`SELECT (state ->> 'seq')::int AS seq FROM matches WHERE id = $1`, [
        id,
      ]);
      return row!.seq;
    };
    for (let i = 1; i <= 34; i++) {
      // Lags and premoves as clients report them: the replay must press the clock the same way.
      const metrics = i % 5 === 0 ? { premove: true } : { lagMs: 12.5 * (i % 7) };
      const reply = await playLegal(id, players, { pick: i, metrics });
      expect(reply.status, reply.raw).toBe(200);
      expect(reply.body.match.series.played, 'no game ended').toBe(0);
      expect(await snapshotSeq()).toBe(i < 32 ? 0 : 32);
    }
    const [stored] = await kit.test.database.db.query<{ n: number; lags: number; premoves: number }>(
      `SELECT count(*)::int AS n, count(lag_ms)::int AS lags, count(*) FILTER (WHERE premove)::int AS premoves
         FROM match_moves WHERE match_id = $1`,
      [id],
    );
    expect(stored).toEqual({ n: 34, lags: 34 - 6, premoves: 6 });

    // A process with no copy of the match reads the snapshot and replays the two later moves.
    const other = await kit.anotherApp();
    const mine = await kit.view(id, alice);
    const theirs = await kit.view(id, alice, other);
    expect(stable(theirs)).toEqual(stable(mine));
    expect(theirs.clock!.remainingMs[1 - theirs.clock!.running[0]!]).toBe(mine.clock!.remainingMs[1 - mine.clock!.running[0]!]);
    expect((await kit.storedState(id))!.seq).toBe(34);
    // And plays on from it.
    const reply = await playLegal(id, players, { app: other });
    expect(reply.status, reply.raw).toBe(200);
    expect(reply.body.match.moves).toHaveLength(35);
    // A move row's match never goes away (the foreign key's job, now the schema's).
    await expect(kit.test.database.db.query('DELETE FROM matches WHERE id = $1', [id])).rejects.toThrow(/never deleted/);
  });
});

describe('closing a process', () => {
  it('stores the state of the running matches it holds, so the next reader has nothing to replay', async () => {
    const alice = await kit.player('sca');
    const bob = await kit.player('scb');
    const id = await kit.match('checkers', alice, bob, { stake: STAKE });
    const players: [Player, Player] = [alice, bob];
    const first = await kit.anotherApp();
    for (const as of players) expect((await kit.api('POST', `/api/matches/${id}/ready`, { as, app: first })).status).toBe(200);
    for (let i = 0; i < 3; i++) {
      const reply = await playLegal(id, players, { metrics: { lagMs: 20 }, app: first });
      expect(reply.status, reply.raw).toBe(200);
    }
    const stored = async () =>
      (
        await kit.test.database.db.query<{ seq: number; version: number }>(
          `SELECT (state ->> 'seq')::int AS seq, version FROM matches WHERE id = $1`,
          [id],
        )
      )[0]!;
    expect((await stored()).seq).toBe(0);
    const before = await kit.view(id, bob, first);
    await first.close();

    // The version is unchanged (nothing happened to the match); its state is now the snapshot.
    expect(await stored()).toEqual({ seq: 3, version: before.version });
    const after = await kit.view(id, bob, await kit.anotherApp());
    expect(stable(after)).toEqual(stable(before));
  });
});
