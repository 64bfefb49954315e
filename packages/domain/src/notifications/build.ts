// The client's Notification from its type's template: what the server stores and sends (its
// notify.ts gives the id), and what tests deliver as it would.
import type { NotificationPriority, NotificationType } from './enums.ts';
import type { Notification } from './schema.ts';
import { createFromTemplate, type NotificationMetadata } from './templates.ts';

export interface NotificationInput {
  id: string;
  userId: string;
  type: NotificationType;
  metadata: NotificationMetadata;
  matchId?: string | null;
  challengeId?: string | null;
  creatorId?: string | null;
  /** Overrides the template's priority (timer reminders). */
  priority?: NotificationPriority;
  now?: Date;
}

const idOrNull = (value: unknown): string | null => (typeof value === 'string' && value.length > 0 ? value : null);

/** Throws "Missing required fields: ..." when the metadata lacks what the template needs. */
export function buildNotification(input: NotificationInput): Notification {
  const now = input.now ?? new Date();
  const draft = createFromTemplate(input.type, input.metadata, { now, ...(input.priority ? { priority: input.priority } : {}) });
  const createdAt = now.toISOString();
  return {
    id: input.id,
    userId: input.userId,
    type: draft.type,
    // The table's limits (a free-text announcement could exceed them).
    title: draft.title.slice(0, 200),
    message: draft.message.slice(0, 2000),
    shortMessage: draft.shortMessage,
    category: draft.category,
    priority: draft.priority,
    urgent: draft.urgent,
    silent: draft.silent,
    persistent: draft.persistent,
    status: 'unread',
    read: false,
    readAt: null,
    createdAt,
    timestamp: createdAt,
    expiresAt: draft.expiresAt?.toISOString() ?? null,
    matchId: input.matchId ?? idOrNull(draft.metadata['matchId']),
    challengeId: input.challengeId ?? idOrNull(draft.metadata['challengeId']),
    creatorId: input.creatorId ?? idOrNull(draft.metadata['creatorId']),
    metadata: draft.metadata,
    actions: draft.actions,
    targetUrl: draft.targetUrl,
    version: 1,
  };
}
