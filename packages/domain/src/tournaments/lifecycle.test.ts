import { describe, expect, it } from 'vitest';
import { LEDGER, TOURNAMENT } from '../messages.ts';
import {
  arenaEndsAt,
  canTournamentMove,
  cancelRefusal,
  entryRefusal,
  leaveEffect,
  startDecision,
  type EnterableTournament,
  type Entrant,
} from './lifecycle.ts';

const NOW = new Date('2030-01-01T12:00:00Z');
const open: EnterableTournament = {
  status: 'scheduled',
  currency: 'credits',
  startsAt: new Date('2030-01-01T13:00:00Z'),
  maxPlayers: 8,
  entrants: 3,
};
const player: Entrant = { role: 'user', accountType: 'real', entered: false };

describe('lifecycle', () => {
  it('moves scheduled → running → finished, and cancels only before finishing', () => {
    expect(canTournamentMove('scheduled', 'running')).toBe(true);
    expect(canTournamentMove('scheduled', 'cancelled')).toBe(true);
    expect(canTournamentMove('running', 'finished')).toBe(true);
    expect(canTournamentMove('scheduled', 'finished')).toBe(false);
    expect(canTournamentMove('finished', 'cancelled')).toBe(false);
    expect(canTournamentMove('cancelled', 'running')).toBe(false);
  });

  it('starts with the minimum field, else cancels', () => {
    expect(startDecision(4, 4)).toBe('start');
    expect(startDecision(3, 4)).toBe('cancel');
  });

  it('ends an arena its duration after the start', () => {
    expect(arenaEndsAt(open.startsAt, 30)).toEqual(new Date('2030-01-01T13:30:00Z'));
  });
});

describe('entryRefusal', () => {
  it('lets a player enter an open tournament of their currency', () => {
    expect(entryRefusal(open, player, NOW)).toBeNull();
    expect(entryRefusal({ ...open, currency: 'pcredits' }, { ...player, role: 'admin' }, NOW)).toBeNull();
    expect(entryRefusal({ ...open, currency: 'vtokens' }, { ...player, accountType: 'virtual' }, NOW)).toBeNull();
  });

  it('closes entries at the start and once it runs', () => {
    expect(entryRefusal(open, player, open.startsAt)).toMatchObject({ status: 409, code: 'entry_closed', message: TOURNAMENT.entryClosed });
    expect(entryRefusal({ ...open, status: 'running' }, player, NOW)).toMatchObject({ code: 'entry_closed' });
  });

  it('keeps virtual accounts out of real tournaments (SPEC’s text) and real ones out of VToken tournaments', () => {
    expect(entryRefusal(open, { ...player, accountType: 'virtual' }, NOW)).toEqual({
      status: 403,
      code: 'virtual_restricted',
      message: LEDGER.virtualRestricted.tournament,
    });
    expect(entryRefusal({ ...open, currency: 'vtokens' }, player, NOW)).toEqual({
      status: 403,
      code: 'virtual_only',
      message: TOURNAMENT.vtokensVirtualOnly,
    });
  });

  it('refuses the other real currency, a second entry and a full field', () => {
    expect(entryRefusal({ ...open, currency: 'pcredits' }, player, NOW)).toEqual({
      status: 422,
      code: 'currency_mismatch',
      message: TOURNAMENT.currencyMismatch('pcredits', 'credits'),
    });
    expect(entryRefusal(open, { ...player, entered: true }, NOW)).toMatchObject({ status: 409, code: 'already_entered' });
    expect(entryRefusal({ ...open, entrants: 8 }, player, NOW)).toMatchObject({ status: 409, code: 'full', message: TOURNAMENT.full });
  });
});

describe('leaveEffect', () => {
  it('refunds before the start, pauses in an arena, forfeits in a knockout', () => {
    expect(leaveEffect({ status: 'scheduled', format: 'knockout' }, true)).toEqual({ ok: true, effect: 'refund' });
    expect(leaveEffect({ status: 'running', format: 'arena' }, true)).toEqual({ ok: true, effect: 'pause' });
    expect(leaveEffect({ status: 'running', format: 'knockout' }, true)).toEqual({ ok: true, effect: 'forfeit' });
  });

  it('refuses a player not in it, and a tournament that is over', () => {
    expect(leaveEffect({ status: 'scheduled', format: 'arena' }, false)).toMatchObject({ ok: false, refusal: { code: 'not_entered' } });
    expect(leaveEffect({ status: 'finished', format: 'arena' }, true)).toMatchObject({
      ok: false,
      refusal: { message: TOURNAMENT.nothingToLeave },
    });
  });
});

describe('cancelRefusal', () => {
  const t = (status: 'scheduled' | 'running' | 'finished' | 'cancelled') => ({ status, creatorId: 'c' });
  const creator = { userId: 'c', role: 'user' as const };
  const admin = { userId: 'a', role: 'admin' as const };
  const other = { userId: 'o', role: 'promoter' as const };

  it('lets an admin cancel a scheduled or running tournament, its creator a scheduled one', () => {
    expect(cancelRefusal(t('scheduled'), admin)).toEqual({ ok: true, by: 'admin' });
    expect(cancelRefusal(t('running'), admin)).toEqual({ ok: true, by: 'admin' });
    expect(cancelRefusal(t('scheduled'), creator)).toEqual({ ok: true, by: 'creator' });
    // An admin who created it cancels as an admin.
    expect(cancelRefusal({ status: 'running', creatorId: 'a' }, admin)).toEqual({ ok: true, by: 'admin' });
  });

  it('refuses anyone else, the creator after the start, and a tournament that is over', () => {
    expect(cancelRefusal(t('scheduled'), other)).toEqual({
      ok: false,
      refusal: { status: 403, code: 'forbidden', message: TOURNAMENT.cancelNotYours },
    });
    expect(cancelRefusal(t('running'), creator)).toEqual({
      ok: false,
      refusal: { status: 409, code: 'already_started', message: TOURNAMENT.cancelStarted },
    });
    for (const status of ['finished', 'cancelled'] as const) {
      expect(cancelRefusal(t(status), admin)).toMatchObject({ ok: false, refusal: { status: 409, code: 'tournament_over' } });
      expect(cancelRefusal(t(status), other)).toMatchObject({ ok: false, refusal: { status: 403 } });
    }
  });
});
