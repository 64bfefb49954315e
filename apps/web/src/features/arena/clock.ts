// What a game clock shows, counted down locally in server time from the server's last reading.
import type { ClockView } from '@versus/domain/arena';
import type { Seat } from '@versus/domain/games/game';

/** Below this the clock shows tenths (and the screen warns). */
export const LOW_TIME_MS = 10_000;

/** 4:59, 1:02:03, and under ten seconds 0:09.4. Never negative. */
export function formatClock(ms: number): string {
  const safe = Number.isFinite(ms) ? Math.max(0, ms) : 0;
  if (safe < LOW_TIME_MS) {
    const tenths = Math.floor(safe / 100);
    return `0:0${Math.floor(tenths / 10)}.${tenths % 10}`;
  }
  const total = Math.floor(safe / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/** A seat's time left at `serverNow` (server epoch ms), counting down from the clock's reading. */
export function remainingNow(clock: ClockView, seat: Seat, serverNow: number): number {
  const left = clock.remainingMs[seat];
  if (!clock.running.includes(seat) || clock.flagged !== null) return Math.max(0, left);
  return Math.max(0, left - Math.max(0, serverNow - clock.at));
}

/** The server's clock offset, NTP style: the shortest recent round trip gives the most trustworthy sample. */
export class ClockSync {
  private samples: { rttMs: number; offsetMs: number }[] = [];

  constructor(private readonly keep = 8) {}

  /** One request: sent at `sentAt`, answered at `receivedAt` (both this browser's time), the server read `serverNow`. */
  sample(sentAt: number, receivedAt: number, serverNow: number): void {
    if (![sentAt, receivedAt, serverNow].every(Number.isFinite) || receivedAt < sentAt) return;
    const rttMs = receivedAt - sentAt;
    this.samples.push({ rttMs, offsetMs: serverNow - (sentAt + rttMs / 2) });
    if (this.samples.length > this.keep) this.samples.shift();
  }

  /** Server time minus browser time; 0 before any sample. */
  offset(): number {
    let best: { rttMs: number; offsetMs: number } | undefined;
    for (const s of this.samples) if (!best || s.rttMs < best.rttMs) best = s;
    return best ? Math.round(best.offsetMs) : 0;
  }

  /** The server's time now, estimated. */
  serverNow(clientNow: number = Date.now()): number {
    return clientNow + this.offset();
  }
}
