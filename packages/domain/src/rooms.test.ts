import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CODE_ALPHABET } from './catalogue.ts';
import { ROOMS } from './messages.ts';
import { ROOM_BET_TIERS, ROOM_GAMES, checkNewRoom, isDrawableRoomCode, normalizeRoomCode, roomCodeInText } from './rooms.ts';

describe('checkNewRoom', () => {
  it('defaults to tic-tac-toe for 20 with no message', () => {
    expect(checkNewRoom({})).toEqual({ ok: true, room: { gameType: 'tic-tac-toe', betTier: 20, message: null } });
  });

  it('accepts every tier and web game, and refuses other amounts', () => {
    for (const betTier of ROOM_BET_TIERS) for (const gameType of ROOM_GAMES) expect(checkNewRoom({ betTier, gameType }).ok).toBe(true);
    for (const betTier of [0, 1, 15, 21, 25, 1000, -5, 20.5]) {
      expect(checkNewRoom({ betTier })).toEqual({ ok: false, field: 'betTier', message: ROOMS.invalidBet });
    }
  });

  it('is for web games only', () => {
    expect(ROOM_GAMES).toContain('chess');
    expect(ROOM_GAMES).not.toContain('fortnite');
    expect(checkNewRoom({ gameType: 'fortnite' })).toMatchObject({ ok: false, field: 'gameType', message: ROOMS.webGamesOnly });
    expect(checkNewRoom({ gameType: 'poker' })).toMatchObject({ ok: false, field: 'gameType' });
  });

  it('trims the message, empty becomes null, at most 200 characters', () => {
    expect(checkNewRoom({ message: '  hi  ' })).toMatchObject({ ok: true, room: { message: 'hi' } });
    expect(checkNewRoom({ message: '    ' })).toMatchObject({ ok: true, room: { message: null } });
    expect(checkNewRoom({ message: ` ${'x'.repeat(200)} ` })).toMatchObject({ ok: true });
    expect(checkNewRoom({ message: 'x'.repeat(201) })).toMatchObject({ ok: false, field: 'message' });
  });
});

describe('room codes', () => {
  it('must be exactly 6 characters, upper-cased', () => {
    expect(normalizeRoomCode(' abc234 ')).toEqual({ ok: true, code: 'ABC234' });
    for (const bad of ['', 'ABC23', 'ABC2345', null, undefined])
      expect(normalizeRoomCode(bad)).toEqual({ ok: false, message: ROOMS.codeLength });
  });

  it('uses an alphabet without look-alikes', () => {
    for (const c of '01OIL') expect(CODE_ALPHABET).not.toContain(c);
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...CODE_ALPHABET), { minLength: 6, maxLength: 6 }), (chars) =>
        isDrawableRoomCode(chars.join('')),
      ),
    );
    expect(isDrawableRoomCode('ABC10O')).toBe(false);
  });

  it('finds a code in shared text or links', () => {
    expect(roomCodeInText('Join me: https://versus.app/join-room/abc234')).toBe('ABC234');
    expect(roomCodeInText('web+versus://join/XYZ789')).toBe('XYZ789');
    expect(roomCodeInText('my code is K7M2PQ, hurry')).toBe('K7M2PQ');
    expect(roomCodeInText('nothing here at all')).toBeNull();
  });
});
