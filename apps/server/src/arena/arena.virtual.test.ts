// A VTokens match is not a ranking (decisions.md): its ending moves the profile's virtual record only, never the real
// record (wins, losses, streak, level) nor the game's Glicko-2 rating.
import { describe, expect, it } from 'vitest';
import type { MatchView } from '@versus/domain/arena';
import { kitPerFile, playTicTacToeGame, type Player } from './arena.test-kit.ts';

const kit = kitPerFile();

const db = () => kit.test.database.db;

/** Everything real a finished match could move for `ids`: the records, the ratings, the global rating. */
async function realRecords(ids: string[]) {
  const profiles = await db().query(
    'SELECT id, wins, losses, streak, level, global_rating FROM profiles WHERE id = ANY ($1::uuid[]) ORDER BY id',
    [ids],
  );
  const ratings = await db().query(
    `SELECT user_id, game, rating, rd, volatility, games, wins, losses, draws
       FROM ratings WHERE user_id = ANY ($1::uuid[]) ORDER BY user_id, game`,
    [ids],
  );
  return { profiles, ratings };
}

async function virtualRecord(id: string) {
  const [row] = await db().query<{ virtual_games_played: number; virtual_wins: number; virtual_losses: number }>(
    'SELECT virtual_games_played, virtual_wins, virtual_losses FROM profiles WHERE id = $1',
    [id],
  );
  return row;
}

async function switchTo(player: Player, accountType: 'real' | 'virtual') {
  const reply = await kit.app.inject({
    method: 'PATCH',
    url: '/api/auth/user',
    headers: player.headers,
    payload: { account_type: accountType },
  });
  expect(reply.statusCode, reply.body).toBe(200);
}

async function playToWin(id: string, players: [Player, Player], winner: Player): Promise<MatchView> {
  await kit.start(id, players[0], players[1]);
  await playTicTacToeGame(kit, id, players, winner);
  const view = (await playTicTacToeGame(kit, id, players, winner)).body.match;
  expect(view).toMatchObject({ status: 'completed', winnerId: winner.id });
  return view;
}

describe('a VTokens match', () => {
  it('played to a win moves only the virtual record: real wins, losses, streak, level and ratings stay as they were', async () => {
    const alice = await kit.player('vra');
    const bob = await kit.player('vrb');

    // A credits match first: the real record and the ratings move (and give the check something to keep).
    const real = await kit.match('tic-tac-toe', alice, bob, { stake: 25 });
    const realView = await playToWin(real, [alice, bob], alice);
    expect(realView.result!.currency).toBe('credits');
    expect(realView.result!.ratings).toHaveLength(2);
    const afterReal = await realRecords([alice.id, bob.id]);
    expect(afterReal.profiles.find((p) => p.id === alice.id)).toMatchObject({ wins: 1, losses: 0, streak: 1 });
    expect(afterReal.profiles.find((p) => p.id === bob.id)).toMatchObject({ wins: 0, losses: 1 });
    expect(afterReal.ratings.map((r) => [r.user_id, r.game, r.games])).toEqual(
      [alice.id, bob.id].sort().map((id) => [id, 'tic-tac-toe', 1]),
    );
    expect(await virtualRecord(alice.id)).toEqual({ virtual_games_played: 0, virtual_wins: 0, virtual_losses: 0 });

    // Demo mode: a private VTokens match, this time bob wins.
    await switchTo(alice, 'virtual');
    await switchTo(bob, 'virtual');
    const demo = await kit.match('tic-tac-toe', alice, bob, { stake: 10, isPrivate: true });
    const [row] = await db().query<{ currency: string }>('SELECT currency FROM matches WHERE id = $1', [demo]);
    expect(row!.currency).toBe('vtokens');
    const demoView = await playToWin(demo, [alice, bob], bob);

    expect(await realRecords([alice.id, bob.id])).toEqual(afterReal);
    expect(await virtualRecord(bob.id)).toEqual({ virtual_games_played: 1, virtual_wins: 1, virtual_losses: 0 });
    expect(await virtualRecord(alice.id)).toEqual({ virtual_games_played: 1, virtual_wins: 0, virtual_losses: 1 });
    // The overlay card reads them.
    const overlay = await kit.api<Record<string, unknown>>('GET', '/api/wallet/virtual', { as: bob });
    expect(overlay.body).toMatchObject({ virtual_games_played: 1, virtual_wins: 1, virtual_losses: 0 });
    // Not rated, so no rating change is announced either.
    expect(demoView.result).toMatchObject({ currency: 'vtokens', ratings: [] });
    const completed = (await kit.events(`user:${bob.id}`)).filter((e) => e.type === 'match.completed').at(-1);
    expect(completed?.payload).toMatchObject({ matchId: demo, result: 'win', currency: 'vtokens', rating: null });
  });
});
