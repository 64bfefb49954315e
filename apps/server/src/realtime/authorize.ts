import { splitTopic } from '@versus/domain/realtime';
import type { AccessClaims } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';

export interface TopicRequest {
  /** Who asks, as their access token says. */
  user: AccessClaims;
  /** The part after `prefix:`; undefined for a bare topic such as `challenges`. */
  id: string | undefined;
  ctx: AppContext;
}

/** Says whether `user` may follow the topic; may read the database. */
export type TopicRule = (request: TopicRequest) => boolean | Promise<boolean>;

// Rules take the context as an argument (never capture it), so one registry serves every app
// instance in the process, and registering the same rule again is harmless.
const rules = new Map<string, TopicRule>();

/**
 * Registers who may follow topics starting with `prefix` (`match` covers `match:{id}`).
 * Features call this when they register: a prefix without a rule is refused to everyone.
 */
export function authorizeTopic(prefix: string, rule: TopicRule): void {
  rules.set(prefix, rule);
}

/** True when `user` may follow `topic`; unknown prefixes are refused. */
export async function canFollow(ctx: AppContext, user: AccessClaims, topic: string): Promise<boolean> {
  const { prefix, id } = splitTopic(topic);
  const rule = rules.get(prefix);
  if (!rule) return false;
  return (await rule({ user, id, ctx })) === true;
}

/**
 * Answers an unstored topic's current version (publish.ts isUnstoredTopic), its owner's, and
 * records that the hub `follower` (its origin) follows the topic: the owner's writers send that
 * hub the topic's events from then on.
 */
export type TopicVersion = (request: { id: string | undefined; follower: string; ctx: AppContext }) => Promise<number>;

const versions = new Map<string, TopicVersion>();

/** Registers who numbers (and sends the events of) the unstored topics starting with `prefix` (the arena: `match`, by the match's version). */
export function versionTopic(prefix: string, reader: TopicVersion): void {
  versions.set(prefix, reader);
}

/** An unstored topic's current version; 0 for one nobody numbers (nothing is published there). */
export async function ownerVersion(ctx: AppContext, topic: string, follower: string): Promise<number> {
  const { prefix, id } = splitTopic(topic);
  const reader = versions.get(prefix);
  return reader ? reader({ id, follower, ctx }) : 0;
}

const presences = new Map<string, TopicRule>();

/**
 * Registers who counts as present on topics starting with `prefix` (presence.ts: the arena's
 * `match`, its two players). Topics without a rule have no presence.
 */
export function presenceTopic(prefix: string, rule: TopicRule): void {
  presences.set(prefix, rule);
}

/** True when `user` counts as present on `topic` while following it. */
export async function countsAsPresent(ctx: AppContext, user: AccessClaims, topic: string): Promise<boolean> {
  const { prefix, id } = splitTopic(topic);
  const rule = presences.get(prefix);
  return rule ? (await rule({ user, id, ctx })) === true : false;
}

// A player's own stream: notifications, balance, profile.
authorizeTopic('user', ({ user, id }) => id !== undefined && id === user.userId);
// The open-challenges feed is for every signed-in player.
authorizeTopic('challenges', ({ id }) => id === undefined);
