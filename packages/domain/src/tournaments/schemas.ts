// Creating a tournament: the request and its checks, shared by the server and the create form;
// whole units in, minor units out (NewTournament).
import { z } from 'zod';
import { CURRENCIES, type AccountType, type Currency, type Role } from '../constants.ts';
import { GAMES, isValidStake } from '../catalogue.ts';
import { matchTimeControl } from '../arena.ts';
import { currencyFor, currencyLabel, isPromoter, toMinor } from '../money.ts';
import { TOURNAMENT } from '../messages.ts';
import type { GameId as WebGameId, TimeControl } from '../games/index.ts';

export const TOURNAMENT_FORMATS = ['knockout', 'arena'] as const;
export type TournamentFormat = (typeof TOURNAMENT_FORMATS)[number];

/** AI rock-paper-scissors is out: a practice game against the computer, not a head-to-head one. */
export const TOURNAMENT_GAMES = ['tic-tac-toe', 'rock-paper-scissors', 'chess', 'checkers', 'ludo'] as const satisfies readonly WebGameId[];
export type TournamentGame = (typeof TOURNAMENT_GAMES)[number];

/** What each knockout pairing plays; an arena pairing always plays one game. */
export const KNOCKOUT_MATCH_FORMATS = ['best-of-1', 'best-of-3'] as const;
export type KnockoutMatchFormat = (typeof KNOCKOUT_MATCH_FORMATS)[number];

export const TOURNAMENT_RULES = {
  minPlayers: 4,
  /** A knockout's largest field: a six-round bracket. */
  maxPlayers: 64,
  /** An arena's: games pair as they end, with no rounds to fill, so the field may be larger. */
  maxArenaPlayers: 256,
  nameMin: 3,
  nameMax: 80,
  arenaMinutes: { min: 20, max: 60 },
  /** Time for players to see the tournament and enter before it starts. */
  minLeadMinutes: 5,
  maxLeadDays: 7,
  /** Whole units; the largest prize a sponsor funds in one tournament. */
  maxSponsoredPrize: 100_000,
  defaultMatchFormat: 'best-of-3' as KnockoutMatchFormat,
} as const;

// ---------------------------------------------------------------------------------------
// The request

const entrySchema = z.discriminatedUnion(
  'kind',
  [
    /** Each player stakes this many whole units (1–1000, as a challenge) into the pool. */
    z.object({ kind: z.literal('stake'), stake: z.number({ error: TOURNAMENT.invalidStake }) }),
    /** Free entry: a promoter or an admin funds this many whole units at creation. */
    z.object({
      kind: z.literal('sponsored'),
      prize: z.number({ error: TOURNAMENT.invalidPrize(TOURNAMENT_RULES.maxSponsoredPrize) }),
    }),
  ],
  { error: TOURNAMENT.chooseEntry },
);

export const createTournamentRequestSchema = z.object({
  name: z.string({ error: TOURNAMENT.nameLength(TOURNAMENT_RULES.nameMin, TOURNAMENT_RULES.nameMax) }),
  game: z.enum(TOURNAMENT_GAMES, { error: TOURNAMENT.chooseGame }),
  format: z.enum(TOURNAMENT_FORMATS, { error: TOURNAMENT.chooseFormat }),
  currency: z.enum(CURRENCIES, { error: TOURNAMENT.chooseCurrency }),
  entry: entrySchema,
  minPlayers: z
    .number({ error: TOURNAMENT.playersInvalid(TOURNAMENT_RULES.minPlayers, TOURNAMENT_RULES.maxPlayers) })
    .default(TOURNAMENT_RULES.minPlayers),
  /** The format's largest field when left out. */
  maxPlayers: z.number({ error: TOURNAMENT.playersInvalid(TOURNAMENT_RULES.minPlayers, TOURNAMENT_RULES.maxArenaPlayers) }).optional(),
  startsAt: z.iso.datetime({ offset: true, error: TOURNAMENT.chooseStart }),
  /** The match length a challenge's creator picks (the game's duration presets): it sets the clock. */
  matchMinutes: z.number({ error: TOURNAMENT.chooseMatchLength }),
  /** Knockout only; best of 3 when left out. */
  matchFormat: z.enum(KNOCKOUT_MATCH_FORMATS, { error: TOURNAMENT.chooseMatchFormat }).nullish(),
  /** Arena only: how long the arena runs. */
  arenaMinutes: z
    .number({ error: TOURNAMENT.arenaDurationInvalid(TOURNAMENT_RULES.arenaMinutes.min, TOURNAMENT_RULES.arenaMinutes.max) })
    .nullish(),
});
export type CreateTournamentRequest = z.input<typeof createTournamentRequestSchema>;
export type CreateTournamentInput = z.output<typeof createTournamentRequestSchema>;

/** A checked tournament, as the server stores it: money in minor units. */
export interface NewTournament {
  name: string;
  game: TournamentGame;
  format: TournamentFormat;
  currency: Currency;
  /** Minor units each player locks in escrow to enter; 0 when sponsored. */
  entryStake: number;
  /** Minor units the sponsor funds at creation; 0 when players stake. */
  sponsoredPrize: number;
  minPlayers: number;
  maxPlayers: number;
  startsAt: Date;
  matchMinutes: number;
  /** Knockout: what each pairing plays; null for an arena (one game per pairing). */
  matchFormat: KnockoutMatchFormat | null;
  /** Arena: how long it runs; null for a knockout. */
  arenaMinutes: number | null;
  /** Each player's clock per game, shown before entering. */
  timeControl: TimeControl;
}

/** The largest field a format takes. */
export const maxPlayersFor = (format: TournamentFormat): number =>
  format === 'arena' ? TOURNAMENT_RULES.maxArenaPlayers : TOURNAMENT_RULES.maxPlayers;

export type TournamentCheck = { ok: true; tournament: NewTournament } | { ok: false; field: string; message: string };

export interface TournamentCreator {
  role: Role;
  accountType: AccountType;
}

const isWhole = (n: number, min: number, max: number): boolean => Number.isInteger(n) && n >= min && n <= max;

/** Promoters and admins organise, so only they may pick any currency or sponsor a free entry. */
function currencyRefusal(input: CreateTournamentInput, creator: TournamentCreator): { field: string; message: string } | null {
  if (input.entry.kind === 'sponsored' && (creator.accountType === 'virtual' || !isPromoter(creator.role))) {
    return { field: 'entry', message: TOURNAMENT.sponsorsOnly };
  }
  if (creator.accountType === 'virtual') {
    return input.currency === 'vtokens' ? null : { field: 'currency', message: TOURNAMENT.virtualVTokensOnly };
  }
  if (isPromoter(creator.role)) return null;
  const own = currencyFor(creator.role, creator.accountType);
  return input.currency === own ? null : { field: 'currency', message: TOURNAMENT.ownCurrencyOnly(currencyLabel(own)) };
}

/** The checks of a new tournament, in the form's order; the first failure is the message. */
export function checkNewTournament(input: CreateTournamentInput, creator: TournamentCreator, now: Date): TournamentCheck {
  const fail = (field: string, message: string): TournamentCheck => ({ ok: false, field, message });
  const R = TOURNAMENT_RULES;
  const name = input.name.trim();
  if (name.length < R.nameMin || name.length > R.nameMax) return fail('name', TOURNAMENT.nameLength(R.nameMin, R.nameMax));

  const refusal = currencyRefusal(input, creator);
  if (refusal) return fail(refusal.field, refusal.message);
  if (input.entry.kind === 'stake' && !isValidStake(input.entry.stake)) return fail('entry', TOURNAMENT.invalidStake);
  if (input.entry.kind === 'sponsored' && !isWhole(input.entry.prize, 1, R.maxSponsoredPrize)) {
    return fail('entry', TOURNAMENT.invalidPrize(R.maxSponsoredPrize));
  }

  const largest = maxPlayersFor(input.format);
  const maxPlayers = input.maxPlayers ?? largest;
  if (!isWhole(input.minPlayers, R.minPlayers, largest)) return fail('minPlayers', TOURNAMENT.playersInvalid(R.minPlayers, largest));
  if (!isWhole(maxPlayers, R.minPlayers, largest)) return fail('maxPlayers', TOURNAMENT.playersInvalid(R.minPlayers, largest));
  if (input.minPlayers > maxPlayers) return fail('minPlayers', TOURNAMENT.minAboveMax);

  const game = GAMES[input.game];
  if (!isWhole(input.matchMinutes, game.minTime, game.maxTime)) {
    return fail('matchMinutes', TOURNAMENT.matchLengthInvalid(game.minTime, game.maxTime));
  }
  const arena = input.format === 'arena';
  if (arena && input.matchFormat != null) return fail('matchFormat', TOURNAMENT.matchFormatKnockoutOnly);
  if (!arena && input.arenaMinutes != null) return fail('arenaMinutes', TOURNAMENT.arenaDurationArenaOnly);
  if (arena && !isWhole(input.arenaMinutes ?? NaN, R.arenaMinutes.min, R.arenaMinutes.max)) {
    return fail('arenaMinutes', TOURNAMENT.arenaDurationInvalid(R.arenaMinutes.min, R.arenaMinutes.max));
  }

  const startsAt = new Date(input.startsAt);
  if (!(startsAt.getTime() >= now.getTime() + R.minLeadMinutes * 60_000))
    return fail('startsAt', TOURNAMENT.startTooSoon(R.minLeadMinutes));
  if (startsAt.getTime() > now.getTime() + R.maxLeadDays * 24 * 60 * 60_000) return fail('startsAt', TOURNAMENT.startTooFar(R.maxLeadDays));

  return {
    ok: true,
    tournament: {
      name,
      game: input.game,
      format: input.format,
      currency: input.currency,
      entryStake: input.entry.kind === 'stake' ? toMinor(input.entry.stake) : 0,
      sponsoredPrize: input.entry.kind === 'sponsored' ? toMinor(input.entry.prize) : 0,
      minPlayers: input.minPlayers,
      maxPlayers,
      startsAt,
      matchMinutes: input.matchMinutes,
      matchFormat: arena ? null : (input.matchFormat ?? R.defaultMatchFormat),
      arenaMinutes: arena ? input.arenaMinutes! : null,
      timeControl: matchTimeControl(input.game, input.matchMinutes),
    },
  };
}
