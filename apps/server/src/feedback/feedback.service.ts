// Beta feedback: an admin answers once, by notification; only the author and admins see a message, to
// anyone else it does not exist.
import {
  FEEDBACK_LIMITS,
  FEEDBACK_TEXT,
  checkFeedback,
  type AdminFeedback,
  type Feedback,
  type FeedbackStatus,
} from '@versus/domain/feedback';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
import { publish, topics } from '../realtime/publish.ts';
import { ADMIN_TOPIC } from '../results/results.service.ts';
import { tell } from '../social/tell.ts';
import { newKey, type FileStore, type StoredFile, type UploadedFile } from '../storage/file-store.ts';
import * as repo from './feedback.repository.ts';
import { UUID } from '../http/validation.ts';

export type ServiceContext = Pick<AppContext, 'db' | 'log'>;

const iso = (d: Date | string) => new Date(d).toISOString();

export function toFeedback(row: repo.FeedbackRow): Feedback {
  return {
    id: row.id,
    userId: row.user_id,
    message: row.message,
    pageUrl: row.page_url,
    appVersion: row.app_version,
    userAgent: row.user_agent,
    screenshotUrl: row.screenshot_key ? `/api/feedback/${row.id}/screenshot` : null,
    status: row.status,
    answer: row.answer,
    answeredAt: row.answered_at ? iso(row.answered_at) : null,
    createdAt: iso(row.created_at),
  };
}

const toAdmin = (row: repo.FeedbackRow): AdminFeedback => ({
  ...toFeedback(row),
  author: { id: row.user_id, username: row.username, displayName: row.display_name },
  answeredBy: row.answered_by,
});

/** Author or admin; anyone else gets the same 404 as for a missing id. */
async function readable(ctx: ServiceContext, user: AccessClaims, id: string): Promise<repo.FeedbackRow> {
  if (!UUID.test(id)) throw notFound(FEEDBACK_TEXT.notFound);
  const row = await repo.byId(ctx.db, id);
  if (!row || (row.user_id !== user.userId && user.role !== 'admin')) throw notFound(FEEDBACK_TEXT.notFound);
  return row;
}

export async function send(
  ctx: ServiceContext,
  store: FileStore,
  user: AccessClaims,
  input: { fields: Record<string, string>; screenshot: UploadedFile | null; userAgent: string | undefined },
  now = new Date(),
): Promise<Feedback> {
  const checked = checkFeedback(input.fields);
  if (!checked.ok) throw badRequest('invalid_input', checked.message, checked.field);
  // Checked before the file is stored and again under the player's lock, so messages sent at once cannot all pass.
  const capReached = async (db: Queryable) =>
    (await repo.countSince(db, user.userId, new Date(now.getTime() - DAY_MS))) >= FEEDBACK_LIMITS.perDay;
  const tooMany = () => new AppError(429, 'too_many_feedback', FEEDBACK_TEXT.tooMany);
  if (await capReached(ctx.db)) throw tooMany();
  const key = input.screenshot ? newKey(`feedback/${user.userId}`, input.screenshot.contentType) : null;
  if (key && input.screenshot) await store.put(key, input.screenshot.data, input.screenshot.contentType);
  try {
    const id = await ctx.db.transaction(async (tx) => {
      await repo.lockAuthor(tx, user.userId);
      if (await capReached(tx)) throw tooMany();
      const feedbackId = await repo.insert(tx, {
        userId: user.userId,
        ...checked.value,
        userAgent: input.userAgent ? input.userAgent.slice(0, FEEDBACK_LIMITS.userAgentMax) : null,
        screenshotKey: key,
        screenshotType: input.screenshot?.contentType ?? null,
        now,
      });
      await publish(tx, ADMIN_TOPIC, 'feedback.created', { id: feedbackId });
      return feedbackId;
    });
    return toFeedback((await repo.byId(ctx.db, id))!);
  } catch (error) {
    // The row was not written: the file it would have pointed at goes too.
    if (key)
      await store
        .delete(key)
        .catch((deleteError: unknown) => ctx.log.error({ err: deleteError, key }, 'feedback screenshot cleanup failed'));
    throw error;
  }
}

export async function mine(ctx: ServiceContext, user: AccessClaims): Promise<Feedback[]> {
  return (await repo.byAuthor(ctx.db, user.userId)).map(toFeedback);
}

export async function one(ctx: ServiceContext, user: AccessClaims, id: string): Promise<Feedback> {
  return toFeedback(await readable(ctx, user, id));
}

export async function screenshot(
  ctx: ServiceContext,
  store: FileStore,
  user: AccessClaims,
  id: string,
): Promise<StoredFile & { id: string }> {
  const row = await readable(ctx, user, id);
  const file = row.screenshot_key ? await store.get(row.screenshot_key) : null;
  if (!file) throw notFound(FEEDBACK_TEXT.notFound);
  return { ...file, id: row.id };
}

export async function adminList(ctx: ServiceContext, status: FeedbackStatus | 'all'): Promise<AdminFeedback[]> {
  return (await repo.list(ctx.db, status)).map(toAdmin);
}

/** Answers open feedback once; the author is notified in the same transaction. */
export async function answer(ctx: ServiceContext, admin: AccessClaims, id: string, raw: string, now = new Date()): Promise<AdminFeedback> {
  if (!UUID.test(id)) throw notFound(FEEDBACK_TEXT.notFound);
  const text = raw.trim();
  if (!text || text.length > FEEDBACK_LIMITS.answerMax) throw badRequest('invalid_input', FEEDBACK_TEXT.answerRequired, 'answer');
  await ctx.db.transaction(async (tx) => {
    const row = await repo.lockById(tx, id);
    if (!row) throw notFound(FEEDBACK_TEXT.notFound);
    if (row.status !== 'open' || !(await repo.answer(tx, id, text, admin.userId, now)))
      throw conflict('already_answered', FEEDBACK_TEXT.alreadyAnswered);
    await tell(tx, {
      userId: row.user_id,
      type: 'system_announcement',
      metadata: { title: FEEDBACK_TEXT.notificationTitle, message: text, feedbackId: id },
      now,
    });
    await publish(tx, topics.user(row.user_id), 'feedback.answered', { id });
    await publish(tx, ADMIN_TOPIC, 'feedback.answered', { id });
  });
  return toAdmin((await repo.byId(ctx.db, id))!);
}
