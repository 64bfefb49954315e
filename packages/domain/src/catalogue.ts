// The game catalogue (SPEC §1, §3) and the pure helpers the wizard and the server share;
// `now` and random bytes are passed in.
import { CHALLENGE_RULES } from './constants.ts';
import { CHALLENGE } from './messages.ts';

export const PLATFORMS = ['pc', 'xbox', 'playstation', 'mobile', 'web'] as const;
export type Platform = (typeof PLATFORMS)[number];

export const PLATFORM_LABELS: Record<Platform, string> = {
  pc: 'PC',
  xbox: 'Xbox',
  playstation: 'PlayStation',
  mobile: 'Mobile',
  web: 'Web',
};

/** SPEC §5 names "real-life" though no platform is one yet, so a platform added later behaves as SPEC says. */
export const GAMERTAG_EXEMPT_PLATFORMS: readonly string[] = ['web', 'real-life'];

export const GAME_IDS = [
  'tic-tac-toe',
  'rock-paper-scissors',
  'chess',
  'checkers',
  'ludo',
  'ai-rock-paper-scissors',
  'fortnite',
  'fifa-24',
  'call-of-duty',
  'rocket-league',
  'valorant',
] as const;
export type GameId = (typeof GAME_IDS)[number];

export type GameCategory = 'Classic' | 'Strategy' | 'Board' | 'Battle Royale' | 'Sports' | 'Shooter';
export type Difficulty = 'Easy' | 'Medium' | 'Hard';

/** `web`: played in the browser, refereed by the server; `external`: played elsewhere, results reported. */
export type GameKind = 'web' | 'external';

export interface Game {
  id: GameId;
  name: string;
  kind: GameKind;
  category: GameCategory;
  /** Minutes a match usually takes, at least and at most. */
  minTime: number;
  maxTime: number;
  difficulty: Difficulty;
  /** Where it can be played; web games are played on `web` only. */
  platforms: readonly Platform[];
  /** Players in one match; ludo takes up to 4 (a private pool). */
  maxPlayers: number;
}

const web = ['web'] as const;

export const GAMES: Readonly<Record<GameId, Game>> = {
  'tic-tac-toe': {
    id: 'tic-tac-toe',
    name: 'Tic-Tac-Toe',
    kind: 'web',
    category: 'Classic',
    minTime: 5,
    maxTime: 15,
    difficulty: 'Easy',
    platforms: web,
    maxPlayers: 2,
  },
  'rock-paper-scissors': {
    id: 'rock-paper-scissors',
    name: 'Rock Paper Scissors',
    kind: 'web',
    category: 'Classic',
    minTime: 5,
    maxTime: 10,
    difficulty: 'Easy',
    platforms: web,
    maxPlayers: 2,
  },
  chess: {
    id: 'chess',
    name: 'Chess',
    kind: 'web',
    category: 'Strategy',
    minTime: 10,
    maxTime: 60,
    difficulty: 'Hard',
    platforms: web,
    maxPlayers: 2,
  },
  checkers: {
    id: 'checkers',
    name: 'Checkers',
    kind: 'web',
    category: 'Strategy',
    minTime: 10,
    maxTime: 45,
    difficulty: 'Medium',
    platforms: web,
    maxPlayers: 2,
  },
  ludo: {
    id: 'ludo',
    name: 'Ludo',
    kind: 'web',
    category: 'Board',
    minTime: 15,
    maxTime: 60,
    difficulty: 'Easy',
    platforms: web,
    maxPlayers: 4,
  },
  'ai-rock-paper-scissors': {
    id: 'ai-rock-paper-scissors',
    name: 'AI Rock Paper Scissors',
    kind: 'web',
    category: 'Classic',
    minTime: 5,
    maxTime: 10,
    difficulty: 'Easy',
    platforms: web,
    maxPlayers: 2,
  },
  fortnite: {
    id: 'fortnite',
    name: 'Fortnite',
    kind: 'external',
    category: 'Battle Royale',
    minTime: 20,
    maxTime: 60,
    difficulty: 'Medium',
    platforms: ['pc', 'xbox', 'playstation', 'mobile'],
    maxPlayers: 2,
  },
  'fifa-24': {
    id: 'fifa-24',
    name: 'FIFA 24',
    kind: 'external',
    category: 'Sports',
    minTime: 15,
    maxTime: 30,
    difficulty: 'Medium',
    platforms: ['pc', 'xbox', 'playstation'],
    maxPlayers: 2,
  },
  'call-of-duty': {
    id: 'call-of-duty',
    name: 'Call of Duty',
    kind: 'external',
    category: 'Shooter',
    minTime: 15,
    maxTime: 45,
    difficulty: 'Hard',
    platforms: ['pc', 'xbox', 'playstation', 'mobile'],
    maxPlayers: 2,
  },
  'rocket-league': {
    id: 'rocket-league',
    name: 'Rocket League',
    kind: 'external',
    category: 'Sports',
    minTime: 5,
    maxTime: 20,
    difficulty: 'Medium',
    platforms: ['pc', 'xbox', 'playstation'],
    maxPlayers: 2,
  },
  valorant: {
    id: 'valorant',
    name: 'Valorant',
    kind: 'external',
    category: 'Shooter',
    minTime: 30,
    maxTime: 60,
    difficulty: 'Hard',
    platforms: ['pc'],
    maxPlayers: 2,
  },
};

export const GAME_LIST: readonly Game[] = GAME_IDS.map((id) => GAMES[id]);

export function isGameId(value: string): value is GameId {
  return (GAME_IDS as readonly string[]).includes(value);
}

export function isPlatform(value: string): value is Platform {
  return (PLATFORMS as readonly string[]).includes(value);
}

export const isWebGame = (game: GameId): boolean => GAMES[game].kind === 'web';

/** SPEC §5: the gamertag is required unless the platform is web or real-life. */
export function isGamertagRequired(platform: string | null | undefined): boolean {
  return !!platform && !GAMERTAG_EXEMPT_PLATFORMS.includes(platform);
}

/** The platform a challenge is played on: web games always on `web`; others need a choice. */
export function effectivePlatform(game: GameId, chosen: Platform | null | undefined): Platform | null {
  if (isWebGame(game)) return 'web';
  return chosen ?? null;
}

// ---------------------------------------------------------------------------------------
// Duration presets (SPEC §9): derived from the game's minTime and maxTime, up to 6 options.

export const MAX_DURATION_PRESETS = 6;

/** Steps are rounded to multiples of 5 when both ends are, because round minutes read better. */
export function durationPresets(minTime: number, maxTime: number): number[] {
  const lo = Math.max(1, Math.round(Math.min(minTime, maxTime)));
  const hi = Math.max(lo, Math.round(Math.max(minTime, maxTime)));
  if (lo === hi) return [lo];
  const unit = lo % 5 === 0 && hi % 5 === 0 ? 5 : 1;
  const values = new Set<number>();
  for (let i = 0; i < MAX_DURATION_PRESETS; i++) {
    const raw = lo + ((hi - lo) * i) / (MAX_DURATION_PRESETS - 1);
    values.add(Math.min(hi, Math.max(lo, Math.round(raw / unit) * unit)));
  }
  return [...values].sort((a, b) => a - b);
}

export const gameDurationPresets = (game: GameId): number[] => durationPresets(GAMES[game].minTime, GAMES[game].maxTime);

// ---------------------------------------------------------------------------------------
// Schedule (SPEC §9): 24 half-hour slots starting 30 minutes ahead; the first 6 are shown.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** Slots fall on :00 and :30 so they read as clock times people use (7:30 PM, not 7:43 PM). */
export function scheduleSlots(now: Date, count: number = CHALLENGE_RULES.scheduleSlots): Date[] {
  const step = CHALLENGE_RULES.scheduleSlotMinutes * MINUTE;
  const earliest = now.getTime() + CHALLENGE_RULES.defaultPublicStartMinutes * MINUTE;
  const first = Math.ceil(earliest / step) * step;
  return Array.from({ length: count }, (_, i) => new Date(first + i * step));
}

/** The slots the wizard shows (the first 6 of the 24). */
export const shownScheduleSlots = (now: Date): Date[] => scheduleSlots(now).slice(0, CHALLENGE_RULES.scheduleSlotsShown);

/** The latest time a challenge may be scheduled for: the end of the 24th slot. */
export function latestScheduleTime(now: Date): Date {
  const slots = scheduleSlots(now);
  return slots[slots.length - 1]!;
}

/** SPEC §9: a public challenge with no chosen time starts 30 minutes after creation. */
export function defaultPublicScheduledTime(createdAt: Date): Date {
  return new Date(createdAt.getTime() + CHALLENGE_RULES.defaultPublicStartMinutes * MINUTE);
}

// ---------------------------------------------------------------------------------------
// Stakes (SPEC §9): 1–1000 whole credits; quick picks with Casual / Pro / Elite labels.

export type StakeTier = 'Casual' | 'Pro' | 'Elite';

export function stakeTier(stake: number): StakeTier {
  if (stake <= 25) return 'Casual';
  if (stake <= 50) return 'Pro';
  return 'Elite';
}

export const QUICK_PICKS: readonly { stake: number; tier: StakeTier }[] = CHALLENGE_RULES.quickPicks.map((stake) => ({
  stake,
  tier: stakeTier(stake),
}));

export function isValidStake(stake: number): boolean {
  return Number.isInteger(stake) && stake >= CHALLENGE_RULES.minStake && stake <= CHALLENGE_RULES.maxStake;
}

/** The payout shown on a challenge: twice the stake, no platform fee ("FREE"). */
export const payoutFor = (stake: number): number => stake * 2;

// ---------------------------------------------------------------------------------------
// Expiry (SPEC §9).

/** SPEC §9 reads the duration in minutes as hours of expiry ("oddly defined and should be kept as stated"). */
export function expiryFor(createdAt: Date, durationMinutes: number, noExpiry: boolean): Date | null {
  if (noExpiry) return null;
  return new Date(createdAt.getTime() + durationMinutes * HOUR);
}

// ---------------------------------------------------------------------------------------
// Time formatting (SPEC §9).

/** "Expired" once past; "Xd Yh" when more than 24 h remain; otherwise "Xh Ym". Null: no expiry. */
export function formatTimeLeft(expiresAt: Date | string | null, now: Date): string | null {
  if (expiresAt === null) return null;
  const ms = new Date(expiresAt).getTime() - now.getTime();
  if (!(ms > 0)) return 'Expired';
  if (ms > DAY) {
    const days = Math.floor(ms / DAY);
    const hours = Math.floor((ms % DAY) / HOUR);
    return `${days}d ${hours}h`;
  }
  const hours = Math.floor(ms / HOUR);
  const minutes = Math.floor((ms % HOUR) / MINUTE);
  return `${hours}h ${minutes}m`;
}

/** How long from `now` formatTimeLeft's text surely stays the same (≥ 1 ms; Infinity if it never changes). */
export function timeLeftStableMs(expiresAt: Date | string | null, now: Date): number {
  if (expiresAt === null) return Number.POSITIVE_INFINITY;
  const ms = new Date(expiresAt).getTime() - now.getTime();
  if (!(ms > 0)) return Number.POSITIVE_INFINITY;
  // Above a day the text changes on each whole hour of ms left, else on each whole minute;
  // the step to "24h 0m" and to "Expired" fall on those boundaries too.
  const unit = ms > DAY ? HOUR : MINUTE;
  const toBoundary = ms % unit;
  // Exactly on a boundary, count one millisecond: the text changes right after it.
  return toBoundary === 0 ? 1 : toBoundary;
}

/** "Just now" under a minute (or in the future), then Xm, Xh, Xd. */
export function formatRelativeTime(at: Date | string, now: Date): string {
  const ms = now.getTime() - new Date(at).getTime();
  if (!(ms >= MINUTE)) return 'Just now';
  if (ms < HOUR) return `${Math.floor(ms / MINUTE)}m`;
  if (ms < DAY) return `${Math.floor(ms / HOUR)}h`;
  return `${Math.floor(ms / DAY)}d`;
}

// ---------------------------------------------------------------------------------------
// Codes (SPEC §5, §9): exactly 6 characters, uppercased.

export const CODE_MESSAGE = CHALLENGE.invalidCode;

/** No 0/O, 1/I/L: a code read aloud or copied by hand cannot be misread. */
export const CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export type CodeCheck = { ok: true; code: string } | { ok: false; message: string };

/** Trims and uppercases; valid when exactly 6 letters or digits remain. */
export function normalizeCode(input: string): CodeCheck {
  const code = input.trim().toUpperCase();
  if (code.length !== CHALLENGE_RULES.codeLength || !/^[A-Z0-9]+$/.test(code)) return { ok: false, message: CODE_MESSAGE };
  return { ok: true, code };
}

/** A code from random bytes (one byte per character; the caller supplies crypto randomness). */
export function codeFromBytes(bytes: Uint8Array): string {
  if (bytes.length < CHALLENGE_RULES.codeLength) throw new Error(`need ${CHALLENGE_RULES.codeLength} random bytes`);
  let code = '';
  // 256 is not a multiple of 31, so the first letters are very slightly likelier; a code is a
  // share handle (lookups are limited to open challenges), not a secret, so that is fine.
  for (let i = 0; i < CHALLENGE_RULES.codeLength; i++) code += CODE_ALPHABET[bytes[i]! % CODE_ALPHABET.length];
  return code;
}
