// Pure helpers of /matches: countdowns and labels.
import { GAMES } from '@versus/domain/catalogue';

/** "2d 3h", "1h 02m", "4m 05s", "12s" for a span of milliseconds (negative spans count as their size). */
export function formatSpan(ms: number): string {
  const total = Math.floor(Math.abs(ms) / 1000);
  const d = Math.floor(total / 86400);
  const h = Math.floor((total % 86400) / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  if (d > 0) return `${d}d ${h}h`;
  if (h > 0) return `${h}h ${two(m)}m`;
  if (m > 0) return `${m}m ${two(s)}s`;
  return `${s}s`;
}

export const formatTime = (iso: string): string =>
  new Date(iso).toLocaleString(undefined, { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

export type MatchesTab = 'active' | 'history' | 'disputes';
export function tabOf(value: string | null): MatchesTab {
  return value === 'history' || value === 'disputes' ? value : 'active';
}

/** A game's display name from its id (the id itself when unknown). */
export function gameName(id: string): string {
  return (GAMES as Readonly<Record<string, { name: string } | undefined>>)[id]?.name ?? id;
}
