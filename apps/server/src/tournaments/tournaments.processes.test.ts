// Tournaments across server processes: a second process carries on exactly where a stopped one left off, and two processes
// running one tournament at once (the job, the hand-off of an ended game) pair every player once.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TournamentDetail } from '@versus/domain/tournaments';
import { buildApp } from '../app.ts';
import { expectAuditClean } from '../test/ledger-checks.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { betterSeeded, createTournamentKit, type TournamentKit } from './tournaments.test-kit.ts';

let kit: TournamentKit;
beforeAll(async () => {
  kit = await createTournamentKit();
});
afterAll(() => kit.close());

async function field(n: number, label: string): Promise<Player[]> {
  const players: Player[] = [];
  for (let i = 0; i < n; i++) players.push(await kit.player(label));
  return players;
}

/** Every player is in at most one game waiting or being played, and every such game is theirs in their entry. */
async function expectPairedOnce(id: string): Promise<string[][]> {
  const db = kit.test.database.db;
  const live = await db.query<{ match_id: string; player1_id: string; player2_id: string }>(
    `SELECT g.match_id, g.player1_id, g.player2_id FROM tournament_games g JOIN matches m ON m.id = g.match_id
      WHERE g.tournament_id = $1 AND m.status IN ('pending', 'in_progress')`,
    [id],
  );
  const seated = live.flatMap((g) => [g.player1_id, g.player2_id]);
  expect(new Set(seated).size).toBe(seated.length);
  const entries = await db.query<{ user_id: string; current_match_id: string | null }>(
    'SELECT user_id, current_match_id FROM tournament_entries WHERE tournament_id = $1',
    [id],
  );
  for (const e of entries) {
    const game = live.find((g) => g.player1_id === e.user_id || g.player2_id === e.user_id);
    expect(e.current_match_id).toBe(game?.match_id ?? null);
  }
  return live.map((g) => [g.player1_id, g.player2_id]);
}

describe('a restart in the middle', () => {
  it('is carried on by a second process from the database alone: the same tournament, the game half played', async () => {
    const first = await buildApp({ config: kit.test.config, db: kit.test.database.db, logger: false });
    await first.ready();
    const players = await field(4, 'restart');
    const created = await kit.create(players[0]!, { name: 'Restarted' });
    const id = created.id;
    for (const p of players) await kit.join(id, p, first);
    await kit.runAt(id, created.startsAt, [first]);
    const started = await kit.tournament(id, players[0]!, first);
    const [g1, g2] = started.games as [TournamentDetail['games'][number], TournamentDetail['games'][number]];
    await kit.playGame(id, g1.matchId, players, betterSeeded(started, g1.players), first);

    // The second game is under way on the first process when it stops: one move played.
    const seats = g2.players.map((pid) => players.find((p) => p.id === pid)!);
    for (const p of seats) expect((await kit.api('POST', `/api/matches/${g2.matchId}/ready`, { as: p, app: first })).status).toBe(200);
    const running = await kit.view(g2.matchId, seats[0]!, first);
    const winner = betterSeeded(started, g2.players);
    const mover = seats[running.toMove[0]!]!;
    const moved = await kit.api('POST', `/api/matches/${g2.matchId}/moves`, {
      as: mover,
      app: first,
      body: { move: mover.id === winner ? 0 : 3, version: running.version },
    });
    expect(moved.status, moved.raw).toBe(200);
    const before = await kit.tournament(id, players[0]!, first);
    await first.close();

    // The second process sees exactly what the first left, and plays on.
    kit.tournaments.now = () => new Date(created.startsAt).getTime();
    expect(await kit.tournament(id, players[0]!)).toEqual(before);
    await kit.playGame(id, g2.matchId, players, winner);
    const final = (await kit.tournament(id, players[0]!)).games.find((g) => g.round === 1)!;
    expect(new Set(final.players)).toEqual(new Set([betterSeeded(started, g1.players), winner]));
    await kit.playGame(id, final.matchId, players, betterSeeded(started, final.players));
    const done = await kit.tournament(id, players[0]!);
    expect(done.status).toBe('finished');
    expect(done.entrants.find((e) => e.place === 1)).toMatchObject({ seed: 1, prize: 40 });
    await expectAuditClean(kit.test.database.db, ['matches', 'tournaments']);
  });
});

describe('two processes at once', () => {
  it('start and pair an arena once: each player in one game, re-paired once when games end on both', async () => {
    const other = await kit.anotherApp();
    const players = await field(8, 'twice');
    const created = await kit.create(players[0]!, { name: 'Twice', format: 'arena', matchFormat: null, arenaMinutes: 20 });
    const id = created.id;
    for (const p of players) await kit.join(id, p);
    const at = new Date(created.startsAt).getTime();
    kit.tournaments.now = () => at;
    other.services.tournaments.now = () => at;
    const runs = await Promise.all([
      kit.tournaments.run(id),
      other.services.tournaments.run(id),
      kit.tournaments.runDue(),
      other.services.tournaments.runDue(),
    ]);
    expect(runs.slice(2)).toEqual(expect.arrayContaining([expect.objectContaining({ failed: 0 })]));
    const pairs = await expectPairedOnce(id);
    expect(pairs).toHaveLength(4);

    // Two games end at once, one on each process (each hands its result to every process's tournaments).
    const t = await kit.tournament(id, players[0]!);
    const [a, b] = t.games;
    const winnerOf = (g: NonNullable<typeof a>) => g.players[0];
    await Promise.all([kit.playGame(id, a!.matchId, players, winnerOf(a!)), kit.playGame(id, b!.matchId, players, winnerOf(b!), other)]);
    await Promise.all([kit.tournaments.run(id), other.services.tournaments.run(id)]);
    const after = await expectPairedOnce(id);
    // The four who finished meet new opponents: two new games besides the two still waiting.
    expect(after).toHaveLength(4);
    for (const [x, y] of after) {
      expect([a!.players, b!.players].some((old) => old.includes(x!) && old.includes(y!))).toBe(false);
    }
  });

  it('start a knockout once: one bracket, one game per first-round pairing', async () => {
    const other = await kit.anotherApp();
    const players = await field(8, 'once');
    const created = await kit.create(players[0]!, { name: 'Once' });
    for (const p of players) await kit.join(created.id, p);
    const at = new Date(created.startsAt).getTime();
    kit.tournaments.now = () => at;
    other.services.tournaments.now = () => at;
    await Promise.all([kit.tournaments.run(created.id), other.services.tournaments.run(created.id)]);
    expect(await expectPairedOnce(created.id)).toHaveLength(4);
    expect((await kit.tournament(created.id, players[0]!)).games).toHaveLength(4);
  });
});

describe("finishMatch's hand-off", () => {
  it('runs the tournament as soon as one of its games ends, with no run asked for', async () => {
    const players = await field(4, 'handoff');
    const created = await kit.create(players[0]!, { name: 'Hand-off' });
    for (const p of players) await kit.join(created.id, p);
    await kit.runAt(created.id, created.startsAt);
    const [game] = (await kit.tournament(created.id, players[0]!)).games;
    const seats = game!.players.map((pid) => players.find((p) => p.id === pid)!);
    // X takes the top row, O the middle: whoever starts wins, and nothing but the move ends the match.
    const ended = await kit.playCells(game!.matchId, seats, [0, 3, 1, 4, 2]);
    expect(ended.status).toBe('completed');
    const deadline = Date.now() + 5_000;
    let result: string | null = null;
    while (result === null && Date.now() < deadline) {
      result = (await kit.tournament(created.id, players[0]!)).games.find((g) => g.matchId === game!.matchId)!.result;
      if (result === null) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(result).toBe(ended.winnerId === game!.players[0] ? 'player1' : 'player2');
  });

  it('takes many endings heard during a run with one more run, not one each', async () => {
    const players = await field(4, 'coalesce');
    const created = await kit.create(players[0]!, { name: 'Coalesce' });
    for (const p of players) await kit.join(created.id, p);
    kit.tournaments.now = () => Date.parse(created.startsAt);
    const run = vi.spyOn(kit.tournaments, 'run');
    const runs = () => run.mock.calls.filter(([id]) => id === created.id).length;
    try {
      const asked = Array.from({ length: 6 }, () => kit.tournaments.runSoon(created.id));
      expect(await Promise.all(asked)).toEqual(Array(6).fill(true));
      expect(runs()).toBe(2);
      // Nothing in flight: the next asks for a run of its own.
      expect(await kit.tournaments.runSoon(created.id)).toBe(true);
      expect(runs()).toBe(3);
    } finally {
      run.mockRestore();
    }
    expect((await kit.tournament(created.id, players[0]!)).status).toBe('running');
    await expectPairedOnce(created.id);
  });

  it('does not hold the job up while a tournament has a run in flight: it asks for one more', async () => {
    const players = await field(4, 'busy');
    const created = await kit.create(players[0]!, { name: 'Busy' });
    for (const p of players) await kit.join(created.id, p);
    kit.tournaments.now = () => Date.parse(created.startsAt);
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const original = kit.tournaments.run.bind(kit.tournaments);
    const run = vi.spyOn(kit.tournaments, 'run').mockImplementation(async (id, now) => {
      if (id === created.id) await gate;
      return original(id, now);
    });
    const runs = () => run.mock.calls.filter(([id]) => id === created.id).length;
    try {
      const busy = kit.tournaments.runSoon(created.id);
      expect(await kit.tournaments.runDue()).toMatchObject({ failed: 0 });
      expect(runs()).toBe(1);
      release();
      expect(await busy).toBe(true);
      expect(runs()).toBe(2);
    } finally {
      release();
      run.mockRestore();
    }
    expect((await kit.tournament(created.id, players[0]!)).status).toBe('running');
    await expectPairedOnce(created.id);
  });
});
