import { describe, expect, it } from 'vitest';
import { monitorAction } from './monitor.ts';

const accepted = (gameType: string) => ({ matchId: 'm1', gameType, opponentName: 'Bob', challengeId: 'c1' });
const at = (pathname: string, search = '') => ({ pathname, search });

describe('match monitor', () => {
  it('takes the creator to the board when a browser game is accepted', () => {
    expect(monitorAction('challenge.accepted', accepted('chess'), at('/marketplace'))).toEqual({
      kind: 'go',
      matchId: 'm1',
      path: '/live-arena?match=m1',
      opponent: 'Bob',
    });
  });

  it('does nothing for an external game, other events, or a malformed payload', () => {
    expect(monitorAction('challenge.accepted', accepted('fifa-24'), at('/'))).toEqual({ kind: 'none' });
    expect(monitorAction('challenge.created', accepted('chess'), at('/'))).toEqual({ kind: 'none' });
    expect(monitorAction('challenge.accepted', null, at('/'))).toEqual({ kind: 'none' });
    expect(monitorAction('challenge.accepted', { gameType: 'chess' }, at('/'))).toEqual({ kind: 'none' });
  });

  it('stays put when the match is already open', () => {
    expect(monitorAction('challenge.accepted', accepted('chess'), at('/live-arena', '?match=m1'))).toEqual({ kind: 'none' });
  });

  it('only offers the way when another match is open or being watched', () => {
    expect(monitorAction('challenge.accepted', accepted('tic-tac-toe'), at('/live-arena', '?match=m2')).kind).toBe('offer');
    expect(monitorAction('room.joined', { matchId: 'm1', username: 'bob' }, at('/spectate/m9')).kind).toBe('offer');
  });

  it('leaves a room join on the arena page to the room panel, and follows it elsewhere', () => {
    const joined = { matchId: 'm1', username: 'bob', roomCode: 'ABC123' };
    expect(monitorAction('room.joined', joined, at('/live-arena'))).toEqual({ kind: 'none' });
    expect(monitorAction('room.joined', joined, at('/matches'))).toMatchObject({ kind: 'go', opponent: 'bob' });
  });
});
