import { describe, expect, it } from 'vitest';
import { TOURNAMENT } from '@versus/domain';
import { currencyLabel } from '@versus/domain/money';
import { TOURNAMENT_RULES, type KnockoutBracket, type TournamentDetail } from '@versus/domain/tournaments';
import {
  availableActions,
  bracketRounds,
  currencyChoices,
  canSponsor,
  defaultForm,
  entryLabel,
  fieldLabel,
  formProblem,
  listFiltersFrom,
  listParams,
  listQuery,
  localInputValue,
  requestFrom,
  timeLeft,
} from './tournaments.logic.ts';

const NOW = new Date('2026-11-27T12:00:00Z');
const user = { role: 'user', accountType: 'real' } as const;
const promoter = { role: 'promoter', accountType: 'real' } as const;
const virtual = { role: 'user', accountType: 'virtual' } as const;

describe('list filters', () => {
  it('reads the address, dropping what it does not know', () => {
    expect(listFiltersFrom(new URLSearchParams('tab=live&game=chess&entry=sponsored'))).toEqual({
      tab: 'live',
      game: 'chess',
      entry: 'sponsored',
    });
    expect(listFiltersFrom(new URLSearchParams('tab=past&game=fifa&entry=free'))).toEqual({ tab: 'upcoming', game: null, entry: null });
  });

  it('writes the defaults out of the address and the tab into the API query', () => {
    expect(listParams({ tab: 'upcoming', game: null, entry: null }).toString()).toBe('');
    expect(listParams({ tab: 'finished', game: 'ludo', entry: 'stake' }).toString()).toBe('tab=finished&game=ludo&entry=stake');
    expect(listQuery({ tab: 'upcoming', game: null, entry: 'sponsored' })).toBe('status=upcoming&entry=sponsored');
  });
});

describe('what a tournament shows', () => {
  it('words the entry and the field', () => {
    expect(
      entryLabel({ entry: { kind: 'stake', stake: 10, stakeMinor: 1000 }, currency: 'credits', prizePool: { amount: 0, amountMinor: 0 } }),
    ).toBe('$10.00');
    expect(
      entryLabel({
        entry: { kind: 'sponsored', stake: 0, stakeMinor: 0 },
        currency: 'vtokens',
        prizePool: { amount: 50, amountMinor: 5000 },
      }),
    ).toBe('Free entry · Sponsored');
    expect(fieldLabel({ players: 3, minPlayers: 4, maxPlayers: 16, status: 'scheduled' })).toBe('3/16 players (4 needed)');
    expect(fieldLabel({ players: 8, minPlayers: 4, maxPlayers: 16, status: 'running' })).toBe('8 players');
  });

  it('counts an arena down to 0:00', () => {
    const now = NOW.getTime();
    expect(timeLeft(new Date(now + 61_500).toISOString(), now)).toBe('1:02');
    expect(timeLeft(new Date(now + 3_600_000).toISOString(), now)).toBe('1:00:00');
    expect(timeLeft(new Date(now - 5_000).toISOString(), now)).toBe('0:00');
    expect(timeLeft(null, now)).toBeNull();
  });

  it('offers join and leave before the start, pause and resume in a running arena only', () => {
    const me = { paused: false } as TournamentDetail['me'];
    expect(availableActions({ status: 'scheduled', format: 'knockout', entered: false, me: null })).toEqual({
      join: true,
      leave: false,
      pause: false,
      resume: false,
    });
    expect(availableActions({ status: 'scheduled', format: 'arena', entered: true, me })).toMatchObject({ join: false, leave: true });
    expect(availableActions({ status: 'running', format: 'arena', entered: true, me })).toMatchObject({ pause: true, resume: false });
    expect(availableActions({ status: 'running', format: 'arena', entered: true, me: { ...me!, paused: true } })).toMatchObject({
      pause: false,
      resume: true,
    });
    expect(availableActions({ status: 'running', format: 'knockout', entered: true, me })).toEqual({
      join: false,
      leave: false,
      pause: false,
      resume: false,
    });
  });
});

describe('bracketRounds', () => {
  const entrant = (id: string, displayName: string) => ({ id, displayName, username: id }) as TournamentDetail['entrants'][number];
  const bracket: KnockoutBracket = {
    size: 4,
    entrants: [
      { id: 'a', rating: 1600, seed: 1 },
      { id: 'b', rating: 1550, seed: 2 },
      { id: 'c', rating: 1500, seed: 3 },
    ],
    rounds: [
      [
        { round: 0, index: 0, players: ['a', null], winner: 'a', bye: true },
        { round: 0, index: 1, players: ['b', 'c'], winner: null, bye: false },
      ],
      [{ round: 1, index: 0, players: ['a', null], winner: null, bye: false }],
    ],
  };
  const games = [
    { matchId: 'm1', round: 0, slot: 1, decider: 0, players: ['b', 'c'], status: 'in_progress', winnerId: null, result: null },
  ] as TournamentDetail['games'];

  it('names the rounds from the end, marks the bye and the winner, and links the live game', () => {
    const rounds = bracketRounds(bracket, { entrants: [entrant('a', 'Ann'), entrant('b', 'Bob'), entrant('c', 'Cy')], games });
    expect(rounds.map((r) => r.name)).toEqual(['Semifinals', 'Final']);
    const [bye, live] = rounds[0]!.pairs;
    expect(bye).toMatchObject({ bye: true, decided: true, liveMatchId: null });
    expect(bye!.slots[0]).toEqual({ id: 'a', name: 'Ann', seed: 1, won: true });
    expect(bye!.slots[1]).toEqual({ id: null, name: null, seed: null, won: false });
    expect(live).toMatchObject({ bye: false, decided: false, liveMatchId: 'm1' });
    expect(live!.slots.map((s) => s.name)).toEqual(['Bob', 'Cy']);
    expect(rounds[1]!.pairs[0]!.liveMatchId).toBeNull();
  });
});

describe('the create form', () => {
  const start = (minutes: number) => localInputValue(new Date(NOW.getTime() + minutes * 60_000));

  it('offers each creator the currencies and entries the server allows', () => {
    expect(currencyChoices(user)).toEqual(['credits']);
    expect(currencyChoices(promoter)).toEqual(['credits', 'pcredits']);
    expect(currencyChoices(virtual)).toEqual(['vtokens']);
    expect([canSponsor(user), canSponsor(promoter), canSponsor({ role: 'admin', accountType: 'virtual' })]).toEqual([false, true, false]);
  });

  it('sends the defaults as they are', () => {
    const form = { ...defaultForm(user, NOW), name: 'Friday Cup' };
    expect(formProblem(form, user, NOW)).toBeNull();
    expect(formProblem(defaultForm(user, NOW), user, NOW)?.field).toBe('name');
    expect(requestFrom(form)).toMatchObject({
      format: 'knockout',
      entry: { kind: 'stake', stake: 10 },
      matchFormat: 'best-of-3',
      arenaMinutes: null,
    });
    expect(requestFrom({ ...form, format: 'arena' })).toMatchObject({ matchFormat: null, arenaMinutes: 30 });
  });

  it('words each problem as the server does, on its field', () => {
    const form = { ...defaultForm(user, NOW), name: 'Cup' };
    const R = TOURNAMENT_RULES;
    expect(formProblem({ ...form, name: ' x ' }, user, NOW)).toEqual({
      field: 'name',
      message: TOURNAMENT.nameLength(R.nameMin, R.nameMax),
    });
    expect(formProblem({ ...form, amount: '' }, user, NOW)).toEqual({ field: 'amount', message: TOURNAMENT.invalidStake });
    expect(formProblem({ ...form, amount: '5000' }, user, NOW)).toEqual({ field: 'amount', message: TOURNAMENT.invalidStake });
    expect(formProblem({ ...form, entryKind: 'sponsored' }, user, NOW)).toEqual({ field: 'amount', message: TOURNAMENT.sponsorsOnly });
    expect(formProblem({ ...form, currency: 'pcredits' }, user, NOW)).toEqual({
      field: 'currency',
      message: TOURNAMENT.ownCurrencyOnly(currencyLabel('credits')),
    });
    expect(formProblem({ ...form, minPlayers: '9', maxPlayers: '8' }, user, NOW)).toEqual({
      field: 'minPlayers',
      message: TOURNAMENT.minAboveMax,
    });
    expect(formProblem({ ...form, maxPlayers: '65' }, user, NOW)).toEqual({
      field: 'maxPlayers',
      message: TOURNAMENT.playersInvalid(R.minPlayers, R.maxPlayers),
    });
    expect(formProblem({ ...form, format: 'arena', arenaMinutes: '90' }, user, NOW)).toEqual({
      field: 'arenaMinutes',
      message: TOURNAMENT.arenaDurationInvalid(R.arenaMinutes.min, R.arenaMinutes.max),
    });
    expect(formProblem({ ...form, startsAt: start(2) }, user, NOW)).toEqual({
      field: 'startsAt',
      message: TOURNAMENT.startTooSoon(R.minLeadMinutes),
    });
    expect(formProblem({ ...form, startsAt: '' }, user, NOW)).toEqual({ field: 'startsAt', message: TOURNAMENT.chooseStart });
    expect(formProblem({ ...form, entryKind: 'sponsored', amount: '500' }, promoter, NOW)).toBeNull();
  });
});
