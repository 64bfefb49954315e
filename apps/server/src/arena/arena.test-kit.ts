// Shared by the arena's integration tests: a real app on a fresh database, players and accepted challenges made through the API,
// and ways to look at the match, the money and the events.
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { MatchView, MatchViewResponse, Replay } from '@versus/domain/arena';
import type { AcceptChallengeResponse, CreateChallengeRequest, CreateChallengeResponse } from '@versus/domain/challenges';
import type { App } from '../context.ts';
import type { Database } from '../db/database.ts';
import { buildApp } from '../app.ts';
import type { Config } from '../config.ts';
import { auditLedger } from '../ledger/ledger.audit.ts';
import { balances } from '../test/ledger-checks.ts';
import { createTestApp, type TestApp } from '../test/app.ts';
import type { TestDatabaseOptions } from '../test/database.ts';
import { signUp } from '../realtime/test-socket.ts';
import { tapEvents } from '../realtime/test-events.ts';
import type { Arena } from './arena.service.ts';
import { currentState } from './arena.record.ts';
import { findCore } from './arena.repository.ts';
import type { ArenaState } from './arena.state.ts';

export interface Player {
  id: string;
  token: string;
  headers: { authorization: string };
}

export interface Reply<T> {
  status: number;
  body: T;
  raw: string;
}

export interface Kit {
  test: TestApp;
  app: App;
  arena: Arena;
  player(label?: string): Promise<Player>;
  api<T = MatchViewResponse & ApiErrorBody>(
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    options?: { as?: Player; body?: unknown; app?: App },
  ): Promise<Reply<T>>;
  /** A challenge of `game` by `creator`, accepted by `acceptor`: the pending match's id (`duration` by default: KIT_LENGTHS). */
  match(
    game: CreateChallengeRequest['game'],
    creator: Player,
    acceptor: Player,
    options?: { stake?: number; isPrivate?: boolean; duration?: number },
  ): Promise<string>;
  /** Both players ready: the running match as `first` sees it. */
  start(id: string, first: Player, second: Player): Promise<MatchView>;
  view(id: string, as: Player, app?: App): Promise<MatchView>;
  /** Plays `move` as `as` on the match's current version; answers the raw reply. */
  move(id: string, as: Player, move: unknown, options?: { version?: number; app?: App }): Promise<Reply<MatchViewResponse & ApiErrorBody>>;
  /** The player whose turn it is in a match (one seat to move). */
  mover(view: MatchView, players: [Player, Player]): Player;
  replay(id: string, as: Player): Promise<Replay>;
  /** When a match's no-show time counts from (its scheduled time, or when it was made), in ms. */
  startsAt(id: string): Promise<number>;
  /** Minor units. */
  balance(userId: string): Promise<{ available: number; escrow: number }>;
  /** Everything a refused request must leave as it was. */
  snapshot(id: string): Promise<string>;
  /** Every event of `topic` (a match's as its NOTIFYs carried them: realtime/test-events.ts). */
  events(topic: string): Promise<{ type: string; payload: Record<string, unknown> }[]>;
  /** The match's state as stored: its snapshot with the moves stored after it replayed. */
  storedState(id: string): Promise<ArenaState | null>;
  /** Moves a running match `ms` back in time, its turn and the moves since its snapshot too (the record still replays). */
  turnBack(id: string, ms: number): Promise<void>;
  expectAuditClean(): Promise<void>;
  /** A second app on the same database (another server process, or the one after a restart). */
  anotherApp(): Promise<App>;
  close(): Promise<void>;
}

/** Match lengths whose clocks (matchTimeControl) are the game's standard ones (rock-paper-scissors: 1 min, the shortest). */
const KIT_LENGTHS: Partial<Record<CreateChallengeRequest['game'], number>> = {
  'tic-tac-toe': 5,
  'rock-paper-scissors': 5,
  'ai-rock-paper-scissors': 5,
  chess: 25,
  checkers: 25,
  ludo: 15,
};

/** The follower every match of a kit has: the kit's event tap (realtime/test-events.ts). */
const TAP_FOLLOWER = 'test-tap';

/** A kit for the calling test file: made (as createKit(...args)) before its tests, closed after them. */
export function kitPerFile(...args: Parameters<typeof createKit>): Kit {
  const kit = {} as Kit;
  let made: Kit | undefined;
  beforeAll(async () => {
    made = await createKit(...args);
    Object.assign(kit, made);
  });
  afterAll(async () => {
    await made?.close();
  });
  return kit;
}

/** `database`: how the kit's database is opened (test/database.ts), e.g. through a PgBouncer; `config`: settings over the test app's. */
export async function createKit(database: TestDatabaseOptions = {}, config: Partial<Config> = {}): Promise<Kit> {
  const test = await createTestApp(config, database);
  const db = test.database.db;
  const extraApps: App[] = [];
  const tap = await tapEvents(db);
  // The tap hears a match's events as another process would, so every match counts it among
  // its followers (on this test's own database): their events always travel whole.
  await db.query(`ALTER TABLE matches ALTER COLUMN followers SET DEFAULT '{${TAP_FOLLOWER}}'`);

  const kit: Kit = {
    test,
    app: test.app,
    arena: test.app.services.arena,
    async player(label = 'arena') {
      const { userId, token } = await signUp(test.app, label);
      return { id: userId, token, headers: { authorization: `Bearer ${token}` } };
    },
    async api(method, url, { as, body, app = test.app } = {}) {
      const response = await app.inject({
        method,
        url,
        headers: as?.headers ?? {},
        ...(body === undefined ? {} : { payload: body as object }),
      });
      return { status: response.statusCode, body: response.json(), raw: response.body };
    },
    async match(game, creator, acceptor, { stake = 25, isPrivate = false, duration = KIT_LENGTHS[game] ?? 30 } = {}) {
      const created = await kit.api<CreateChallengeResponse & ApiErrorBody>('POST', '/api/challenges', {
        as: creator,
        body: { game, stake, duration, isPrivate },
      });
      expect(created.status, created.raw).toBe(201);
      const challenge = created.body.challenge;
      const accepted = await kit.api<AcceptChallengeResponse & ApiErrorBody>('POST', `/api/challenges/${challenge.id}/accept`, {
        as: acceptor,
        body: isPrivate ? { code: challenge.code } : {},
      });
      expect(accepted.status, accepted.raw).toBe(200);
      return accepted.body.match!.id;
    },
    async start(id, first, second) {
      const a = await kit.api('POST', `/api/matches/${id}/ready`, { as: first });
      expect(a.status, a.raw).toBe(200);
      expect(a.body.match.status).toBe('pending');
      const b = await kit.api('POST', `/api/matches/${id}/ready`, { as: second });
      expect(b.status, b.raw).toBe(200);
      expect(b.body.match.status).toBe('in_progress');
      return kit.view(id, first);
    },
    async view(id, as, app) {
      const reply = await kit.api('GET', `/api/matches/${id}`, { as, ...(app ? { app } : {}) });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body.match;
    },
    async move(id, as, move, { version, app } = {}) {
      const v = version ?? (await kit.view(id, as, app)).version;
      return kit.api('POST', `/api/matches/${id}/moves`, { as, body: { move, version: v }, ...(app ? { app } : {}) });
    },
    mover(view, players) {
      expect(view.toMove).toHaveLength(1);
      return players[view.toMove[0]!];
    },
    async replay(id, as) {
      const reply = await kit.api<Replay & ApiErrorBody>('GET', `/api/matches/${id}/replay`, { as });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body;
    },
    async startsAt(id) {
      const [row] = await db.query<{ at: Date }>('SELECT coalesce(scheduled_time, created_at) AS at FROM matches WHERE id = $1', [id]);
      return new Date(row!.at).getTime();
    },
    balance: (userId) => balances(db, userId),
    async snapshot(id) {
      const parts = await Promise.all([
        db.query('SELECT status, version, state, winner_id, player1_ready_at, player2_ready_at, result FROM matches WHERE id = $1', [id]),
        db.query('SELECT seq, move FROM match_moves WHERE match_id = $1 ORDER BY seq', [id]),
        db.query('SELECT topic, version FROM realtime_topics ORDER BY topic'),
        db.query('SELECT id, balance FROM ledger_accounts ORDER BY id'),
        db.query('SELECT id, status FROM escrow_holds ORDER BY id'),
        db.query('SELECT id, wins, losses, streak, level FROM profiles ORDER BY id'),
        db.query('SELECT user_id, game, rating FROM ratings ORDER BY user_id, game'),
      ]);
      return JSON.stringify(parts);
    },
    events: (topic) => tap.events(topic),
    async storedState(id) {
      const row = await findCore(db, id);
      return row && currentState(row.state, row.later);
    },
    turnBack: (id, ms) => turnBackMatch(db, id, ms),
    async expectAuditClean() {
      const audit = await auditLedger(db);
      expect(audit.problems).toEqual([]);
      expect(audit.ok).toBe(true);
      expect(audit.ownersChecked.matches).toBe(true);
    },
    async anotherApp() {
      const app = await buildApp({ config: test.config, db, logger: false });
      await app.ready();
      extraApps.push(app);
      return app;
    },
    async close() {
      for (const app of extraApps) await app.close();
      await tap.stop();
      await test.close();
    },
  };
  return kit;
}

/** Kit.turnBack on any database holding the match (another process's too). */
export async function turnBackMatch(db: Database, id: string, ms: number): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query(
      `UPDATE match_moves SET created_at = created_at - make_interval(secs => $2::double precision / 1000)
        WHERE match_id = $1 AND seq > (SELECT coalesce((state ->> 'seq')::int, 0) FROM matches WHERE id = $1)`,
      [id, ms],
    );
    await tx.query(
      `UPDATE matches SET state = jsonb_set(state, '{clock,since}', to_jsonb((state -> 'clock' ->> 'since')::double precision - $2)),
              turn_since = turn_since - $2, deadline_at = deadline_at - make_interval(secs => $2::double precision / 1000)
        WHERE id = $1`,
      [id, ms],
    );
  });
}

/** Plays one tic-tac-toe game to a win by `winner` (top row against the middle row), whoever moves first; answers the last reply. */
export async function playTicTacToeGame(kit: Kit, id: string, players: [Player, Player], winner: Player) {
  let view = await kit.view(id, players[0]);
  const gameIndex = view.game!.index;
  const line = [0, 1, 2];
  const other = [3, 4, 6, 7];
  let last: Reply<MatchViewResponse & ApiErrorBody> | undefined;
  while (view.game && view.game.index === gameIndex && view.status === 'in_progress') {
    const mover = kit.mover(view, players);
    const cells = (view.game.view as { cells: (number | null)[] }).cells;
    const mine = mover.id === winner.id ? line : other;
    const cell = mine.find((c) => cells[c] === null)!;
    last = await kit.move(id, mover, cell, { version: view.version });
    expect(last.status, last.raw).toBe(200);
    view = last.body.match;
  }
  return last!;
}
