// How the wizard writes a match time: "7:30 PM", "Today" / "Tomorrow" / "Sat", "in 35 min".
const MINUTE = 60_000;

export function slotTime(at: Date, locale?: string): string {
  return new Intl.DateTimeFormat(locale, { hour: 'numeric', minute: '2-digit' }).format(at);
}

const dayStart = (d: Date) => new Date(d.getFullYear(), d.getMonth(), d.getDate()).getTime();

export function slotDay(at: Date, now: Date, locale?: string): string {
  const days = Math.round((dayStart(at) - dayStart(now)) / (24 * 60 * MINUTE));
  if (days === 0) return 'Today';
  if (days === 1) return 'Tomorrow';
  return new Intl.DateTimeFormat(locale, { weekday: 'short' }).format(at);
}

/** "in 35 min", "in 2 h", "in 2 h 30 min" (rounded down to the minute). */
export function slotFromNow(at: Date, now: Date): string {
  const minutes = Math.max(0, Math.floor((at.getTime() - now.getTime()) / MINUTE));
  if (minutes < 60) return `in ${minutes} min`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest ? `in ${hours} h ${rest} min` : `in ${hours} h`;
}
