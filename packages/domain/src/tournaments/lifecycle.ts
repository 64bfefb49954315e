// A tournament's lifecycle (a closed set of statuses and the moves between them) and the pure
// refusals of entering and leaving one. Balances are the ledger's business, checked after these.
import type { AccountType, Currency, Role } from '../constants.ts';
import { ARENA_RULES } from '../arena.ts';
import type { Refusal } from '../challenges.ts';
import { currencyFor, currencyLabel } from '../money.ts';
import { LEDGER, TOURNAMENT } from '../messages.ts';
import type { TournamentFormat } from './schemas.ts';

/** A cancel refunds everything, a sponsor's prize too; finishing pays the pool in one ledger transaction. */
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

/** An arena game waits little for a no-show, as the whole arena's clock runs. */
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

/** The first refusal in order; virtual accounts enter VToken tournaments only (SPEC §5), and only they do. */
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

/** A paused arena player may come back; a knockout forfeit keeps the place as it then stands. */
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

/** Who cancels: an admin while it is scheduled or running, its creator before the start. */
export type CancelledBy = 'admin' | 'creator';

export function cancelRefusal(
  tournament: { status: TournamentStatus; creatorId: string },
  user: { userId: string; role: Role },
): { ok: true; by: CancelledBy } | { ok: false; refusal: Refusal } {
  const admin = user.role === 'admin';
  const creator = user.userId === tournament.creatorId;
  if (!admin && !creator) return { ok: false, refusal: { status: 403, code: 'forbidden', message: TOURNAMENT.cancelNotYours } };
  if (tournament.status === 'finished' || tournament.status === 'cancelled')
    return { ok: false, refusal: { status: 409, code: 'tournament_over', message: TOURNAMENT.nothingToLeave } };
  if (admin) return { ok: true, by: 'admin' };
  if (tournament.status !== 'scheduled')
    return { ok: false, refusal: { status: 409, code: 'already_started', message: TOURNAMENT.cancelStarted } };
  return { ok: true, by: 'creator' };
}
