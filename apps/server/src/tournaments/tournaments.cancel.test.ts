// Cancelling a tournament (an admin, or its creator before the start), Idempotency-Key on creating and entering, the
// "registered" notification, and the player count on the list's topic: through the API on real PostgreSQL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOURNAMENT } from '@versus/domain';
import type { TournamentActionResponse, TournamentResponse } from '@versus/domain/tournaments';
import type { ApiErrorBody } from '@versus/domain/errors';
import { expectAuditClean } from '../test/ledger-checks.ts';
import { ledgerSnapshot } from '../ledger/ledger.fixtures.ts';
import type { Player } from '../arena/arena.test-kit.ts';
import { createTournamentKit, defaults, type TournamentKit } from './tournaments.test-kit.ts';

let kit: TournamentKit;
beforeAll(async () => {
  kit = await createTournamentKit();
});
afterAll(() => kit.close());

const db = () => kit.test.database.db;
const post = (url: string, as?: Player, body?: unknown) => kit.api('POST', url, { ...(as ? { as } : {}), ...(body ? { body } : {}) });
/** A request as `p` with an Idempotency-Key: status, body and the replay header. */
async function keyed(method: 'POST', url: string, p: Player, key: string, body?: unknown) {
  const response = await kit.test.app.inject({
    method,
    url,
    headers: { ...p.headers, 'idempotency-key': key },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  return {
    status: response.statusCode,
    body: response.json<TournamentResponse & TournamentActionResponse & ApiErrorBody>(),
    replayed: response.headers['idempotent-replayed'] === 'true',
  };
}

async function field(n: number, label: string): Promise<Player[]> {
  const players: Player[] = [];
  for (let i = 0; i < n; i++) players.push(await kit.player(label));
  return players;
}

const matchStatus = async (id: string) =>
  (await db().query<{ status: string; winner_id: string | null }>('SELECT status, winner_id FROM matches WHERE id = $1', [id]))[0];

describe('cancelling', () => {
  it('lets an admin cancel a running knockout: the game being played void, every stake back in one release, everyone told', async () => {
    const [creator, ...players] = await field(5, 'cancel');
    const admin = await kit.player('canceladm');
    await kit.promote(admin, 'admin');
    const t = await kit.create(creator!);
    for (const p of players) await kit.join(t.id, p);
    await kit.runAt(t.id, t.startsAt);
    const [playing, waiting] = (await kit.tournament(t.id, creator!)).games;
    // One game under way (a move made), the other not started.
    const seats = playing!.players.map((id) => players.find((p) => p.id === id)!);
    expect((await kit.playCells(playing!.matchId, seats, [4])).status).toBe('in_progress');

    // Nobody else may: not another player, not the creator once it has started, nobody signed out.
    const before = await ledgerSnapshot(db());
    expect(await post(`/api/tournaments/${t.id}/cancel`, players[0])).toMatchObject({
      status: 403,
      body: { error: { code: 'forbidden', message: TOURNAMENT.cancelNotYours } },
    });
    expect(await post(`/api/tournaments/${t.id}/cancel`, creator)).toMatchObject({
      status: 409,
      body: { error: { code: 'already_started', message: TOURNAMENT.cancelStarted } },
    });
    expect((await post(`/api/tournaments/${t.id}/cancel`)).status).toBe(401);
    expect(await ledgerSnapshot(db())).toBe(before);
    expect((await kit.tournament(t.id, creator!)).status).toBe('running');

    const cancelled = await post(`/api/tournaments/${t.id}/cancel`, admin);
    expect(cancelled).toMatchObject({ status: 200, body: { message: TOURNAMENT.cancelled, tournament: { status: 'cancelled' } } });
    for (const g of [playing!, waiting!]) expect(await matchStatus(g.matchId)).toEqual({ status: 'cancelled', winner_id: null });
    for (const p of players) {
      expect(await kit.money(p.id)).toEqual({ available: 100_000, escrow: 0 });
      expect(await kit.notifications(p.id, 'tournament_cancelled')).toEqual([
        expect.objectContaining({ message: `${t.name} was cancelled. Your $10.00 was returned.` }),
      ]);
    }
    // One ledger operation returned every stake.
    const releases = await db().query(`SELECT 1 FROM ledger_operations WHERE idempotency_key = $1`, [`tournament:${t.id}:cancel`]);
    expect(releases).toHaveLength(1);
    // A move on the void game is refused; the job's run leaves the cancelled tournament alone.
    const moved = await kit.api('POST', `/api/matches/${playing!.matchId}/moves`, { as: seats[1]!, body: { move: 0, version: 99 } });
    expect(moved.status).toBe(409);
    await kit.tournaments.run(t.id);
    expect(await post(`/api/tournaments/${t.id}/cancel`, admin)).toMatchObject({
      status: 409,
      body: { error: { code: 'tournament_over' } },
    });
    await expectAuditClean(db(), ['matches', 'tournaments']);
  });

  it("lets the creator cancel a sponsored one before its start: the prize back to the sponsor, entrants told, another's refused", async () => {
    const [sponsor, a, b] = await field(3, 'spcancel');
    await kit.promote(sponsor!, 'promoter');
    const pcreditsBefore = await kit.money(sponsor!.id, 'pcredits');
    const t = await kit.create(sponsor!, { name: 'Sponsored Cup', currency: 'credits', entry: { kind: 'sponsored', prize: 50 } });
    expect(await kit.money(sponsor!.id, 'pcredits')).toEqual({
      available: pcreditsBefore.available - 5_000,
      escrow: pcreditsBefore.escrow + 5_000,
    });
    await kit.join(t.id, a!);
    expect(await post(`/api/tournaments/${t.id}/cancel`, b)).toMatchObject({ status: 403 });

    const cancelled = await post(`/api/tournaments/${t.id}/cancel`, sponsor);
    expect(cancelled).toMatchObject({ status: 200, body: { message: TOURNAMENT.cancelledSponsored } });
    expect(await kit.money(sponsor!.id, 'pcredits')).toEqual(pcreditsBefore);
    expect(await kit.notifications(sponsor!.id, 'tournament_cancelled')).toEqual([
      // Returned in the pcredits it was locked in.
      expect.objectContaining({
        message: 'Sponsored Cup was cancelled. Your $50.00 was returned.',
        metadata: expect.objectContaining({ amount: 50, currency: 'pcredits' }),
      }),
    ]);
    expect(await kit.notifications(a!.id, 'tournament_cancelled')).toEqual([
      expect.objectContaining({ message: 'Sponsored Cup was cancelled.' }),
    ]);
    const [row] = await db().query<{ cancel_reason: string }>('SELECT cancel_reason FROM tournaments WHERE id = $1', [t.id]);
    expect(row!.cancel_reason).toBe('creator');
    await expectAuditClean(db(), ['tournaments']);
  });
});

describe('Idempotency-Key', () => {
  it('creates once for a replayed creation; the same key with another request is refused', async () => {
    const [sponsor] = await field(1, 'idemcr');
    await kit.promote(sponsor!, 'promoter');
    kit.tournaments.now = Date.now;
    const body = { ...defaults(), name: 'Keyed Cup', entry: { kind: 'sponsored', prize: 20 } };
    const first = await keyed('POST', '/api/tournaments', sponsor!, 'c1', body);
    expect(first).toMatchObject({ status: 201, replayed: false });
    const escrow = (await kit.money(sponsor!.id, 'pcredits')).escrow;
    const again = await keyed('POST', '/api/tournaments', sponsor!, 'c1', body);
    expect(again).toMatchObject({ status: 201, replayed: true });
    expect(again.body.tournament.id).toBe(first.body.tournament.id);
    expect(await kit.money(sponsor!.id, 'pcredits')).toMatchObject({ escrow });
    const other = await keyed('POST', '/api/tournaments', sponsor!, 'c1', { ...body, name: 'Other Cup' });
    expect(other).toMatchObject({
      status: 409,
      body: { error: { code: 'idempotency_key_reused', message: TOURNAMENT.idempotencyReused } },
    });
    const mine = await db().query('SELECT id FROM tournaments WHERE creator_id = $1', [sponsor!.id]);
    expect(mine).toHaveLength(1);
    // Another creator's same key is theirs alone.
    const [someone] = await field(1, 'idemcr2');
    const theirs = await keyed('POST', '/api/tournaments', someone!, 'c1', { ...defaults(), name: 'Keyed Cup' });
    expect(theirs).toMatchObject({ status: 201, replayed: false });
    expect(theirs.body.tournament.id).not.toBe(first.body.tournament.id);
  });

  it('enters once for a retried join, tells the player once; a key used before a leave is refused', async () => {
    const [creator, player, other] = await field(3, 'idemjoin');
    const t = await kit.create(creator!);
    const url = `/api/tournaments/${t.id}/join`;
    const first = await keyed('POST', url, player!, 'j1');
    expect(first).toMatchObject({ status: 200, replayed: false, body: { message: TOURNAMENT.entered('$10.00') } });
    const retry = await keyed('POST', url, player!, 'j1');
    expect(retry).toMatchObject({
      status: 200,
      replayed: true,
      body: { message: TOURNAMENT.entered('$10.00'), tournament: { players: 1 } },
    });
    expect(await kit.money(player!.id)).toEqual({ available: 99_000, escrow: 1_000 });
    // Another key, or none, is a second join: refused as such.
    expect(await keyed('POST', url, player!, 'j2')).toMatchObject({ status: 409, body: { error: { code: 'already_entered' } } });
    // Another player's same key is theirs.
    expect(await keyed('POST', url, other!, 'j1')).toMatchObject({ status: 200, replayed: false });
    expect(await kit.notifications(player!.id, 'tournament_registered')).toEqual([
      expect.objectContaining({ message: `You are registered for ${t.name}. Your $10.00 stake is locked in escrow until it ends.` }),
    ]);

    expect((await post(`/api/tournaments/${t.id}/leave`, player)).status).toBe(200);
    const before = await ledgerSnapshot(db());
    expect(await keyed('POST', url, player!, 'j1')).toMatchObject({ status: 409, body: { error: { code: 'idempotency_key_reused' } } });
    expect(await ledgerSnapshot(db())).toBe(before);
    expect(await keyed('POST', url, player!, 'j3')).toMatchObject({ status: 200, replayed: false });
    expect(await keyed('POST', url, player!, 'j3')).toMatchObject({ status: 200, replayed: true });
    expect(await kit.money(player!.id)).toEqual({ available: 99_000, escrow: 1_000 });
    await expectAuditClean(db(), ['tournaments']);
  });
});

describe('the list topic', () => {
  it('carries the player count when someone enters or leaves before the start', async () => {
    const [creator, a, b] = await field(3, 'count');
    const t = await kit.create(creator!);
    await kit.join(t.id, a!);
    await kit.join(t.id, b!);
    await post(`/api/tournaments/${t.id}/leave`, a);
    const events = await db().query<{ payload: { tournamentId: string; players: number; changes: string[] } }>(
      `SELECT payload FROM realtime_events WHERE topic = 'tournaments' AND payload ->> 'tournamentId' = $1 ORDER BY version`,
      [t.id],
    );
    expect(events.map((e) => [e.payload.changes, e.payload.players])).toEqual([
      [['created'], 0],
      [['joined'], 1],
      [['joined'], 2],
      [['left'], 1],
    ]);
  });
});
