// The tournaments screens' logic without React: list filters from the address, what each row and
// the bracket show, and the create form's values turned into the request and checked as the server does.
import { TOURNAMENT_VIEW } from '@versus/domain';
import { describeTimeControl } from '@versus/domain/arena';
import { currencyFor, formatMoney, isPromoter } from '@versus/domain/money';
import { CURRENCIES, type AccountType, type Currency, type Role } from '@versus/domain';
import {
  TOURNAMENT_GAMES,
  TOURNAMENT_LIST_TABS,
  TOURNAMENT_RULES,
  checkNewTournament,
  createTournamentRequestSchema,
  type CreateTournamentRequest,
  type KnockoutBracket,
  type KnockoutMatchFormat,
  type TournamentDetail,
  type TournamentFormat,
  type TournamentGame,
  type TournamentSummary,
} from '@versus/domain/tournaments';

// ---- the list -----------------------------------------------------------------------------

export type ListTab = (typeof TOURNAMENT_LIST_TABS)[number];
export type EntryFilter = 'stake' | 'sponsored';

export interface ListFilters {
  tab: ListTab;
  game: TournamentGame | null;
  entry: EntryFilter | null;
}

const oneOf = <T extends string>(list: readonly T[], value: string | null): T | null =>
  value !== null && (list as readonly string[]).includes(value) ? (value as T) : null;

/** ?tab=live&game=chess&entry=sponsored; anything unknown is left out. */
export function listFiltersFrom(params: URLSearchParams): ListFilters {
  return {
    tab: oneOf(TOURNAMENT_LIST_TABS, params.get('tab')) ?? 'upcoming',
    game: oneOf(TOURNAMENT_GAMES, params.get('game')),
    entry: oneOf(['stake', 'sponsored'] as const, params.get('entry')),
  };
}

/** The address for `filters`: the defaults left out, so /tournaments stays short. */
export function listParams(filters: ListFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (filters.tab !== 'upcoming') params.set('tab', filters.tab);
  if (filters.game) params.set('game', filters.game);
  if (filters.entry) params.set('entry', filters.entry);
  return params;
}

/** The API's query for the list: status from the tab. */
export function listQuery(filters: ListFilters): string {
  const query = new URLSearchParams({ status: filters.tab });
  if (filters.game) query.set('game', filters.game);
  if (filters.entry) query.set('entry', filters.entry);
  return query.toString();
}

// ---- what a tournament shows ----------------------------------------------------------------

type Money = Pick<TournamentSummary, 'entry' | 'currency' | 'prizePool'>;

/** "$10.00" or "Free entry · Sponsored". */
export function entryLabel(t: Money): string {
  return t.entry.kind === 'sponsored'
    ? `${TOURNAMENT_VIEW.freeEntry} · ${TOURNAMENT_VIEW.sponsored}`
    : formatMoney(t.entry.stakeMinor, t.currency);
}

export const poolLabel = (t: Money): string => formatMoney(t.prizePool.amountMinor, t.currency);

/** "Knockout · Best of 3" or "Arena · 30 min". */
export function formatLabel(t: Pick<TournamentSummary, 'format' | 'matchFormat' | 'arenaMinutes'>): string {
  const name = TOURNAMENT_VIEW.formats[t.format];
  if (t.format === 'arena') return t.arenaMinutes === null ? name : `${name} · ${t.arenaMinutes} min`;
  return t.matchFormat ? `${name} · ${TOURNAMENT_VIEW.matchFormats[t.matchFormat]}` : name;
}

export const timeControlText = (t: Pick<TournamentSummary, 'timeControl'>): string => describeTimeControl(t.timeControl);

/** "3/16 players (4 needed)" before the start; "8 players" once it runs. */
export function fieldLabel(t: Pick<TournamentSummary, 'players' | 'minPlayers' | 'maxPlayers' | 'status'>): string {
  if (t.status !== 'scheduled') return `${t.players} player${t.players === 1 ? '' : 's'}`;
  const needed = t.players < t.minPlayers ? ` (${t.minPlayers} needed)` : '';
  return `${t.players}/${t.maxPlayers} players${needed}`;
}

/** "12:04" of a countdown; "0:00" once over. */
export function timeLeft(endsAt: string | null, now: number): string | null {
  if (!endsAt) return null;
  const total = Math.max(0, Math.ceil((new Date(endsAt).getTime() - now) / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** What the player may do now: enter, leave before the start, pause or come back in a running arena. */
export function availableActions(t: Pick<TournamentDetail, 'status' | 'format' | 'entered' | 'me'>): {
  join: boolean;
  leave: boolean;
  pause: boolean;
  resume: boolean;
} {
  const scheduled = t.status === 'scheduled';
  const runningArena = t.status === 'running' && t.format === 'arena';
  return {
    join: scheduled && !t.entered,
    leave: scheduled && t.entered,
    pause: runningArena && t.me !== null && !t.me.paused,
    resume: runningArena && t.me !== null && t.me.paused,
  };
}

// ---- the bracket ----------------------------------------------------------------------------

export interface BracketSlot {
  id: string | null;
  name: string | null;
  seed: number | null;
  won: boolean;
}

export interface BracketPair {
  key: string;
  slots: [BracketSlot, BracketSlot];
  bye: boolean;
  /** The game being played or waiting for this pair, for a watch link. */
  liveMatchId: string | null;
  decided: boolean;
}

export interface BracketRound {
  name: string;
  pairs: BracketPair[];
}

/** Each round named from the end (Final, Semifinals...), each pair with names, seeds, the winner and its live game. */
export function bracketRounds(bracket: KnockoutBracket, t: Pick<TournamentDetail, 'entrants' | 'games'>): BracketRound[] {
  const byId = new Map(t.entrants.map((e) => [e.id, e]));
  const seeds = new Map(bracket.entrants.map((e) => [e.id, e.seed]));
  const total = bracket.rounds.length;
  return bracket.rounds.map((round, r) => ({
    name: TOURNAMENT_VIEW.roundName(total - r),
    pairs: round.map((match) => {
      const slot = (id: string | null): BracketSlot => ({
        id,
        name: id ? (byId.get(id)?.displayName ?? byId.get(id)?.username ?? null) : null,
        seed: id ? (seeds.get(id) ?? null) : null,
        won: id !== null && match.winner === id,
      });
      const live = t.games.find(
        (g) => g.round === match.round && g.slot === match.index && (g.status === 'in_progress' || g.status === 'pending'),
      );
      return {
        key: `${match.round}-${match.index}`,
        slots: [slot(match.players[0]), slot(match.players[1])],
        bye: match.bye,
        liveMatchId: live && match.winner === null ? live.matchId : null,
        decided: match.winner !== null,
      };
    }),
  }));
}

// ---- the create form --------------------------------------------------------------------------

export interface CreateForm {
  name: string;
  game: TournamentGame;
  format: TournamentFormat;
  currency: Currency;
  entryKind: EntryFilter;
  /** Whole units, as typed. */
  amount: string;
  minPlayers: string;
  maxPlayers: string;
  /** A datetime-local value (the browser's time zone). */
  startsAt: string;
  matchMinutes: string;
  matchFormat: KnockoutMatchFormat;
  arenaMinutes: string;
}

export interface Creator {
  role: Role;
  accountType: AccountType;
}

/** The currencies a creator may pick, as the server's create check allows. */
export function currencyChoices(creator: Creator): Currency[] {
  if (creator.accountType === 'virtual') return ['vtokens'];
  if (isPromoter(creator.role)) return CURRENCIES.filter((c) => c !== 'vtokens');
  return [currencyFor(creator.role, creator.accountType)];
}

/** Only promoters and admins (real accounts) may sponsor a free-entry prize. */
export const canSponsor = (creator: Creator): boolean => creator.accountType !== 'virtual' && isPromoter(creator.role);

/** "2026-11-27T18:30" in local time, for a datetime-local input. */
export function localInputValue(at: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** A first start 15 minutes from now, rounded up to 5 minutes: entries need at least 5. */
export function defaultForm(creator: Creator, now: Date): CreateForm {
  const start = new Date(Math.ceil((now.getTime() + 15 * 60_000) / 300_000) * 300_000);
  return {
    name: '',
    game: 'tic-tac-toe',
    format: 'knockout',
    currency: currencyChoices(creator)[0]!,
    entryKind: 'stake',
    amount: '10',
    minPlayers: String(TOURNAMENT_RULES.minPlayers),
    maxPlayers: '16',
    startsAt: localInputValue(start),
    matchMinutes: '5',
    matchFormat: TOURNAMENT_RULES.defaultMatchFormat,
    arenaMinutes: '30',
  };
}

const numberOf = (text: string): number => (text.trim() === '' ? NaN : Number(text));

/** The request the form's values make (NaN for an empty number, which the checks refuse). */
export function requestFrom(form: CreateForm): CreateTournamentRequest {
  const amount = numberOf(form.amount);
  const startsAt = new Date(form.startsAt);
  const arena = form.format === 'arena';
  return {
    name: form.name,
    game: form.game,
    format: form.format,
    currency: form.currency,
    entry: form.entryKind === 'sponsored' ? { kind: 'sponsored', prize: amount } : { kind: 'stake', stake: amount },
    minPlayers: numberOf(form.minPlayers),
    maxPlayers: numberOf(form.maxPlayers),
    startsAt: Number.isNaN(startsAt.getTime()) ? '' : startsAt.toISOString(),
    matchMinutes: numberOf(form.matchMinutes),
    matchFormat: arena ? null : form.matchFormat,
    arenaMinutes: arena ? numberOf(form.arenaMinutes) : null,
  };
}

/** The form's field of a request field the server names. */
const FORM_FIELD: Record<string, keyof CreateForm> = {
  entry: 'amount',
  stake: 'amount',
  prize: 'amount',
};
export const formFieldOf = (field: string): keyof CreateForm => FORM_FIELD[field] ?? (field as keyof CreateForm);

/** The first problem with the form, as the server would word it, on its field; null when it may be sent. */
export function formProblem(form: CreateForm, creator: Creator, now: Date): { field: keyof CreateForm; message: string } | null {
  const parsed = createTournamentRequestSchema.safeParse(requestFrom(form));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.find((p) => typeof p === 'string' && p !== 'kind') ?? 'name';
    return { field: formFieldOf(String(field)), message: issue.message };
  }
  const check = checkNewTournament(parsed.data, creator, now);
  return check.ok ? null : { field: formFieldOf(check.field), message: check.message };
}
