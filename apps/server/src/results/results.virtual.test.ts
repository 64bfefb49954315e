// An external game staked in VTokens settles through finishMatch like any other, and like any
// VTokens match it is not a ranking: only the virtual record moves.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createResultsKit, type ResultsKit, type TestPlayer } from './results.test-kit.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit();
});
afterAll(async () => kit?.close());

const db = () => kit.t.database.db;

async function demoPlayer(): Promise<TestPlayer> {
  const player = await kit.signUp();
  const reply = await kit.t.app.inject({
    method: 'PATCH',
    url: '/api/auth/user',
    headers: player.headers,
    payload: { account_type: 'virtual' },
  });
  expect(reply.statusCode, reply.body).toBe(200);
  return player;
}

async function records(ids: string[]) {
  const profiles = await db().query(
    `SELECT id, wins, losses, streak, level, global_rating, virtual_games_played, virtual_wins, virtual_losses
       FROM profiles WHERE id = ANY ($1::uuid[]) ORDER BY id`,
    [ids],
  );
  const ratings = await db().query('SELECT user_id, game, rating, games FROM ratings WHERE user_id = ANY ($1::uuid[])', [ids]);
  return { profiles, ratings };
}

describe('a VTokens external match', () => {
  it('settled by agreeing reports moves the virtual record only: no real wins, losses, streak, level or rating', async () => {
    const [p1, p2] = [await demoPlayer(), await demoPlayer()];
    const created = await kit.api('POST', '/api/challenges', {
      as: p1,
      body: { game: 'fifa-24', platform: 'pc', gamertag: 'Creator', stake: 10, duration: 30, isPrivate: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const challenge = created.body.challenge as { id: string; code: string };
    const accepted = await kit.api('POST', `/api/challenges/${challenge.id}/accept`, {
      as: p2,
      body: { gamertag: 'Acceptor', code: challenge.code },
    });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const matchId = (accepted.body.match as { id: string }).id;
    await db().query('UPDATE matches SET scheduled_time = $2 WHERE id = $1', [matchId, new Date(Date.now() - 60_000)]);
    const [match] = await db().query<{ currency: string }>('SELECT currency FROM matches WHERE id = $1', [matchId]);
    expect(match!.currency).toBe('vtokens');
    const before = await records([p1.id, p2.id]);

    expect((await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, body: { outcome: 'win' } })).status).toBe(200);
    const second = await kit.api('POST', `/api/matches/${matchId}/report`, { as: p2, body: { outcome: 'loss' } });
    expect(second.body).toMatchObject({ status: 'settled' });
    expect(await kit.matchStatus(matchId)).toBe('completed');

    const after = await records([p1.id, p2.id]);
    expect(after.ratings).toEqual(before.ratings);
    const moved = (id: string, change: { virtual_games_played: number; virtual_wins: number; virtual_losses: number }) => {
      const row = before.profiles.find((p) => p.id === id)!;
      return { ...row, ...Object.fromEntries(Object.entries(change).map(([k, v]) => [k, (row[k] as number) + v])) };
    };
    expect(after.profiles).toEqual(
      before.profiles.map((p) =>
        moved(
          p.id as string,
          p.id === p1.id
            ? { virtual_games_played: 1, virtual_wins: 1, virtual_losses: 0 }
            : { virtual_games_played: 1, virtual_wins: 0, virtual_losses: 1 },
        ),
      ),
    );
    const [row] = await db().query<{ result: { ratings: unknown[] } }>('SELECT result FROM matches WHERE id = $1', [matchId]);
    expect(row!.result.ratings).toEqual([]);
    await kit.expectAuditClean();
  });
});
