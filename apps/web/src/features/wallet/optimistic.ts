// Optimistic balance changes (SPEC §5, §8), kept on top of the server's last balance so a refetch
// meanwhile never loses one and a rollback is exact.
import type { Currency } from '@versus/domain';

/** The figures a wallet shows, in minor units (cents) of one currency. */
export interface WalletFigures {
  availableMinor: number;
  escrowMinor: number;
  currency: Currency;
}

/** A change in minor units: -2500 available and +2500 escrow is a $25 stake locked. */
export interface BalanceDelta {
  availableMinor?: number;
  escrowMinor?: number;
  /** Default: the currency the wallet shows. */
  currency?: Currency;
}

export interface PendingChange {
  id: number;
  currency: Currency;
  availableMinor: number;
  escrowMinor: number;
}

/** The server's figures with every pending change of their currency applied, each total floored at 0. */
export function applyPending(figures: WalletFigures, pending: readonly PendingChange[]): WalletFigures {
  let available = figures.availableMinor;
  let escrow = figures.escrowMinor;
  for (const change of pending) {
    if (change.currency !== figures.currency) continue;
    available += change.availableMinor;
    escrow += change.escrowMinor;
  }
  return { currency: figures.currency, availableMinor: Math.max(0, available), escrowMinor: Math.max(0, escrow) };
}

function checkDelta(value: number | undefined): number {
  const delta = value ?? 0;
  if (!Number.isSafeInteger(delta)) throw new RangeError(`${delta} is not an amount in minor units`);
  return delta;
}

/** A list of pending changes others can watch (useSyncExternalStore: subscribe + getSnapshot). */
export class OptimisticChanges {
  private pending: readonly PendingChange[] = [];
  private nextId = 1;
  private readonly listeners = new Set<() => void>();

  /** Adds a change and returns its id (for remove). */
  add(delta: BalanceDelta, fallbackCurrency: Currency): number {
    const change: PendingChange = {
      id: this.nextId++,
      currency: delta.currency ?? fallbackCurrency,
      availableMinor: checkDelta(delta.availableMinor),
      escrowMinor: checkDelta(delta.escrowMinor),
    };
    this.set([...this.pending, change]);
    return change.id;
  }

  /** Drops a change: a rollback on failure, or once the server's figures include it. */
  remove(id: number): void {
    if (!this.pending.some((change) => change.id === id)) return;
    this.set(this.pending.filter((change) => change.id !== id));
  }

  clear(): void {
    if (this.pending.length > 0) this.set([]);
  }

  readonly getSnapshot = (): readonly PendingChange[] => this.pending;

  readonly subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private set(next: readonly PendingChange[]): void {
    this.pending = next;
    for (const listener of this.listeners) listener();
  }
}

/** On success the change stays until `confirm` (the refetch) settles; on failure it goes and the error is rethrown. */
export async function runOptimistic<T>(
  changes: OptimisticChanges,
  delta: BalanceDelta,
  fallbackCurrency: Currency,
  operation: () => Promise<T>,
  confirm: () => Promise<unknown>,
): Promise<T> {
  const id = changes.add(delta, fallbackCurrency);
  let result: T;
  try {
    result = await operation();
  } catch (error) {
    changes.remove(id);
    throw error;
  }
  try {
    await confirm();
  } catch (error) {
    // The money moved; only the refetch failed. The next balance event or load corrects it.
    console.warn('Balance refresh after a change failed', error);
  }
  changes.remove(id);
  return result;
}
