// Business constants from SPEC §9. Amounts of money are integer minor units (cents).

export const PRODUCT_NAME = 'Versus';
export const TAGLINE = 'Compete. Win. Earn.';

export const ACCOUNT_TYPES = ['real', 'virtual'] as const;
export type AccountType = (typeof ACCOUNT_TYPES)[number];

export const ROLES = ['user', 'promoter', 'admin'] as const;
export type Role = (typeof ROLES)[number];

export const CURRENCIES = ['credits', 'pcredits', 'vtokens'] as const;
export type Currency = (typeof CURRENCIES)[number];

export const MINOR_UNITS = 100;

export const DEFAULTS = {
  tokens: 1000,
  rank: 5000,
  level: 1,
  weeklyVirtualCredits: 500,
} as const;

export const ACCOUNT_RULES = {
  minPasswordLength: 6,
  minAge: 18,
} as const;

export const SESSION = {
  /** The client refreshes its session proactively this often. */
  proactiveRefreshMs: 3_000_000,
  /** Access tokens outlive the proactive refresh so a refresh is never late. */
  accessTokenTtlSeconds: 60 * 60,
  refreshTokenTtlDays: 30,
  profileFetchTimeoutMs: 2000,
  authErrorRetries: 2,
} as const;

export const SIGN_IN_LIMITS = {
  windowMinutes: 15,
  /** Failed guesses at one account from one address: the limit a single guesser meets. */
  perAccount: 5,
  /** Failed guesses from one address over all accounts. */
  perAddress: 20,
  /** Over all addresses: only a distributed attack reaches it, so a stranger cannot lock the owner out. */
  perAccountAllAddresses: 100,
} as const;

/** Abuse limits, fixed windows counted in PostgreSQL so they hold across processes (why each number: docs/security.md). */
export const ABUSE_LIMITS = {
  /** Each new account is granted credits: sign-ups per address, and over the whole site. */
  signUp: { windowSeconds: 60 * 60, perAddress: 5, global: 200 },
  /** Private challenge and room codes (6 characters, ~8.9e8 values): lookups, joins and accepts by code. */
  codeLookups: { windowSeconds: 15 * 60, perAddress: 30, perAccount: 30 },
} as const;

export const NETWORK = {
  backendCheckMs: 30_000,
  backendCheckTimeoutMs: 5000,
  diagnosticTimeoutMs: 10_000,
  retryAttempts: 3,
  retryBaseMs: 1000,
  retryMaxMs: 10_000,
} as const;

export const SHELL = {
  splashMinMs: 2000,
  splashAfterFontsMs: 500,
  splashHideDelayMs: 200,
  pwaPromptDelayMs: 3000,
  pwaPromptMaxWidth: 768,
  carouselIntervalMs: 5000,
  swipeThresholdPx: 50,
  errorRetryCap: 3,
  errorRetryBaseMs: 3000,
  clockVisibleMs: 1000,
  clockHiddenMs: 5000,
  toastDurationMs: 5000,
  historyCap: 50,
  preloadRoutesMs: 2000,
  preloadCommonMs: 5000,
  preloadArenaGamesMs: 3000,
  preloadLudoAfterMs: 2000,
} as const;

export const SIMULATED_STATS = {
  initial: { onlinePlayers: 1247, activeChallenges: 89, prizePool: 89420 },
  activeChallengesFloor: 50,
  refreshMs: 6000,
  startDelayMs: 2000,
  drift: {
    onlinePlayers: { min: -2, max: 2 },
    activeChallenges: { min: -1, max: 1 },
    prizePool: { min: -100, max: 99 },
  },
} as const;

export const CHALLENGE_RULES = {
  minStake: 1,
  maxStake: 1000,
  quickPicks: [10, 25, 50, 100],
  matchFormat: 'Best of 3',
  maxParticipantsDefault: 2,
  messageMax: 200,
  codeLength: 6,
  scheduleSlots: 24,
  scheduleSlotsShown: 6,
  scheduleSlotMinutes: 30,
  defaultPublicStartMinutes: 30,
  listLimit: 50,
  listCacheMs: 15_000,
  expiryCheckMs: 3 * 60_000,
  expiryPreviewMs: 5 * 60_000,
} as const;

export const AVATAR_RULES = {
  maxBytes: 5 * 1024 * 1024,
  types: ['image/jpeg', 'image/png', 'image/gif', 'image/webp', 'image/avif'],
} as const;

export const ROOM_RULES = {
  codeLength: 6,
  defaultGame: 'tic-tac-toe',
  defaultBetTier: 20,
  maintenanceMs: 5 * 60_000,
} as const;
