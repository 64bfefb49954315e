// Whether a new notification still deserves a toast (docs/decisions.md, "No call to action for what
// is already over").
import { TOAST_LATE_MS, type Notification } from '@versus/domain/notifications';
import { ACTIVE_MATCH_STATUSES } from '@versus/domain/arena';

export type Subject = { kind: 'match'; id: string } | { kind: 'challenge'; id: string };

export const isLate = (n: Pick<Notification, 'createdAt'>, now: number): boolean => {
  const at = Date.parse(n.createdAt);
  return Number.isFinite(at) && now - at > TOAST_LATE_MS;
};

/** What the notification's call to action acts on, or null when it calls to none. */
export function callToActionSubject(n: Pick<Notification, 'actions' | 'matchId' | 'challengeId'>): Subject | null {
  const acting = n.actions.some((a) => a.type === 'join' || a.type === 'accept' || a.url.startsWith('/live-arena'));
  if (!acting) return null;
  if (n.matchId) return { kind: 'match', id: n.matchId };
  if (n.challengeId) return { kind: 'challenge', id: n.challengeId };
  return null;
}

/** Whether the subject, in the status it has now, still takes the action. */
export const stillOpen = (subject: Subject, status: string): boolean =>
  subject.kind === 'match' ? (ACTIVE_MATCH_STATUSES as readonly string[]).includes(status) : status === 'open';

export interface StatusReader {
  match(id: string): Promise<string>;
  challenge(id: string): Promise<string>;
}

/** An unreadable status still toasts: the action leads to the page that says what became of it. */
export async function shouldToast(n: Notification, now: number, read: StatusReader): Promise<boolean> {
  if (isLate(n, now)) return false;
  const subject = callToActionSubject(n);
  if (!subject) return true;
  try {
    const status = subject.kind === 'match' ? await read.match(subject.id) : await read.challenge(subject.id);
    return stillOpen(subject, status);
  } catch (error) {
    console.debug('Could not read what a notification refers to; toasting it', error);
    return true;
  }
}
