import { describe, expect, it } from 'vitest';
import { TOURNAMENT } from '../messages.ts';
import { matchTimeControl } from '../arena.ts';
import { checkNewTournament, createTournamentRequestSchema, type CreateTournamentRequest, type TournamentCreator } from './schemas.ts';

const NOW = new Date('2030-01-01T12:00:00Z');
const player: TournamentCreator = { role: 'user', accountType: 'real' };
const promoter: TournamentCreator = { role: 'promoter', accountType: 'real' };
const virtual: TournamentCreator = { role: 'user', accountType: 'virtual' };

const knockout: CreateTournamentRequest = {
  name: '  Friday Blitz  ',
  game: 'chess',
  format: 'knockout',
  currency: 'credits',
  entry: { kind: 'stake', stake: 25 },
  startsAt: '2030-01-01T13:00:00Z',
  matchMinutes: 10,
};
const arena: CreateTournamentRequest = { ...knockout, format: 'arena', arenaMinutes: 30 };

function check(request: CreateTournamentRequest, creator: TournamentCreator = player) {
  return checkNewTournament(createTournamentRequestSchema.parse(request), creator, NOW);
}

describe('createTournamentRequestSchema', () => {
  it('takes the browser games only, ludo included, the computer game not', () => {
    for (const game of ['tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo']) {
      expect(createTournamentRequestSchema.safeParse({ ...knockout, game }).success).toBe(true);
    }
    for (const game of ['ai-rock-paper-scissors', 'fortnite', 'poker', undefined]) {
      const parsed = createTournamentRequestSchema.safeParse({ ...knockout, game });
      expect(parsed.success).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(TOURNAMENT.chooseGame);
    }
  });

  it('answers each missing or malformed field with its message', () => {
    const messageFor = (request: unknown) => createTournamentRequestSchema.safeParse(request).error?.issues[0]?.message;
    expect(messageFor({ ...knockout, format: 'swiss' })).toBe(TOURNAMENT.chooseFormat);
    expect(messageFor({ ...knockout, entry: { kind: 'lottery' } })).toBe(TOURNAMENT.chooseEntry);
    expect(messageFor({ ...knockout, entry: { kind: 'stake', stake: '25' } })).toBe(TOURNAMENT.invalidStake);
    expect(messageFor({ ...knockout, startsAt: 'tomorrow' })).toBe(TOURNAMENT.chooseStart);
    expect(messageFor({ ...knockout, matchMinutes: undefined })).toBe(TOURNAMENT.chooseMatchLength);
    expect(messageFor({ ...knockout, currency: 'euros' })).toBe(TOURNAMENT.chooseCurrency);
  });
});

describe('checkNewTournament', () => {
  it('hands on a knockout in minor units, best of 3 by default, with its clock', () => {
    expect(check(knockout)).toEqual({
      ok: true,
      tournament: {
        name: 'Friday Blitz',
        game: 'chess',
        format: 'knockout',
        currency: 'credits',
        entryStake: 2500,
        sponsoredPrize: 0,
        minPlayers: 4,
        maxPlayers: 64,
        startsAt: new Date('2030-01-01T13:00:00Z'),
        matchMinutes: 10,
        matchFormat: 'best-of-3',
        arenaMinutes: null,
        timeControl: matchTimeControl('chess', 10),
      },
    });
    expect(check({ ...knockout, matchFormat: 'best-of-1' })).toMatchObject({ ok: true, tournament: { matchFormat: 'best-of-1' } });
  });

  it('hands on an arena with its duration and no match format', () => {
    expect(check(arena)).toMatchObject({ ok: true, tournament: { format: 'arena', arenaMinutes: 30, matchFormat: null } });
    expect(check({ ...arena, arenaMinutes: null })).toMatchObject({
      ok: false,
      field: 'arenaMinutes',
      message: TOURNAMENT.arenaDurationInvalid(20, 60),
    });
    for (const arenaMinutes of [19, 61, 30.5])
      expect(check({ ...arena, arenaMinutes })).toMatchObject({ ok: false, field: 'arenaMinutes' });
    expect(check({ ...arena, matchFormat: 'best-of-3' })).toMatchObject({
      ok: false,
      field: 'matchFormat',
      message: TOURNAMENT.matchFormatKnockoutOnly,
    });
    expect(check({ ...knockout, arenaMinutes: 30 })).toMatchObject({
      ok: false,
      field: 'arenaMinutes',
      message: TOURNAMENT.arenaDurationArenaOnly,
    });
  });

  it('lets promoters and admins sponsor, in any currency; nobody else', () => {
    const sponsored = { ...knockout, entry: { kind: 'sponsored', prize: 500 } } as const;
    expect(check(sponsored, promoter)).toMatchObject({ ok: true, tournament: { entryStake: 0, sponsoredPrize: 50_000 } });
    expect(check({ ...sponsored, currency: 'vtokens' }, { role: 'admin', accountType: 'real' })).toMatchObject({ ok: true });
    expect(check(sponsored, player)).toEqual({ ok: false, field: 'entry', message: TOURNAMENT.sponsorsOnly });
    expect(check({ ...sponsored, currency: 'vtokens' }, { role: 'promoter', accountType: 'virtual' })).toMatchObject({
      ok: false,
      field: 'entry',
    });
    for (const prize of [0, 100_001, 9.99])
      expect(check({ ...knockout, entry: { kind: 'sponsored', prize } }, promoter)).toMatchObject({ ok: false, field: 'entry' });
  });

  it('keeps players to their own currency: VTokens for virtual accounts', () => {
    expect(check({ ...knockout, currency: 'vtokens' }, virtual)).toMatchObject({ ok: true });
    expect(check(knockout, virtual)).toEqual({ ok: false, field: 'currency', message: TOURNAMENT.virtualVTokensOnly });
    expect(check({ ...knockout, currency: 'pcredits' }, player)).toEqual({
      ok: false,
      field: 'currency',
      message: TOURNAMENT.ownCurrencyOnly('credits'),
    });
    expect(check({ ...knockout, currency: 'vtokens' }, player)).toMatchObject({ ok: false, field: 'currency' });
    expect(check({ ...knockout, currency: 'vtokens' }, promoter)).toMatchObject({ ok: true });
  });

  it('takes a stake of 1 to 1000 whole units', () => {
    for (const stake of [1, 1000]) expect(check({ ...knockout, entry: { kind: 'stake', stake } })).toMatchObject({ ok: true });
    for (const stake of [0, 1001, 2.5, -5]) {
      expect(check({ ...knockout, entry: { kind: 'stake', stake } })).toEqual({
        ok: false,
        field: 'entry',
        message: TOURNAMENT.invalidStake,
      });
    }
  });

  it('takes up to 256 players in an arena, which has no bracket to fill', () => {
    expect(check({ ...arena, maxPlayers: 256 })).toMatchObject({ ok: true, tournament: { maxPlayers: 256 } });
    expect(check({ ...arena, maxPlayers: undefined })).toMatchObject({ ok: true, tournament: { maxPlayers: 256 } });
    expect(check({ ...arena, maxPlayers: 257 })).toEqual({ ok: false, field: 'maxPlayers', message: TOURNAMENT.playersInvalid(4, 256) });
    expect(check({ ...arena, minPlayers: 100, maxPlayers: 200 })).toMatchObject({ ok: true });
    expect(check({ ...knockout, minPlayers: 100, maxPlayers: 200 })).toEqual({
      ok: false,
      field: 'minPlayers',
      message: TOURNAMENT.playersInvalid(4, 64),
    });
  });

  it('takes 4 to 64 players in a knockout, the minimum not above the maximum', () => {
    expect(check({ ...knockout, minPlayers: 4, maxPlayers: 4 })).toMatchObject({ ok: true });
    expect(check({ ...knockout, minPlayers: 3 })).toEqual({ ok: false, field: 'minPlayers', message: TOURNAMENT.playersInvalid(4, 64) });
    expect(check({ ...knockout, maxPlayers: 65 })).toMatchObject({ ok: false, field: 'maxPlayers' });
    expect(check({ ...knockout, maxPlayers: 8.5 })).toMatchObject({ ok: false, field: 'maxPlayers' });
    expect(check({ ...knockout, maxPlayers: undefined })).toMatchObject({ ok: true, tournament: { maxPlayers: 64 } });
    expect(check({ ...knockout, minPlayers: 9, maxPlayers: 8 })).toEqual({
      ok: false,
      field: 'minPlayers',
      message: TOURNAMENT.minAboveMax,
    });
  });

  it('takes a match length in the game’s range', () => {
    expect(check({ ...knockout, matchMinutes: 9 })).toEqual({
      ok: false,
      field: 'matchMinutes',
      message: TOURNAMENT.matchLengthInvalid(10, 60),
    });
    expect(check({ ...knockout, game: 'tic-tac-toe', matchMinutes: 5 })).toMatchObject({ ok: true });
  });

  it('starts between 5 minutes and 7 days from now', () => {
    expect(check({ ...knockout, startsAt: '2030-01-01T12:05:00Z' })).toMatchObject({ ok: true });
    expect(check({ ...knockout, startsAt: '2030-01-01T12:04:59Z' })).toEqual({
      ok: false,
      field: 'startsAt',
      message: TOURNAMENT.startTooSoon(5),
    });
    expect(check({ ...knockout, startsAt: '2030-01-08T12:00:01Z' })).toEqual({
      ok: false,
      field: 'startsAt',
      message: TOURNAMENT.startTooFar(7),
    });
  });

  it('names the tournament with 3 to 80 characters', () => {
    expect(check({ ...knockout, name: '  ab ' })).toEqual({ ok: false, field: 'name', message: TOURNAMENT.nameLength(3, 80) });
    expect(check({ ...knockout, name: 'x'.repeat(81) })).toMatchObject({ ok: false, field: 'name' });
  });
});
