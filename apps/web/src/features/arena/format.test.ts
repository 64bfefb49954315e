import { describe, expect, it } from 'vitest';
import { bottomSeat, groupMoves, isArenaGame, money, playerName, rematchPath, withNames } from './format.ts';
import { matchView } from './match.fixture.ts';

describe('arena formatting', () => {
  it('names a player by gamertag, display name, then username', () => {
    expect(playerName({ gamertag: 'Ace', displayName: 'Alice', username: 'alice' })).toBe('Ace');
    expect(playerName({ gamertag: null, displayName: 'Alice', username: 'alice' })).toBe('Alice');
    expect(playerName({ gamertag: ' ', displayName: '', username: 'alice' })).toBe('alice');
  });

  it('writes stakes as money', () => {
    expect(money(20, 'credits')).toBe('$20.00');
    expect(money(1000, 'vtokens')).toBe('1,000.00 VT');
  });

  it('links a rematch to the marketplace', () => {
    expect(rematchPath('chess', 'u 1')).toBe('/marketplace?game=chess&opponent=u%201');
  });

  it('puts the viewer at the bottom, and for spectators the side playing up the board', () => {
    expect(bottomSeat(matchView({ viewerSeat: 1 }))).toBe(1);
    const game = { index: 1, firstSeat: 1 as const, commitment: '', toMove: [], view: { white: 1 } };
    expect(bottomSeat(matchView({ viewerSeat: null, game }))).toBe(1);
    expect(bottomSeat(matchView({ viewerSeat: null, gameType: 'checkers', game: { ...game, view: { blackSeat: 1 } } }))).toBe(0);
    expect(bottomSeat(matchView({ viewerSeat: null, gameType: 'tic-tac-toe', game: null }))).toBe(0);
  });

  it('groups moves by game and numbers chess moves in pairs', () => {
    const base = matchView();
    const at = base.moves[0]!.at;
    const moves = ['e4', 'e5', 'Qh5', 'Nc6', 'Bc4'].map((notation, i) => ({
      seq: i + 1,
      gameIndex: 0,
      seat: (i % 2) as 0 | 1,
      notation,
      at,
      remainingMs: [0, 0] as [number, number],
    }));
    moves.push({ seq: 6, gameIndex: 1, seat: 1, notation: 'd4', at, remainingMs: [0, 0] });
    expect(groupMoves({ ...base, moves })).toEqual([
      { gameIndex: 0, lines: ['1. e4 e5', '2. Qh5 Nc6', '3. Bc4'] },
      { gameIndex: 1, lines: ['1. d4'] },
    ]);
    expect(groupMoves({ ...base, gameType: 'tic-tac-toe', moves: moves.slice(0, 2) })).toEqual([{ gameIndex: 0, lines: ['e4', 'e5'] }]);
  });

  it("puts the players' names in public notations", () => {
    expect(withNames('Player 2 rolled 6: no move', ['alice', 'bob'])).toBe('bob rolled 6: no move');
    expect(withNames('Player 1 threw', ['alice', 'bob'])).toBe('alice threw');
    expect(withNames('e4', ['alice', 'bob'])).toBe('e4');
    const base = matchView();
    const moves = [{ ...base.moves[0]!, notation: 'Player 1 threw' }];
    expect(groupMoves({ ...base, gameType: 'rock-paper-scissors', moves }, ['alice', 'bob'])).toEqual([
      { gameIndex: 0, lines: ['alice threw'] },
    ]);
  });

  it('knows the games played in the browser', () => {
    expect(isArenaGame('chess')).toBe(true);
    expect(isArenaGame('ludo')).toBe(true);
    expect(isArenaGame('fortnite')).toBe(false);
  });
});
