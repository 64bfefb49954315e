// A tournament's lifecycle (a closed set of statuses and the moves between them) and the pure
// refusals of entering and leaving one. Balances are the ledger's business, checked after these.
import type { AccountType, Currency, Role } from '../constants.ts';
import { ARENA_RULES } from '../arena.ts';
import type { Refusal } from '../challenges.ts';
import { currencyFor, currencyLabel } from '../money.ts';
import { LEDGER, TOURNAMENT } from '../messages.ts';
import type { TournamentFormat } from './schemas.ts';

/**
 * scheduled (entries open) → running at the start time, or → cancelled when fewer than the
 * minimum entered (every stake back, a sponsor's prize too); running → finished when the
 * bracket has its winner or the arena's time is up (the pool paid in one ledger transaction),
 * or → cancelled if an admin calls it off (everything refunded).
 */
export const TOURNAMENT_STATUSES = ['scheduled', 'running', 'finished', 'cancelled'] as const;
export type TournamentStatus = (typeof TOURNAMENT_STATUSES)[number];

export const TOURNAMENT_TRANSITIONS: Readonly<Record<TournamentStatus, readonly TournamentStatus[]>> = {
  scheduled: ['running', 'cancelled'],
  running: ['finished', 'cancelled'],
  finished: [],
  cancelled: [],
};

export const canTournamentMove = (from: TournamentStatus, to: TournamentStatus): boolean => TOURNAMENT_TRANSITIONS[from].includes(to);

/** At the start time: play when the minimum field entered, else cancel and refund everyone. */
export const startDecision = (entrants: number, minPlayers: number): 'start' | 'cancel' => (entrants >= minPlayers ? 'start' : 'cancel');

/**
 * How long a paired player has to get ready before losing by no-show: a knockout match waits as
 * long as a challenge's; an arena game waits little, as the clock of the whole arena runs.
 */
export const TOURNAMENT_READY_MS: Readonly<Record<TournamentFormat, number>> = {
  knockout: ARENA_RULES.noShowMs,
  arena: 30_000,
};

/** When the arena stops pairing; games still running then are finished and counted. */
export const arenaEndsAt = (startsAt: Date, arenaMinutes: number): Date => new Date(startsAt.getTime() + arenaMinutes * 60_000);

export interface EnterableTournament {
  status: TournamentStatus;
  currency: Currency;
  startsAt: Date;
  maxPlayers: number;
  entrants: number;
}

export interface Entrant {
  role: Role;
  accountType: AccountType;
  /** Already holds a place in this tournament. */
  entered: boolean;
}

/**
 * In order: entries open (scheduled, before the start), not already in, the account's mode
 * (SPEC §5: no tournament entry for virtual accounts; VToken tournaments are theirs alone), the
 * currency, then room left.
 */
export function entryRefusal(tournament: EnterableTournament, player: Entrant, now: Date): Refusal | null {
  if (tournament.status !== 'scheduled' || now.getTime() >= tournament.startsAt.getTime()) {
    return { status: 409, code: 'entry_closed', message: TOURNAMENT.entryClosed };
  }
  if (player.entered) return { status: 409, code: 'already_entered', message: TOURNAMENT.alreadyEntered };
  const virtualTournament = tournament.currency === 'vtokens';
  if (player.accountType === 'virtual' && !virtualTournament) {
    return { status: 403, code: 'virtual_restricted', message: LEDGER.virtualRestricted.tournament };
  }
  if (player.accountType === 'real' && virtualTournament) {
    return { status: 403, code: 'virtual_only', message: TOURNAMENT.vtokensVirtualOnly };
  }
  const own = currencyFor(player.role, player.accountType);
  if (own !== tournament.currency) {
    return {
      status: 422,
      code: 'currency_mismatch',
      message: TOURNAMENT.currencyMismatch(currencyLabel(tournament.currency), currencyLabel(own)),
    };
  }
  if (tournament.entrants >= tournament.maxPlayers) return { status: 409, code: 'full', message: TOURNAMENT.full };
  return null;
}

/**
 * What leaving does: before the start the stake is released (`refund`); in a running arena the
 * player is paused, never paired, and may come back (`pause`); in a running knockout the match
 * being played or waited for is forfeited (`forfeit`), the place kept as it then stands.
 */
export type LeaveEffect = 'refund' | 'pause' | 'forfeit';

export function leaveEffect(
  tournament: { status: TournamentStatus; format: TournamentFormat },
  entered: boolean,
): { ok: true; effect: LeaveEffect } | { ok: false; refusal: Refusal } {
  if (!entered) return { ok: false, refusal: { status: 409, code: 'not_entered', message: TOURNAMENT.notEntered } };
  if (tournament.status === 'scheduled') return { ok: true, effect: 'refund' };
  if (tournament.status === 'running') return { ok: true, effect: tournament.format === 'arena' ? 'pause' : 'forfeit' };
  return { ok: false, refusal: { status: 409, code: 'tournament_over', message: TOURNAMENT.nothingToLeave } };
}
