// Shared by the tournaments' integration tests: the arena's kit plus tournaments created, entered and played through the API,
// their clock moved to start and end, and games played to a chosen winner.
import { expect } from 'vitest';
import type { Currency } from '@versus/domain';
import type { ApiErrorBody } from '@versus/domain/errors';
import type { CreateTournamentRequest, TournamentActionResponse, TournamentDetail, TournamentResponse } from '@versus/domain/tournaments';
import type { MatchView } from '@versus/domain/arena';
import type { App } from '../context.ts';
import { createKit, type Kit, type Player } from '../arena/arena.test-kit.ts';
import { balances } from '../test/ledger-checks.ts';
import type { Tournaments } from './tournaments.service.ts';

export interface TournamentKit extends Kit {
  tournaments: Tournaments;
  /** Created through the API (the tournament's clock back to real time first). */
  create(as: Player, overrides?: Partial<CreateTournamentRequest>): Promise<TournamentDetail>;
  join(id: string, as: Player, app?: App): Promise<TournamentActionResponse>;
  tournament(id: string, as: Player, app?: App): Promise<TournamentDetail>;
  /** The tournament's clock (and every app's given) at `at`, and one run there. */
  runAt(id: string, at: Date | string | number, apps?: App[]): Promise<void>;
  /** Plays one game (tic-tac-toe, best of 1): both ready, `winner` takes the top row; then a run (the hand-off may have run it). */
  playGame(tournamentId: string, matchId: string, players: Player[], winnerId: string, app?: App): Promise<void>;
  /** The match's two players (any order) ready, then `cells` played in turn, whoever moves (tic-tac-toe); answers the last view. */
  playCells(matchId: string, players: Player[], cells: number[], app?: App): Promise<MatchView>;
  /** Minor units in `currency`. */
  money(userId: string, currency?: Currency): Promise<{ available: number; escrow: number }>;
  notifications(userId: string, type: string): Promise<{ metadata: Record<string, unknown>; message: string }[]>;
  /** Switches the player to Virtual Mode (their VTokens accounts opened). */
  goVirtual(player: Player): Promise<void>;
  /** Makes the player a promoter or an admin (pcredits: their accounts open on the next balance read). */
  promote(player: Player, role: 'promoter' | 'admin'): Promise<void>;
}

/** Starts 10 minutes from now (entries need 5), tic-tac-toe, a knockout of single games at 10 credits. */
export const defaults = (): CreateTournamentRequest => ({
  name: 'Friday Knockout',
  game: 'tic-tac-toe',
  format: 'knockout',
  currency: 'credits',
  entry: { kind: 'stake', stake: 10 },
  minPlayers: 4,
  maxPlayers: 16,
  startsAt: new Date(Date.now() + 10 * 60_000).toISOString(),
  matchMinutes: 5,
  matchFormat: 'best-of-1',
});

export async function createTournamentKit(): Promise<TournamentKit> {
  const kit = await createKit();
  const db = kit.test.database.db;
  const tournaments = kit.app.services.tournaments;
  const servicesOf = (app: App) => app.services.tournaments;
  const tk: TournamentKit = {
    ...kit,
    tournaments,
    async create(as, overrides = {}) {
      // Back to the real clock: a tournament starts some minutes from now.
      tournaments.now = Date.now;
      const reply = await kit.api<TournamentResponse & ApiErrorBody>('POST', '/api/tournaments', {
        as,
        body: { ...defaults(), ...overrides },
      });
      expect(reply.status, reply.raw).toBe(201);
      return reply.body.tournament;
    },
    async join(id, as, app) {
      const reply = await kit.api<TournamentActionResponse & ApiErrorBody>('POST', `/api/tournaments/${id}/join`, {
        as,
        ...(app ? { app } : {}),
      });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body;
    },
    async tournament(id, as, app) {
      const reply = await kit.api<TournamentResponse & ApiErrorBody>('GET', `/api/tournaments/${id}`, { as, ...(app ? { app } : {}) });
      expect(reply.status, reply.raw).toBe(200);
      return reply.body.tournament;
    },
    async runAt(id, at, apps = [kit.app]) {
      const ms = new Date(at).getTime();
      for (const app of apps) servicesOf(app).now = () => ms;
      await servicesOf(apps[0]!).run(id);
    },
    async playGame(tournamentId, matchId, players, winnerId, app = kit.app) {
      const as = (id: string) => players.find((p) => p.id === id)!;
      let view = (await kit.api('GET', `/api/matches/${matchId}`, { as: as(winnerId), app })).body.match;
      const seats = view.players.map((p) => as(p.id)) as [Player, Player];
      for (const p of seats) {
        const ready = await kit.api('POST', `/api/matches/${matchId}/ready`, { as: p, app });
        expect(ready.status, ready.raw).toBe(200);
        view = ready.body.match;
      }
      // The winner takes the top row; the other plays the middle row and the corner below it.
      while (view.status === 'in_progress') {
        const mover = seats[view.toMove[0]!];
        const cells = (view.game!.view as { cells: (string | null)[] }).cells;
        const cell = (mover.id === winnerId ? [0, 1, 2] : [3, 4, 6, 7]).find((c) => cells[c] === null)!;
        const moved = await kit.api('POST', `/api/matches/${matchId}/moves`, {
          as: mover,
          app,
          body: { move: cell, version: view.version },
        });
        expect(moved.status, moved.raw).toBe(200);
        view = moved.body.match;
      }
      expect(view.status).toBe('completed');
      expect(view.result?.winnerId).toBe(winnerId);
      await servicesOf(app).run(tournamentId);
    },
    async playCells(matchId, players, cells, app = kit.app) {
      const as = (id: string) => players.find((p) => p.id === id)!;
      let view = (await kit.api('GET', `/api/matches/${matchId}`, { as: players[0]!, app })).body.match;
      const seats = view.players.map((p) => as(p.id)) as [Player, Player];
      for (const p of seats) view = (await kit.api('POST', `/api/matches/${matchId}/ready`, { as: p, app })).body.match;
      for (const cell of cells) {
        const moved = await kit.api('POST', `/api/matches/${matchId}/moves`, {
          as: seats[view.toMove[0]!],
          app,
          body: { move: cell, version: view.version },
        });
        expect(moved.status, moved.raw).toBe(200);
        view = moved.body.match;
      }
      return view;
    },
    money: (userId, currency) => balances(db, userId, currency),
    async goVirtual(player) {
      const reply = await kit.api('PATCH', '/api/auth/user', { as: player, body: { account_type: 'virtual' } });
      expect(reply.status, reply.raw).toBe(200);
    },
    async promote(player, role) {
      await db.query('UPDATE profiles SET role = $2 WHERE id = $1', [player.id, role]);
      const balance = await kit.api('GET', '/api/wallet/balance', { as: player });
      expect(balance.status, balance.raw).toBe(200);
    },
    notifications(userId, type) {
      return db.query('SELECT metadata, message FROM notifications WHERE user_id = $1 AND type = $2 ORDER BY created_at', [userId, type]);
    },
  };
  return tk;
}

/** The better seed (lower number) of a game's two players: the scripted winner of a knockout. */
export function betterSeeded(t: TournamentDetail, players: [string, string]): string {
  const seed = (id: string) => t.entrants.find((e) => e.id === id)?.seed ?? Number.POSITIVE_INFINITY;
  return seed(players[0]) <= seed(players[1]) ? players[0] : players[1];
}
