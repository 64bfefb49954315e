// When each running match's clock next runs out, on one timer for them all: a move moves its match's alarm to another
// slot of the wheel (two map entries), where a timer per match made a Timeout, a closure and often a timer list per move,
// each outliving two young-generation collections (bench/moves README, "Scale").

export interface AlarmsOptions {
  /** How often the wheel turns: an alarm rings up to this late. */
  tickMs: number;
  now(): number;
  ring(id: string): void;
}

export class Alarms {
  /** Slot (due time over tickMs, rounded up) → the ids due in it. */
  private readonly slots = new Map<number, Set<string>>();
  private readonly slotOf = new Map<string, number>();
  /** The next slot to ring; the ones before have rung. */
  private cursor: number;
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: AlarmsOptions) {
    this.cursor = this.slotAt(options.now());
  }

  get size(): number {
    return this.slotOf.size;
  }

  /** Rings `id` once `at` has passed (at the wheel's next turn if it already has); replaces its earlier alarm. */
  set(id: string, at: number): void {
    // An idle wheel skips the slots it slept through: none held an alarm.
    if (this.slotOf.size === 0) this.cursor = this.slotAt(this.options.now());
    const slot = Math.max(this.slotAt(at), this.cursor);
    const previous = this.slotOf.get(id);
    if (previous === slot) return;
    if (previous !== undefined) this.remove(id, previous);
    let due = this.slots.get(slot);
    if (!due) this.slots.set(slot, (due = new Set()));
    due.add(id);
    this.slotOf.set(id, slot);
    this.timer ??= setInterval(this.turn, this.options.tickMs).unref();
  }

  clear(id: string): void {
    const slot = this.slotOf.get(id);
    if (slot !== undefined) this.remove(id, slot);
  }

  /** Stops the wheel; nothing rings after. */
  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.slots.clear();
    this.slotOf.clear();
  }

  private readonly turn = (): void => {
    // Slot s holds the alarms due in ((s - 1) · tickMs, s · tickMs]: whole once now reaches its end.
    const last = Math.floor(this.options.now() / this.options.tickMs);
    for (; this.cursor <= last; this.cursor++) {
      const due = this.slots.get(this.cursor);
      if (!due) continue;
      this.slots.delete(this.cursor);
      for (const id of due) {
        this.slotOf.delete(id);
        this.options.ring(id);
      }
    }
    if (this.slotOf.size === 0) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  };

  private slotAt(at: number): number {
    return Math.ceil(at / this.options.tickMs);
  }

  private remove(id: string, slot: number): void {
    const due = this.slots.get(slot)!;
    due.delete(id);
    if (due.size === 0) this.slots.delete(slot);
    this.slotOf.delete(id);
  }
}
