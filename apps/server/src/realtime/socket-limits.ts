// The hub's abuse limits, per process (counts in the database would outlive a crashed process's sockets): sockets per
// address and per account, and a message budget per account; behind a balancer the caps are at most N times as high.
import { REALTIME_LIMITS } from '@versus/domain/realtime-constants';

export interface SocketLimitOptions {
  socketsPerAccount: number;
  socketsPerAddress: number;
  messageBurst: number;
  messagesPerSecond: number;
}

/** A token bucket: `messageBurst` at most, refilled at `messagesPerSecond`. */
export interface Bucket {
  tokens: number;
  at: number;
}

export const SOCKET_LIMIT_DEFAULTS: SocketLimitOptions = {
  socketsPerAccount: REALTIME_LIMITS.socketsPerAccount,
  socketsPerAddress: REALTIME_LIMITS.socketsPerAddress,
  messageBurst: REALTIME_LIMITS.messageBurst,
  messagesPerSecond: REALTIME_LIMITS.messagesPerSecond,
};

export class SocketLimits {
  private readonly byAddress = new Map<string, number>();
  private readonly byAccount = new Map<string, { sockets: number; bucket: Bucket }>();

  constructor(
    private readonly options: SocketLimitOptions,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a socket from `address`; false (nothing counted) when the address has its fill. */
  open(address: string): boolean {
    const open = this.byAddress.get(address) ?? 0;
    if (open >= this.options.socketsPerAddress) return false;
    this.byAddress.set(address, open + 1);
    return true;
  }

  closed(address: string): void {
    const open = (this.byAddress.get(address) ?? 1) - 1;
    if (open > 0) this.byAddress.set(address, open);
    else this.byAddress.delete(address);
  }

  /** Counts a signed-in socket of `userId` and answers the account's shared bucket; null when full. */
  signIn(userId: string): Bucket | null {
    const account = this.byAccount.get(userId);
    if (!account) {
      const fresh = { sockets: 1, bucket: this.bucket() };
      this.byAccount.set(userId, fresh);
      return fresh.bucket;
    }
    if (account.sockets >= this.options.socketsPerAccount) return null;
    account.sockets++;
    return account.bucket;
  }

  signedOut(userId: string): void {
    const account = this.byAccount.get(userId);
    if (account && --account.sockets <= 0) this.byAccount.delete(userId);
  }

  /** A full bucket, for a socket that has not said hello yet. */
  bucket(): Bucket {
    return { tokens: this.options.messageBurst, at: this.now() };
  }

  /** Spends one message from `bucket`; false when it is empty (a flood). */
  take(bucket: Bucket): boolean {
    const now = this.now();
    const { messageBurst, messagesPerSecond } = this.options;
    bucket.tokens = Math.min(messageBurst, bucket.tokens + ((now - bucket.at) / 1000) * messagesPerSecond);
    bucket.at = now;
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}
