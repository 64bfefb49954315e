// One template per notification type (SPEC §3, §5); missing metadata is refused rather than
// written as a notification with holes in it.
import { CURRENCIES, type Currency } from '../constants.ts';
import { GAMES, isGameId, isWebGame } from '../catalogue.ts';
import { formatMoney, toMinorOrNull } from '../money.ts';
import { BALANCE, NOTIFICATIONS, TOURNAMENT_VIEW } from '../messages.ts';
import {
  isUrgent,
  type NotificationActionType,
  type NotificationCategory,
  type NotificationPriority,
  type NotificationType,
} from './enums.ts';
import { NOTIFICATION_RULES, REMINDERS, type ReminderKind } from './rules.ts';

export type NotificationMetadata = Record<string, unknown>;

export interface NotificationAction {
  label: string;
  url: string;
  type: NotificationActionType;
}

export interface NotificationTemplate {
  category: NotificationCategory;
  priority: NotificationPriority;
  requiredFields: readonly string[];
  title: (meta: NotificationMetadata) => string;
  message: (meta: NotificationMetadata) => string;
  actions: (meta: NotificationMetadata) => NotificationAction[];
  /** Gone from the list this long after it was made (SPEC §9 "Expiry per type"). */
  expiresInMinutes?: number;
  /** Dismissing only marks it read. */
  persistent?: boolean;
  /** No sound. */
  silent?: boolean;
}

// ---------------------------------------------------------------------------------------
// Reading metadata (it comes from our own services, but is typed unknown on purpose)

const text = (meta: NotificationMetadata, key: string, fallback = ''): string => {
  const value = meta[key];
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : fallback;
};

/** "Chess" for a known game id, else the value as given. */
export const gameName = (meta: NotificationMetadata): string => {
  const id = text(meta, 'gameType');
  return isGameId(id) ? GAMES[id].name : id || 'game';
};

const currencyOf = (meta: NotificationMetadata): Currency | null => {
  const value = meta['currency'];
  return typeof value === 'string' && (CURRENCIES as readonly string[]).includes(value) ? (value as Currency) : null;
};

/** Whole units with the currency when known: "$10.00", "25.00 VT", else "10". */
export const amountText = (meta: NotificationMetadata, key: string): string => {
  const value = meta[key];
  const units = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  const currency = currencyOf(meta);
  const minor = Number.isFinite(units) ? toMinorOrNull(units) : null;
  if (minor === null) return text(meta, key);
  return currency ? formatMoney(minor, currency) : String(units);
};

const who = (meta: NotificationMetadata, key = 'opponentName'): string => text(meta, key, 'Your opponent') || 'Your opponent';
/** " against Bob", or nothing when the opponent's name is not known. */
const against = (meta: NotificationMetadata): string => (text(meta, 'opponentName') ? ` against ${text(meta, 'opponentName')}` : '');

/** Where a match opens: a web game in the arena, any other in /matches. */
export function matchUrl(meta: NotificationMetadata): string {
  const matchId = encodeURIComponent(text(meta, 'matchId'));
  const game = text(meta, 'gameType');
  return isGameId(game) && isWebGame(game) ? `/live-arena?match=${matchId}` : `/matches?highlight=${matchId}`;
}
const matchesUrl = (meta: NotificationMetadata): string => `/matches?highlight=${encodeURIComponent(text(meta, 'matchId'))}`;
/** Where a dispute is followed: the Disputes tab of My Matches, the match's card highlighted. */
export const disputeUrl = (meta: NotificationMetadata): string =>
  `/matches?tab=disputes&highlight=${encodeURIComponent(text(meta, 'matchId'))}`;

const view = (label: string, url: string): NotificationAction => ({ label, url, type: 'view' });
const join = (label: string, url: string): NotificationAction => ({ label, url, type: 'join' });
const navigate = (label: string, url: string): NotificationAction => ({ label, url, type: 'navigate' });

const MATCH = ['matchId', 'gameType'] as const;
const OUTCOMES: Record<string, { title: string; message: (m: NotificationMetadata) => string }> = {
  win: {
    title: 'You Won!',
    message: (m) =>
      `You won your ${gameName(m)} match${against(m)}${m['amount'] !== undefined ? `: ${amountText(m, 'amount')} paid out` : ''}.`,
  },
  loss: { title: 'Match Lost', message: (m) => `You lost your ${gameName(m)} match${against(m)}.` },
  draw: { title: 'Match Drawn', message: (m) => `Your ${gameName(m)} match${against(m)} ended in a draw. Your stake has been returned.` },
  void: { title: 'Match Void', message: (m) => `Your ${gameName(m)} match was called off. Your stake has been returned.` },
};

/** A game played outside Versus (on the players' own platform), whose result the players report. */
const isExternal = (meta: NotificationMetadata): boolean => {
  const game = text(meta, 'gameType');
  return isGameId(game) && !isWebGame(game);
};

const REMINDER_TEXT: Record<ReminderKind, { title: string; externalTitle?: string; message: (m: NotificationMetadata) => string }> = {
  before_1h: { title: 'Match in 1 Hour', message: (m) => `Your ${gameName(m)} match${against(m)} starts in 1 hour.` },
  at_start: {
    title: 'Match Starting Now',
    message: (m) =>
      isExternal(m)
        ? `Your ${gameName(m)} match${against(m)} is starting now. ${NOTIFICATIONS.playOnPlatform}`
        : `Your ${gameName(m)} match${against(m)} is starting now. Join now!`,
  },
  closing_5m: {
    title: 'Join Window Closing',
    // An external game has no join window: its title says the match is on.
    externalTitle: 'Match in Progress',
    message: (m) =>
      isExternal(m)
        ? `Your ${gameName(m)} match started 5 minutes ago. ${NOTIFICATIONS.playOnPlatform}`
        : `Your ${gameName(m)} match started 5 minutes ago. Join now or forfeit.`,
  },
};

/** Join a web game in the arena; an external game is played elsewhere: open it in My Matches to report. */
const joinOrReport = (m: NotificationMetadata): NotificationAction =>
  isExternal(m) ? view(NOTIFICATIONS.reportAction, matchesUrl(m)) : join('Join Match', matchUrl(m));
const reminderKind = (m: NotificationMetadata): ReminderKind => {
  const kind = text(m, 'reminderKind');
  return kind in REMINDERS ? (kind as ReminderKind) : 'before_1h';
};

/** A tournament's page. */
const tournamentUrl = (meta: NotificationMetadata): string => `/tournaments/${encodeURIComponent(text(meta, 'tournamentId'))}`;
const TOURNAMENT_FIELDS = ['tournamentId', 'tournamentName'] as const;
const placeText = (meta: NotificationMetadata): string => {
  const place = Number(meta['place']);
  return Number.isInteger(place) && place > 0 ? TOURNAMENT_VIEW.place(place) : text(meta, 'place');
};

// ---------------------------------------------------------------------------------------
// The templates

export const NOTIFICATION_TEMPLATES: Readonly<Record<NotificationType, NotificationTemplate>> = {
  match_invitation: {
    category: 'match',
    priority: 'high',
    requiredFields: ['gameType', 'opponentName', 'betAmount'],
    title: () => 'Match Invitation',
    message: (m) => `${who(m)} invited you to a ${gameName(m)} match for ${amountText(m, 'betAmount')}.`,
    actions: (m) =>
      m['challengeId'] ? [view('View Challenge', `/marketplace?challenge=${encodeURIComponent(text(m, 'challengeId'))}`)] : [],
    expiresInMinutes: 30,
  },
  match_confirmed: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...MATCH, 'opponentName'],
    title: () => 'Match Confirmed',
    message: (m) => `Your ${gameName(m)} match${against(m)} is confirmed.`,
    actions: (m) => [view('View Match', matchUrl(m))],
    expiresInMinutes: 60,
  },
  match_starting_soon: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH, 'minutesUntil'],
    title: () => 'Match Starting Soon',
    message: (m) => `Your ${gameName(m)} match starts in ${text(m, 'minutesUntil')} minute${text(m, 'minutesUntil') === '1' ? '' : 's'}.`,
    actions: (m) => [joinOrReport(m)],
    expiresInMinutes: 15,
  },
  match_reminder: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...MATCH, 'reminderKind'],
    title: (m) => {
      const text = REMINDER_TEXT[reminderKind(m)];
      return (isExternal(m) && text.externalTitle) || text.title;
    },
    message: (m) => REMINDER_TEXT[reminderKind(m)].message(m),
    actions: (m) => [joinOrReport(m)],
  },
  match_ready: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH],
    title: () => 'Opponent Ready',
    message: (m) => `${who(m)} is ready for your ${gameName(m)} match.`,
    actions: (m) => [joinOrReport(m)],
    expiresInMinutes: 10,
  },
  match_in_progress: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...MATCH],
    title: () => 'Match in Progress',
    message: (m) => `Your ${gameName(m)} match is in progress.`,
    actions: (m) => [view('Open Match', matchUrl(m))],
    expiresInMinutes: 30,
  },
  match_move_made: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH, 'opponentName'],
    title: () => 'Your Turn',
    message: (m) => `${who(m)} moved in your ${gameName(m)} match. It's your turn.`,
    actions: (m) => [view('Play', matchUrl(m))],
    expiresInMinutes: 120,
  },
  match_started: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH],
    title: () => 'Match Started',
    message: (m) => `Your ${gameName(m)} match${against(m)} has started.${isExternal(m) ? ` ${NOTIFICATIONS.playOnPlatform}` : ''}`,
    actions: (m) => [isExternal(m) ? view(NOTIFICATIONS.reportAction, matchesUrl(m)) : join('Play', matchUrl(m))],
  },
  match_completed: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...MATCH, 'result'],
    title: (m) => (OUTCOMES[text(m, 'result')] ?? OUTCOMES['void']!).title,
    message: (m) => (OUTCOMES[text(m, 'result')] ?? OUTCOMES['void']!).message(m),
    actions: (m) => [view('View Results', matchesUrl(m))],
  },
  match_disputed: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH],
    title: () => 'Match Under Review',
    message: (m) => `Your ${gameName(m)} match is under review. An admin will resolve the dispute.`,
    actions: (m) => [view(NOTIFICATIONS.followDispute, disputeUrl(m))],
    persistent: true,
  },
  match_forfeit: {
    category: 'match',
    priority: 'high',
    requiredFields: [...MATCH, 'result'],
    title: () => 'Match Forfeited',
    message: (m) =>
      text(m, 'result') === 'win'
        ? `${who(m)} did not show up: you win your ${gameName(m)} match by forfeit.`
        : `You forfeited your ${gameName(m)} match${against(m)}.`,
    actions: (m) => [view('View Results', matchesUrl(m))],
  },
  challenge_accepted: {
    category: 'challenge',
    priority: 'high',
    requiredFields: ['challengeId', 'matchId', 'gameType', 'opponentName', 'betAmount'],
    title: () => 'Challenge Accepted',
    message: (m) => `${who(m)} accepted your ${gameName(m)} challenge for ${amountText(m, 'betAmount')}.`,
    actions: (m) => [view('View Match', matchesUrl(m))],
    expiresInMinutes: 30,
  },
  challenge_created: {
    category: 'challenge',
    priority: 'low',
    requiredFields: ['challengeId', 'gameType', 'betAmount'],
    title: () => 'Challenge Created',
    message: (m) => `Your ${gameName(m)} challenge for ${amountText(m, 'betAmount')} is live.`,
    actions: () => [view('View Challenges', '/marketplace')],
    silent: true,
  },
  challenge_expired: {
    category: 'challenge',
    priority: 'normal',
    requiredFields: ['challengeId', 'gameType', 'betAmount'],
    title: () => 'Challenge Expired',
    message: (m) => `Your ${gameName(m)} challenge for ${amountText(m, 'betAmount')} expired. Your stake has been released.`,
    actions: () => [navigate('New Challenge', '/create-challenge')],
  },
  challenge_declined: {
    category: 'challenge',
    priority: 'normal',
    requiredFields: ['challengeId', 'gameType', 'opponentName'],
    title: () => 'Challenge Declined',
    message: (m) => `${who(m)} declined your ${gameName(m)} challenge.`,
    actions: () => [view('View Challenges', '/marketplace')],
  },
  challenge_reminder: {
    category: 'challenge',
    priority: 'low',
    requiredFields: ['challengeId', 'gameType'],
    title: () => 'Challenge Waiting',
    message: (m) => `Your ${gameName(m)} challenge is still waiting for an opponent.`,
    actions: () => [view('View Challenges', '/marketplace')],
  },
  payment_received: {
    category: 'financial',
    priority: 'normal',
    requiredFields: ['amount'],
    title: () => 'Payment Received',
    message: (m) => `You received ${amountText(m, 'amount')}.`,
    actions: () => [view('View Wallet', '/wallet')],
  },
  payment_sent: {
    category: 'financial',
    priority: 'normal',
    requiredFields: ['amount'],
    title: () => 'Payment Sent',
    message: (m) => `You sent ${amountText(m, 'amount')}.`,
    actions: () => [view('View Wallet', '/wallet')],
  },
  credits_earned: {
    category: 'financial',
    priority: 'normal',
    requiredFields: ['amount'],
    title: () => 'Credits Earned',
    message: (m) => `${BALANCE.added(amountText(m, 'amount'))}${m['reason'] ? ` ${text(m, 'reason')}` : ''}`,
    actions: () => [view('View Wallet', '/wallet')],
  },
  credits_deducted: {
    category: 'financial',
    priority: 'normal',
    requiredFields: ['amount'],
    title: () => 'Credits Deducted',
    message: (m) => `${BALANCE.deducted(amountText(m, 'amount'))}${m['reason'] ? ` ${text(m, 'reason')}` : ''}`,
    actions: () => [view('View Wallet', '/wallet')],
  },
  escrow_released: {
    category: 'financial',
    priority: 'normal',
    requiredFields: ['amount'],
    title: () => 'Escrow Released',
    message: (m) => `${amountText(m, 'amount')} held in escrow has been released to your balance.`,
    actions: () => [view('View Wallet', '/wallet')],
  },
  friend_request: {
    category: 'social',
    priority: 'normal',
    requiredFields: ['username'],
    title: () => 'Friend Request',
    message: (m) => `${text(m, 'username')} sent you a friend request.`,
    actions: () => [view('View', '/social')],
  },
  friend_accepted: {
    category: 'social',
    priority: 'low',
    requiredFields: ['username'],
    title: () => 'Friend Request Accepted',
    message: (m) => `${text(m, 'username')} accepted your friend request.`,
    actions: () => [view('View', '/social')],
  },
  follow_request: {
    category: 'social',
    priority: 'low',
    requiredFields: ['username'],
    title: () => 'New Follow Request',
    message: (m) => `${text(m, 'username')} wants to follow you.`,
    actions: () => [view('View', '/social')],
  },
  follow_accepted: {
    category: 'social',
    priority: 'low',
    requiredFields: ['username'],
    title: () => 'Follow Accepted',
    message: (m) => `${text(m, 'username')} accepted your follow request.`,
    actions: () => [view('View', '/social')],
  },
  player_online: {
    category: 'social',
    priority: 'low',
    requiredFields: ['username'],
    title: () => 'Player Online',
    message: (m) => `${text(m, 'username')} is online.`,
    actions: () => [view('View', '/social')],
    silent: true,
    expiresInMinutes: 60,
  },
  player_joined_room: {
    category: 'match',
    priority: 'high',
    requiredFields: ['username', 'gameType', 'roomCode', 'matchId'],
    title: () => 'Player Joined Your Room',
    message: (m) => `${text(m, 'username')} joined your ${gameName(m)} room ${text(m, 'roomCode')}. Your match is ready.`,
    actions: (m) => [join('Play', matchUrl(m))],
  },
  player_joined_challenge: {
    category: 'challenge',
    priority: 'normal',
    requiredFields: ['username', 'challengeId', 'gameType'],
    title: () => 'Player Joined Your Challenge',
    message: (m) => `${text(m, 'username')} joined your ${gameName(m)} challenge.`,
    actions: () => [view('View Challenges', '/marketplace')],
  },
  player_joined_pool_challenge: {
    category: 'challenge',
    priority: 'normal',
    requiredFields: ['username', 'challengeId', 'gameType'],
    title: () => 'Player Joined Your Pool',
    message: (m) =>
      `${text(m, 'username')} joined your ${gameName(m)} pool${m['joined'] !== undefined && m['maxPlayers'] !== undefined ? ` (${text(m, 'joined')}/${text(m, 'maxPlayers')} players)` : ''}.`,
    actions: () => [view('View Challenges', '/marketplace')],
  },
  system_announcement: {
    category: 'system',
    priority: 'normal',
    requiredFields: ['message'],
    title: (m) => text(m, 'title', 'Announcement') || 'Announcement',
    message: (m) => text(m, 'message'),
    actions: () => [],
  },
  maintenance_notice: {
    category: 'system',
    priority: 'high',
    requiredFields: ['message'],
    title: () => 'Scheduled Maintenance',
    message: (m) => text(m, 'message'),
    actions: () => [],
    persistent: true,
  },
  feature_update: {
    category: 'system',
    priority: 'low',
    requiredFields: ['message'],
    title: (m) => text(m, 'title', 'New Feature') || 'New Feature',
    message: (m) => text(m, 'message'),
    actions: () => [],
  },
  account_update: {
    category: 'system',
    priority: 'normal',
    requiredFields: ['message'],
    title: () => 'Account Update',
    message: (m) => text(m, 'message'),
    actions: () => [view('Profile', '/profile')],
  },
  security_alert: {
    category: 'system',
    priority: 'critical',
    requiredFields: ['message'],
    title: () => 'Security Alert',
    message: (m) => text(m, 'message'),
    actions: () => [view('Profile', '/profile')],
    persistent: true,
  },
  tournament_starting_soon: {
    category: 'match',
    priority: 'high',
    requiredFields: [...TOURNAMENT_FIELDS, 'minutesUntil'],
    title: () => 'Tournament Starting Soon',
    message: (m) =>
      `${text(m, 'tournamentName')} starts in ${text(m, 'minutesUntil')} minute${text(m, 'minutesUntil') === '1' ? '' : 's'}.`,
    actions: (m) => [view('View Tournament', tournamentUrl(m))],
    expiresInMinutes: 15,
  },
  tournament_game_ready: {
    category: 'match',
    priority: 'high',
    requiredFields: [...TOURNAMENT_FIELDS, ...MATCH],
    title: () => 'Your Tournament Game Is Ready',
    message: (m) =>
      `Your ${gameName(m)} game${against(m)} in ${text(m, 'tournamentName')} is ready. Join now: a player not ready in time loses it.`,
    actions: (m) => [join('Play', matchUrl(m))],
    expiresInMinutes: 10,
  },
  tournament_eliminated: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...TOURNAMENT_FIELDS],
    title: () => 'Knocked Out',
    message: (m) => `You were knocked out of ${text(m, 'tournamentName')}${against(m) ? ` by ${text(m, 'opponentName')}` : ''}.`,
    actions: (m) => [view('View Tournament', tournamentUrl(m))],
  },
  tournament_prize: {
    category: 'financial',
    priority: 'normal',
    requiredFields: [...TOURNAMENT_FIELDS, 'place', 'amount'],
    title: (m) => (Number(m['place']) === 1 ? 'You Won the Tournament!' : 'Tournament Prize'),
    message: (m) => `You finished ${placeText(m)} in ${text(m, 'tournamentName')}: ${amountText(m, 'amount')} paid to your wallet.`,
    actions: (m) => [view('View Tournament', tournamentUrl(m)), view('View Wallet', '/wallet')],
  },
  tournament_registered: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...TOURNAMENT_FIELDS],
    title: () => 'Tournament Entry Confirmed',
    message: (m) =>
      `You are registered for ${text(m, 'tournamentName')}.` +
      (m['amount'] !== undefined ? ` Your ${amountText(m, 'amount')} stake is locked in escrow until it ends.` : ' Entry is free.'),
    actions: (m) => [view('View Tournament', tournamentUrl(m))],
  },
  tournament_cancelled: {
    category: 'match',
    priority: 'normal',
    requiredFields: [...TOURNAMENT_FIELDS],
    title: () => 'Tournament Cancelled',
    message: (m) =>
      `${text(m, 'tournamentName')} was cancelled${m['minPlayers'] !== undefined ? `: fewer than ${text(m, 'minPlayers')} players entered` : ''}.` +
      (m['amount'] !== undefined ? ` Your ${amountText(m, 'amount')} was returned.` : ''),
    actions: (m) => [view('View Tournament', tournamentUrl(m))],
  },
};

// ---------------------------------------------------------------------------------------
// Making one

export const shortMessage = (message: string): string =>
  message.length <= NOTIFICATION_RULES.shortMessageMax ? message : `${message.slice(0, NOTIFICATION_RULES.shortMessageMax - 3)}...`;

/** A field is missing when it is absent, null or an empty string (0 and false are values). */
export function missingFields(type: NotificationType, metadata: NotificationMetadata | null | undefined): string[] {
  const meta = metadata ?? {};
  return NOTIFICATION_TEMPLATES[type].requiredFields.filter((key) => {
    const value = meta[key];
    return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
  });
}

export class NotificationTemplateError extends Error {
  constructor(
    readonly type: NotificationType,
    readonly missing: readonly string[],
  ) {
    super(NOTIFICATIONS.missingFields(missing));
    this.name = 'NotificationTemplateError';
  }
}

/** What a template makes of its metadata: everything the row needs but the ids and the user. */
export interface NotificationDraft {
  type: NotificationType;
  title: string;
  message: string;
  shortMessage: string;
  category: NotificationCategory;
  priority: NotificationPriority;
  urgent: boolean;
  silent: boolean;
  persistent: boolean;
  expiresAt: Date | null;
  actions: NotificationAction[];
  targetUrl: string | null;
  metadata: NotificationMetadata;
}

export interface DraftOptions {
  now?: Date;
  /** Overrides the template's priority (a timer reminder's priority comes from the time left). */
  priority?: NotificationPriority;
}

export type DraftResult = { ok: true; draft: NotificationDraft } | { ok: false; missing: string[]; message: string };

export function tryCreateFromTemplate(
  type: NotificationType,
  metadata: NotificationMetadata | null | undefined,
  options: DraftOptions = {},
): DraftResult {
  const missing = missingFields(type, metadata);
  if (missing.length > 0) return { ok: false, missing, message: NOTIFICATIONS.missingFields(missing) };
  const meta = { ...(metadata ?? {}) };
  const template = NOTIFICATION_TEMPLATES[type];
  const now = options.now ?? new Date();
  let priority = options.priority ?? template.priority;
  if (type === 'match_reminder' && !options.priority && REMINDERS[reminderKind(meta)].urgent) priority = 'critical';
  const message = template.message(meta);
  const actions = template.actions(meta);
  return {
    ok: true,
    draft: {
      type,
      title: template.title(meta),
      message,
      shortMessage: shortMessage(message),
      category: template.category,
      priority,
      urgent: isUrgent(priority),
      silent: template.silent ?? false,
      persistent: template.persistent ?? false,
      expiresAt: template.expiresInMinutes ? new Date(now.getTime() + template.expiresInMinutes * 60_000) : null,
      actions,
      targetUrl: actions[0]?.url ?? null,
      metadata: meta,
    },
  };
}

/** Throws NotificationTemplateError ("Missing required fields: a, b") when metadata is short. */
export function createFromTemplate(
  type: NotificationType,
  metadata: NotificationMetadata | null | undefined,
  options: DraftOptions = {},
): NotificationDraft {
  const result = tryCreateFromTemplate(type, metadata, options);
  if (!result.ok) throw new NotificationTemplateError(type, result.missing);
  return result.draft;
}
