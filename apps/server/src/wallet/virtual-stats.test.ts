import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH } from '@versus/domain';
import { virtualStatsSchema } from '@versus/domain/wallet';
import { accessTokenFor, createTestApp, type TestApp } from '../test/app.ts';
import { createPlayer, type TestPlayer } from '../ledger/ledger.fixtures.ts';

let t: TestApp;
let vic: TestPlayer;
let alice: TestPlayer;

beforeAll(async () => {
  t = await createTestApp();
  vic = await createPlayer(t.database.db, { accountType: 'virtual' });
  alice = await createPlayer(t.database.db);
});
afterAll(() => t.close());

const tokenFor = (player: Pick<TestPlayer, 'id' | 'role' | 'accountType'>) => accessTokenFor(t.app, player);

const get = async (url: string, player: Pick<TestPlayer, 'id' | 'role' | 'accountType'> | null) =>
  t.app.inject({ method: 'GET', url, headers: player ? { authorization: `Bearer ${await tokenFor(player)}` } : {} });

describe('GET /api/wallet/virtual', () => {
  it("answers the signed-in user's own virtual-mode figures", async () => {
    await t.database.db.query(
      `UPDATE profiles SET virtual_wins = 7, virtual_losses = 3, virtual_games_played = 11, total_virtual_credits_earned = 240,
              weekly_virtual_credits_remaining = 320, weekly_virtual_credits_last_reset = '2026-03-02T10:00:00Z'
        WHERE id = $1`,
      [vic.id],
    );
    const res = await get('/api/wallet/virtual', vic);
    expect(res.statusCode).toBe(200);
    expect(virtualStatsSchema.parse(res.json())).toEqual({
      is_virtual: true,
      weekly_allowance: 500,
      weekly_virtual_credits_remaining: 320,
      weekly_virtual_credits_last_reset: '2026-03-02T10:00:00.000Z',
      next_weekly_reset_at: '2026-03-09T10:00:00.000Z',
      total_virtual_credits_earned: 240,
      virtual_games_played: 11,
      virtual_wins: 7,
      virtual_losses: 3,
      virtual_theme: 'virtual-neon',
      virtual_overlay_enabled: true,
    });
  });

  it('never shows another player’s figures, whatever the query says', async () => {
    const res = await get(`/api/wallet/virtual?userId=${vic.id}&user_id=${vic.id}`, alice);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ is_virtual: false, virtual_wins: 0, virtual_losses: 0, virtual_games_played: 0 });
  });

  it('refuses visitors, and a token whose user is gone, with 401', async () => {
    const visitor = await get('/api/wallet/virtual', null);
    expect(visitor.statusCode).toBe(401);
    expect(visitor.json()).toEqual({ error: { code: 'unauthorized', message: AUTH.signInRequired } });
    const ghost = await get('/api/wallet/virtual', { id: crypto.randomUUID(), role: 'user', accountType: 'virtual' });
    expect(ghost.statusCode).toBe(401);
    expect(ghost.json()).toEqual({ error: { code: 'unauthorized', message: AUTH.signInRequired } });
  });
});
