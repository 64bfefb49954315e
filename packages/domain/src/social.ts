// Social: friends, follows, presence and challenging a friend; texts, pure rules and wire shapes
// shared by server and web.
import { z } from 'zod';

export const SOCIAL_TEXT = {
  title: 'Social',
  subtitle: 'Friends, followers and who is online.',
  friends: 'Friends',
  following: 'Following',
  followers: 'Followers',
  requests: 'Requests',
  incoming: 'Received',
  outgoing: 'Sent',
  online: 'Online',
  offline: 'Offline',
  onlineNow: 'Online now',
  lastSeen: (ago: string) => (ago === 'Just now' ? 'Last seen just now' : `Last seen ${ago} ago`),
  findPlayers: 'Find players',
  searchLabel: 'Search players by username',
  searchPlaceholder: 'Username',
  searchTooShort: 'Type at least 2 characters',
  noResults: 'No players found',
  addFriend: 'Add friend',
  follow: 'Follow',
  accept: 'Accept',
  decline: 'Decline',
  cancel: 'Cancel request',
  unfriend: 'Remove friend',
  unfollow: 'Unfollow',
  challenge: 'Challenge',
  challengeHint: (name: string) => `Challenge ${name} to a private match`,
  friendsOnline: (n: number) => `${n} online`,
  noFriends: 'No friends yet. Find players above and send a request.',
  noRequests: 'No pending requests.',
  noFollowing: 'You do not follow anyone yet. Find players above and follow them.',
  noFollowers: 'Nobody follows you yet. Find players above and connect with them.',
  requestSent: 'Friend request sent',
  followSent: 'Follow request sent',
  friendAdded: (name: string) => `You and ${name} are now friends`,
  followAccepted: (name: string) => `${name} now follows you`,
  kindLabels: { friend: 'Friend request', follow: 'Follow request' },
  relation: {
    friends: 'Friends',
    requestSent: 'Request sent',
    requestReceived: 'Wants to be friends',
    following: 'Following',
    followRequested: 'Follow requested',
  },
  // Refusals.
  playerNotFound: 'Player not found',
  requestNotFound: 'Request not found',
  notYours: 'Only the player this request was sent to can answer it.',
  alreadyAnswered: 'This request was already accepted.',
  notSender: 'Only the player who sent this request can cancel it.',
  self: 'You cannot add or follow yourself.',
  alreadyFriends: 'You are already friends.',
  alreadyRequested: 'A friend request between you is already waiting.',
  alreadyFollowing: 'You already follow this player.',
  alreadyFollowRequested: 'Your follow request is already waiting.',
  notFriends: 'You are not friends.',
  notFollowing: 'You do not follow this player.',
  virtualNoSocial: 'Demo accounts cannot add friends or followers.',
} as const;

export const SOCIAL_LIMITS = {
  searchMin: 2,
  searchMax: 24,
  searchResults: 10,
  /** Each server process writes the players with an open socket this often. */
  presenceBeatMs: 10_000,
  /** Online while seen within this long (several beats, so one slow beat does not flicker). */
  onlineWindowMs: 35_000,
  /** A player_online notification only after this long away (a reload is not "coming online"). */
  onlineNotifyAfterMs: 10 * 60_000,
} as const;

export const LINK_KINDS = ['friend', 'follow'] as const;
export type LinkKind = (typeof LINK_KINDS)[number];
export const LINK_STATUSES = ['pending', 'accepted'] as const;
export type LinkStatus = (typeof LINK_STATUSES)[number];

/** What answering a link request does, by who answers: a closed set of outcomes. */
export type Answer = 'accept' | 'decline' | 'cancel';
export type AnswerCheck = { ok: true } | { ok: false; status: 403 | 404 | 409; message: string };

/** Anyone but the two players is told the link does not exist (404), so ids reveal nothing. */
export function checkAnswer(link: { fromId: string; toId: string; status: LinkStatus }, userId: string, answer: Answer): AnswerCheck {
  const party = link.toId === userId ? 'to' : link.fromId === userId ? 'from' : null;
  if (!party) return { ok: false, status: 404, message: SOCIAL_TEXT.requestNotFound };
  if (link.status !== 'pending') return { ok: false, status: 409, message: SOCIAL_TEXT.alreadyAnswered };
  if (answer === 'cancel') return party === 'from' ? { ok: true } : { ok: false, status: 403, message: SOCIAL_TEXT.notSender };
  return party === 'to' ? { ok: true } : { ok: false, status: 403, message: SOCIAL_TEXT.notYours };
}

/** Online when seen within the window (presence rows are written every few seconds by every process). */
export function isOnline(lastSeenAt: Date | string | null, now: Date): boolean {
  if (!lastSeenAt) return false;
  return now.getTime() - new Date(lastSeenAt).getTime() <= SOCIAL_LIMITS.onlineWindowMs;
}

/** A player coming back after `onlineNotifyAfterMs` away (or for the first time) is news for their friends. */
export function cameOnline(previousLastSeen: Date | string | null, now: Date): boolean {
  if (!previousLastSeen) return true;
  return now.getTime() - new Date(previousLastSeen).getTime() > SOCIAL_LIMITS.onlineNotifyAfterMs;
}

/** The search text as the server uses it, or a refusal. */
export function normalizeSearch(raw: string): { ok: true; q: string } | { ok: false; message: string } {
  const q = raw.trim().replace(/^@/, '');
  if (q.length < SOCIAL_LIMITS.searchMin) return { ok: false, message: SOCIAL_TEXT.searchTooShort };
  return { ok: true, q: q.slice(0, SOCIAL_LIMITS.searchMax) };
}

/** The challenge wizard opened for a private match against this player (the rematch prefill). */
export const challengeFriendPath = (userId: string) => `/create-challenge?opponent=${encodeURIComponent(userId)}`;

// ---------------------------------------------------------------------------------------
// Wire shapes

export const socialUserSchema = z.object({
  id: z.string().uuid(),
  username: z.string(),
  displayName: z.string(),
  avatarUrl: z.string().nullable(),
  level: z.number().int(),
});
export type SocialUser = z.infer<typeof socialUserSchema>;

export const presenceSchema = z.object({ online: z.boolean(), lastSeenAt: z.string().nullable() });

/** A friend, a followed player or a follower: presence only for friends and accepted follows. */
export const contactSchema = z.object({
  linkId: z.string().uuid(),
  user: socialUserSchema,
  since: z.string(),
  presence: presenceSchema.nullable(),
});
export type Contact = z.infer<typeof contactSchema>;

export const linkRequestSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(LINK_KINDS),
  user: socialUserSchema,
  createdAt: z.string(),
});
export type LinkRequest = z.infer<typeof linkRequestSchema>;

export const socialOverviewSchema = z.object({
  friends: z.array(contactSchema),
  following: z.array(contactSchema),
  followers: z.array(contactSchema),
  incoming: z.array(linkRequestSchema),
  outgoing: z.array(linkRequestSchema),
});
export type SocialOverview = z.infer<typeof socialOverviewSchema>;

export const RELATIONS = ['none', 'friends', 'request_sent', 'request_received'] as const;
export const FOLLOW_RELATIONS = ['none', 'following', 'follow_requested'] as const;

export const searchResultSchema = z.object({
  user: socialUserSchema,
  friend: z.enum(RELATIONS),
  follow: z.enum(FOLLOW_RELATIONS),
});
export type SearchResult = z.infer<typeof searchResultSchema>;
export const searchResponseSchema = z.object({ players: z.array(searchResultSchema) });

export const targetRequestSchema = z.object({ userId: z.string().uuid() });

export const linkSchema = z.object({
  id: z.string().uuid(),
  kind: z.enum(LINK_KINDS),
  fromId: z.string().uuid(),
  toId: z.string().uuid(),
  status: z.enum(LINK_STATUSES),
  createdAt: z.string(),
  acceptedAt: z.string().nullable(),
});
export type Link = z.infer<typeof linkSchema>;
export const linkResponseSchema = z.object({ link: linkSchema });
export const okResponseSchema = z.object({ ok: z.literal(true) });
