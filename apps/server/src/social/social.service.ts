// Friends, follows, the overview and the player search. Each change is one transaction: lock the link,
// check who may, change it, tell both players and notify.
import {
  SOCIAL_LIMITS,
  SOCIAL_TEXT,
  checkAnswer,
  isOnline,
  normalizeSearch,
  type Answer,
  type Contact,
  type Link,
  type LinkKind,
  type LinkRequest,
  type SearchResult,
  type SocialOverview,
  type SocialUser,
} from '@versus/domain/social';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../http/errors.ts';
import { withoutControlCharacters } from '../http/characters.ts';
import { publish, topics } from '../realtime/publish.ts';
import * as repo from './social.repository.ts';
import { tell } from './tell.ts';
import { UUID } from '../http/validation.ts';

export type ServiceContext = Pick<AppContext, 'db'>;

const iso = (d: Date | string) => new Date(d).toISOString();

export function toLink(row: repo.LinkRow): Link {
  return {
    id: row.id,
    kind: row.kind,
    fromId: row.from_id,
    toId: row.to_id,
    status: row.status,
    createdAt: iso(row.created_at),
    acceptedAt: row.accepted_at ? iso(row.accepted_at) : null,
  };
}

const socialUser = (row: {
  id?: string;
  other_id?: string;
  username: string;
  display_name: string;
  avatar_url: string | null;
  level: number;
}): SocialUser => ({
  id: (row.other_id ?? row.id)!,
  username: row.username,
  displayName: row.display_name,
  avatarUrl: row.avatar_url,
  level: row.level,
});

const nameOf = (row: { username: string; display_name: string }) => row.display_name || row.username;

/** Tells both sides their lists changed (the web refetches on it). */
async function changed(tx: Queryable, link: { from_id: string; to_id: string }, reason: string): Promise<void> {
  await publish(tx, topics.user(link.from_id), 'social.changed', { reason });
  await publish(tx, topics.user(link.to_id), 'social.changed', { reason });
}

// ---------------------------------------------------------------------------------------
// Reading

export async function overview(ctx: ServiceContext, user: AccessClaims, now = new Date()): Promise<SocialOverview> {
  const rows = await repo.contactsOf(ctx.db, user.userId);
  const out: SocialOverview = { friends: [], following: [], followers: [], incoming: [], outgoing: [] };
  for (const row of rows) {
    const other = socialUser(row);
    if (row.status === 'pending') {
      const request: LinkRequest = { id: row.id, kind: row.kind, user: other, createdAt: iso(row.created_at) };
      (row.to_id === user.userId ? out.incoming : out.outgoing).push(request);
      continue;
    }
    const contact = (presence: boolean): Contact => ({
      linkId: row.id,
      user: other,
      since: iso(row.accepted_at ?? row.created_at),
      presence: presence ? { online: isOnline(row.last_seen_at, now), lastSeenAt: row.last_seen_at ? iso(row.last_seen_at) : null } : null,
    });
    // Presence is shown to friends and to the followers a player accepted (they see who they follow).
    if (row.kind === 'friend') out.friends.push(contact(true));
    else if (row.from_id === user.userId) out.following.push(contact(true));
    else out.followers.push(contact(false));
  }
  // Online friends first, then by name (the rows came sorted by name).
  out.friends.sort((a, b) => Number(b.presence?.online) - Number(a.presence?.online));
  return out;
}

export async function searchPlayers(ctx: ServiceContext, user: AccessClaims, raw: string): Promise<SearchResult[]> {
  // Control characters are no part of a name (and PostgreSQL refuses a NUL in text).
  const checked = normalizeSearch(withoutControlCharacters(raw));
  if (!checked.ok) throw badRequest('invalid_query', checked.message, 'q');
  const players = await repo.search(ctx.db, user.userId, checked.q, SOCIAL_LIMITS.searchResults);
  const all = await repo.linksWith(
    ctx.db,
    user.userId,
    players.map((p) => p.id),
  );
  const results: SearchResult[] = [];
  for (const player of players) {
    const links = all.filter((l) => l.from_id === player.id || l.to_id === player.id);
    const friend = links.find((l) => l.kind === 'friend');
    const follow = links.find((l) => l.kind === 'follow' && l.from_id === user.userId);
    results.push({
      user: socialUser(player),
      friend: !friend
        ? 'none'
        : friend.status === 'accepted'
          ? 'friends'
          : friend.from_id === user.userId
            ? 'request_sent'
            : 'request_received',
      follow: !follow ? 'none' : follow.status === 'accepted' ? 'following' : 'follow_requested',
    });
  }
  return results;
}

// ---------------------------------------------------------------------------------------
// Requests

/** The target of a request: a real, other player (demo accounts are not in the social graph). */
async function target(tx: Queryable, user: AccessClaims, targetId: string): Promise<{ me: repo.UserRow; other: repo.UserRow }> {
  if (!UUID.test(targetId)) throw notFound(SOCIAL_TEXT.playerNotFound);
  if (targetId === user.userId) throw badRequest('self', SOCIAL_TEXT.self, 'userId');
  const me = await repo.findUser(tx, user.userId);
  if (!me) throw notFound(SOCIAL_TEXT.playerNotFound);
  if (me.account_type === 'virtual') throw forbidden(SOCIAL_TEXT.virtualNoSocial);
  const other = await repo.findUser(tx, targetId);
  if (!other || other.account_type === 'virtual') throw notFound(SOCIAL_TEXT.playerNotFound);
  return { me, other };
}

/** Accepts theirs when the other player already asked (both want it); a second request while one waits is a 409. */
export async function requestFriend(
  ctx: ServiceContext,
  user: AccessClaims,
  targetId: string,
  now = new Date(),
): Promise<{ link: Link; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const { me, other } = await target(tx, user, targetId);
    const existing = await repo.lockFriendLink(tx, user.userId, other.id);
    if (existing?.status === 'accepted') throw conflict('already_friends', SOCIAL_TEXT.alreadyFriends);
    if (existing && existing.from_id === user.userId) throw conflict('already_requested', SOCIAL_TEXT.alreadyRequested);
    if (existing) return { link: await accept(tx, existing, me, now), created: false };
    const link = await repo.insertLink(tx, 'friend', user.userId, other.id, now);
    // A request the other made at the same moment: the unique pair index refused mine.
    if (!link) throw conflict('already_requested', SOCIAL_TEXT.alreadyRequested);
    await changed(tx, link, 'friend_request');
    await tellOncePerDay(tx, {
      userId: other.id,
      type: 'friend_request',
      metadata: { username: nameOf(me), userId: me.id, requestId: link.id },
      creatorId: me.id,
    });
    return { link: toLink(link), created: true };
  });
}

export async function requestFollow(
  ctx: ServiceContext,
  user: AccessClaims,
  targetId: string,
  now = new Date(),
): Promise<{ link: Link; created: boolean }> {
  return ctx.db.transaction(async (tx) => {
    const { me, other } = await target(tx, user, targetId);
    const existing = await repo.lockFollowLink(tx, user.userId, other.id);
    if (existing)
      throw conflict(
        'already_following',
        existing.status === 'accepted' ? SOCIAL_TEXT.alreadyFollowing : SOCIAL_TEXT.alreadyFollowRequested,
      );
    const link = await repo.insertLink(tx, 'follow', user.userId, other.id, now);
    if (!link) throw conflict('already_following', SOCIAL_TEXT.alreadyFollowRequested);
    await changed(tx, link, 'follow_request');
    await tellOncePerDay(tx, {
      userId: other.id,
      type: 'follow_request',
      metadata: { username: nameOf(me), userId: me.id, requestId: link.id },
      creatorId: me.id,
    });
    return { link: toLink(link), created: true };
  });
}

/** Once a day per sender, so send-cancel-send cannot flood the addressee's notifications; the request still goes through. */
async function tellOncePerDay(tx: Queryable, input: Parameters<typeof tell>[1] & { creatorId: string }): Promise<void> {
  if (!(await repo.toldWithinADay(tx, input.userId, input.type, input.creatorId))) await tell(tx, input);
}

async function accept(tx: Queryable, link: repo.LinkRow, me: repo.UserRow, now: Date): Promise<Link> {
  const accepted = await repo.acceptLink(tx, link.id, now);
  if (!accepted) throw conflict('already_answered', SOCIAL_TEXT.alreadyAnswered);
  await changed(tx, accepted, `${accepted.kind}_accepted`);
  await tell(tx, {
    userId: accepted.from_id,
    type: accepted.kind === 'friend' ? 'friend_accepted' : 'follow_accepted',
    metadata: { username: nameOf(me), userId: me.id },
    creatorId: me.id,
  });
  return toLink(accepted);
}

/** Accept, decline (the addressee) or cancel (the sender) a pending request, by its id. */
export async function answer(
  ctx: ServiceContext,
  user: AccessClaims,
  linkId: string,
  what: Answer,
  now = new Date(),
): Promise<Link | null> {
  if (!UUID.test(linkId)) throw notFound(SOCIAL_TEXT.requestNotFound);
  return ctx.db.transaction(async (tx) => {
    const link = await repo.lockLink(tx, linkId);
    if (!link) throw notFound(SOCIAL_TEXT.requestNotFound);
    const check = checkAnswer({ fromId: link.from_id, toId: link.to_id, status: link.status }, user.userId, what);
    if (!check.ok)
      throw new AppError(
        check.status,
        check.status === 404 ? 'not_found' : check.status === 403 ? 'forbidden' : 'already_answered',
        check.message,
      );
    if (what === 'accept') {
      const me = await repo.findUser(tx, user.userId);
      if (!me) throw notFound(SOCIAL_TEXT.playerNotFound);
      // A demo account adds no friends or followers, as it asks none (a request may predate the switch).
      if (me.account_type === 'virtual') throw forbidden(SOCIAL_TEXT.virtualNoSocial);
      return accept(tx, link, me, now);
    }
    await repo.deleteLink(tx, link.id);
    await changed(tx, link, what === 'decline' ? `${link.kind}_declined` : `${link.kind}_cancelled`);
    return null;
  });
}

/** Ends a friendship (either friend) or a follow (the follower; a pending one is withdrawn). */
export async function remove(ctx: ServiceContext, user: AccessClaims, kind: LinkKind, otherId: string): Promise<void> {
  if (!UUID.test(otherId)) throw notFound(SOCIAL_TEXT.playerNotFound);
  await ctx.db.transaction(async (tx) => {
    const link =
      kind === 'friend' ? await repo.lockFriendLink(tx, user.userId, otherId) : await repo.lockFollowLink(tx, user.userId, otherId);
    if (!link || (kind === 'friend' && link.status !== 'accepted')) {
      throw notFound(kind === 'friend' ? SOCIAL_TEXT.notFriends : SOCIAL_TEXT.notFollowing);
    }
    await repo.deleteLink(tx, link.id);
    await changed(tx, link, kind === 'friend' ? 'unfriended' : 'unfollowed');
  });
}

/** Removes one of my followers (their follow, accepted or pending, of me). */
export async function removeFollower(ctx: ServiceContext, user: AccessClaims, followerId: string): Promise<void> {
  if (!UUID.test(followerId)) throw notFound(SOCIAL_TEXT.playerNotFound);
  await ctx.db.transaction(async (tx) => {
    const link = await repo.lockFollowLink(tx, followerId, user.userId);
    if (!link) throw notFound(SOCIAL_TEXT.playerNotFound);
    await repo.deleteLink(tx, link.id);
    await changed(tx, link, 'follower_removed');
  });
}
