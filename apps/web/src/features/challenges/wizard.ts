// The create-challenge wizard as data (SPEC §4, §5): draft, step checks, prefill and request;
// `now` is passed in.
import { CHALLENGE, CHALLENGE_RULES, WIZARD } from '@versus/domain';
import {
  GAMES,
  GAME_LIST,
  effectivePlatform,
  gameDurationPresets,
  isGamertagRequired,
  isValidStake,
  isWebGame,
  type GameId,
  type Platform,
} from '@versus/domain/catalogue';
import { GAMERTAG_MAX, type CreateChallengeRequest } from '@versus/domain/challenges';

export const WIZARD_STEPS = WIZARD.steps;
export type StepIndex = 0 | 1 | 2 | 3;
export const LAST_STEP: StepIndex = 3;

export interface WizardDraft {
  game: GameId | null;
  /** External games only; web games are always played on `web`. */
  platform: Platform | null;
  /** Whole credits, 1–1000; null until chosen. */
  stake: number | null;
  /** Minutes, one of the game's presets. */
  duration: number | null;
  gamertag: string;
  /** ISO time of the chosen half-hour slot. */
  scheduledTime: string | null;
  message: string;
  isPrivate: boolean;
}

export const EMPTY_DRAFT: WizardDraft = {
  game: null,
  platform: null,
  stake: null,
  duration: null,
  gamertag: '',
  scheduledTime: null,
  message: '',
  isPrivate: false,
};

/** Choosing a game keeps what still fits it (a platform it is played on, a duration among its presets). */
export function chooseGame(draft: WizardDraft, game: GameId): WizardDraft {
  const entry = GAMES[game];
  const platform = entry.kind === 'web' ? null : draft.platform && entry.platforms.includes(draft.platform) ? draft.platform : null;
  const duration = draft.duration !== null && gameDurationPresets(game).includes(draft.duration) ? draft.duration : null;
  return { ...draft, game, platform, duration };
}

/** The platform the challenge is played on as the draft stands (web games: `web`). */
export const draftPlatform = (draft: WizardDraft): Platform | null => (draft.game ? effectivePlatform(draft.game, draft.platform) : null);

export const needsGamertag = (draft: WizardDraft): boolean => isGamertagRequired(draftPlatform(draft));

/** SPEC §5's message for what keeps the player on `step`; null when the step is complete. */
export function stepProblem(step: StepIndex, draft: WizardDraft, now: Date): string | null {
  if (step === 0) return draft.game ? null : CHALLENGE.chooseGame;
  if (step === 1) {
    if (!draft.game) return CHALLENGE.chooseGame;
    if (draft.stake === null || !isValidStake(draft.stake)) return CHALLENGE.invalidStake;
    if (draft.duration === null || !gameDurationPresets(draft.game).includes(draft.duration)) return CHALLENGE.chooseDuration;
    if (!isWebGame(draft.game) && !draft.platform) return CHALLENGE.platformRequired;
    if (needsGamertag(draft) && !draft.gamertag.trim()) return CHALLENGE.gamertagRequired;
    if (draft.gamertag.trim().length > GAMERTAG_MAX) return CHALLENGE.gamertagTooLong(GAMERTAG_MAX);
    return null;
  }
  if (step === 2) {
    if (!draft.scheduledTime) return CHALLENGE.chooseTime;
    if (!(new Date(draft.scheduledTime).getTime() > now.getTime())) return CHALLENGE.scheduleInPast;
    if (draft.message.length > CHALLENGE_RULES.messageMax) return CHALLENGE.messageTooLong(CHALLENGE_RULES.messageMax);
    return null;
  }
  for (const earlier of [0, 1, 2] as const) {
    const problem = stepProblem(earlier, draft, now);
    if (problem) return problem;
  }
  return null;
}

export const isStepValid = (step: StepIndex, draft: WizardDraft, now: Date): boolean => stepProblem(step, draft, now) === null;

/** The furthest step the player may jump to from the step indicator: every step before it is complete. */
export function furthestReachable(draft: WizardDraft, now: Date): StepIndex {
  let step: StepIndex = 0;
  while (step < LAST_STEP && isStepValid(step, draft, now)) step = (step + 1) as StepIndex;
  return step;
}

/** The custom stake field's text as a stake: whole numbers only; null when it is not one. */
export function parseStakeInput(text: string): number | null {
  const trimmed = text.trim();
  if (!/^\d{1,7}$/.test(trimmed)) return null;
  return Number(trimmed);
}

/** The request POST /api/challenges takes, from a complete draft. */
export function toCreateRequest(draft: WizardDraft): CreateChallengeRequest {
  if (!draft.game || draft.stake === null || draft.duration === null) throw new Error('The wizard is not complete');
  return {
    game: draft.game,
    platform: draftPlatform(draft),
    stake: draft.stake,
    duration: draft.duration,
    isPrivate: draft.isPrivate,
    maxParticipants: CHALLENGE_RULES.maxParticipantsDefault,
    gamertag: draft.gamertag.trim() || null,
    message: draft.message.trim() || null,
    scheduledTime: draft.scheduledTime,
  };
}

// ---------------------------------------------------------------------------------------
// Prefill: /marketplace/create?game=&amount= and the rematch's &opponent=

export interface Prefill {
  game: GameId | null;
  stake: number | null;
  platform: Platform | null;
  /** A rematch: the player the rematch is against. */
  opponentId: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A game from the address: its id ("fifa-24") or its name in any case or spacing ("FIFA 24", "tic_tac_toe"). */
export function gameFromParam(value: string | null): GameId | null {
  if (!value) return null;
  const key = value
    .trim()
    .toLowerCase()
    .replace(/[\s_]+/g, '-');
  const found = GAME_LIST.find((g) => g.id === key || g.name.toLowerCase().replace(/\s+/g, '-') === key);
  return found?.id ?? null;
}

/** An amount from the address: a whole stake of 1–1000 ("25" or "25.00"); anything else is ignored. */
export function stakeFromParam(value: string | null): number | null {
  if (!value || !/^\s*\d+(\.0+)?\s*$/.test(value)) return null;
  const stake = Number(value);
  return isValidStake(stake) ? stake : null;
}

export function parsePrefill(params: URLSearchParams): Prefill {
  const game = gameFromParam(params.get('game'));
  const platformParam = params.get('platform');
  const platform =
    game && platformParam && !isWebGame(game) ? (GAMES[game].platforms.find((p) => p === platformParam.toLowerCase()) ?? null) : null;
  const opponent = params.get('opponent');
  return {
    game,
    stake: stakeFromParam(params.get('amount')),
    platform,
    opponentId: opponent && UUID.test(opponent) ? opponent.toLowerCase() : null,
  };
}

/** The draft and first step a prefill opens: a known game skips to Set Stakes; a rematch defaults to private. */
export function draftFromPrefill(prefill: Prefill, options: { virtual: boolean }): { draft: WizardDraft; step: StepIndex } {
  let draft: WizardDraft = { ...EMPTY_DRAFT, stake: prefill.stake, isPrivate: options.virtual || prefill.opponentId !== null };
  if (prefill.game) draft = { ...chooseGame(draft, prefill.game), platform: prefill.platform };
  return { draft, step: prefill.game ? 1 : 0 };
}
