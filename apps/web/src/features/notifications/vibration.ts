// SPEC §9 vibration patterns, only after the first interaction: browsers refuse navigator.vibrate before.

export const VIBRATION_PATTERNS = {
  tap: [10],
  click: [25],
  notification: [60, 40, 60],
  alert: [120, 60, 120],
  urgent: [200, 80, 200, 80, 200],
  warning: [150, 100, 150],
  timeout: [300, 100, 300],
  success: [40, 30, 80],
  error: [250, 80, 250],
  gameStart: [80, 40, 80, 40, 160],
} as const satisfies Record<string, readonly number[]>;

export type VibrationKind = keyof typeof VIBRATION_PATTERNS;

/** Which pattern a notification buzzes. */
export function vibrationFor(type: string, urgent: boolean): VibrationKind {
  if (type === 'match_started' || type === 'match_ready') return 'gameStart';
  if (type === 'security_alert') return 'alert';
  if (type === 'challenge_expired') return 'timeout';
  if (type === 'match_disputed' || type === 'match_forfeit') return 'warning';
  if (type === 'credits_earned' || type === 'escrow_released' || type === 'payment_received') return 'success';
  return urgent ? 'urgent' : 'notification';
}

/** Remembers whether the user has interacted with the page yet. */
export class InteractionGate {
  private interacted = false;
  private stop: (() => void) | null = null;

  get hasInteracted(): boolean {
    return this.interacted;
  }

  /** Listens for the first pointer or key press on `target`; returns the stop function. */
  watch(target: Pick<EventTarget, 'addEventListener' | 'removeEventListener'>): () => void {
    if (this.interacted) return () => undefined;
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    const mark = () => {
      this.interacted = true;
      this.stop?.();
    };
    for (const name of events) target.addEventListener(name, mark, { capture: true, passive: true });
    this.stop = () => {
      for (const name of events) target.removeEventListener(name, mark, { capture: true });
      this.stop = null;
    };
    return () => this.stop?.();
  }

  /** Vibrates `kind` if allowed and supported; true when it did. */
  vibrate(kind: VibrationKind, nav: { vibrate?: (pattern: number[]) => boolean } | undefined = globalThis.navigator): boolean {
    if (!this.interacted || typeof nav?.vibrate !== 'function') return false;
    return nav.vibrate([...VIBRATION_PATTERNS[kind]]);
  }
}

/** One gate per tab. */
export const interactionGate = new InteractionGate();
