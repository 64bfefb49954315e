import { splitTopic } from '@versus/domain/realtime';
import type { AccessClaims } from '../auth/claims.ts';

export interface TopicRequest {
  /** Who asks, as their access token says. */
  user: AccessClaims;
  /** The part after `prefix:`; undefined for a bare topic such as `challenges`. */
  id: string | undefined;
}

/** Says whether `user` may follow the topic; may read the database. */
export type TopicRule = (request: TopicRequest) => boolean | Promise<boolean>;

/** An unstored topic's current version, its owner's; records that hub `follower` follows it, so the owner's writers send it there. */
export type TopicVersion = (request: { id: string | undefined; follower: string }) => Promise<number>;

/** One app's realtime topic rules, by prefix (`match` covers `match:{id}`); a prefix without a follow rule is refused to everyone. */
export class TopicRules {
  private readonly follow = new Map<string, TopicRule>();
  private readonly versions = new Map<string, TopicVersion>();
  private readonly presence = new Map<string, TopicRule>();

  constructor() {
    // A player's own stream: notifications, balance, profile.
    this.authorize('user', ({ user, id }) => id !== undefined && id === user.userId);
    // The open-challenges feed is for every signed-in player.
    this.authorize('challenges', ({ id }) => id === undefined);
  }

  /** Who may follow topics starting with `prefix`. */
  authorize(prefix: string, rule: TopicRule): void {
    this.follow.set(prefix, rule);
  }

  /** Who numbers (and sends the events of) the unstored topics starting with `prefix` (the arena: `match`). */
  version(prefix: string, reader: TopicVersion): void {
    this.versions.set(prefix, reader);
  }

  /** Who counts as present on topics starting with `prefix`; topics without a rule have no presence. */
  presenceOn(prefix: string, rule: TopicRule): void {
    this.presence.set(prefix, rule);
  }

  /** True when `user` may follow `topic`; unknown prefixes are refused. */
  async canFollow(user: AccessClaims, topic: string): Promise<boolean> {
    const { prefix, id } = splitTopic(topic);
    const rule = this.follow.get(prefix);
    return rule ? (await rule({ user, id })) === true : false;
  }

  /** An unstored topic's current version; 0 for one nobody numbers (nothing is published there). */
  ownerVersion(topic: string, follower: string): Promise<number> {
    const { prefix, id } = splitTopic(topic);
    const reader = this.versions.get(prefix);
    return reader ? reader({ id, follower }) : Promise.resolve(0);
  }

  /** True when `user` counts as present on `topic` while following it. */
  async countsAsPresent(user: AccessClaims, topic: string): Promise<boolean> {
    const { prefix, id } = splitTopic(topic);
    const rule = this.presence.get(prefix);
    return rule ? (await rule({ user, id })) === true : false;
  }
}
