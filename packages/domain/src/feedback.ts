// Beta feedback (SPEC §1 "a beta feedback chat widget"): a message from any screen, answered by an
// admin; seen only by its author and admins.
import { z } from 'zod';

/** The version the web app reports with each message. */
export const APP_VERSION = '0.1.0-beta';

export const FEEDBACK_LIMITS = {
  messageMax: 2000,
  answerMax: 2000,
  pageUrlMax: 2000,
  appVersionMax: 64,
  userAgentMax: 500,
  /** Messages one player may send in 24 hours (each may carry a 5 MB screenshot). */
  perDay: 20,
} as const;

export const FEEDBACK_STATUSES = ['open', 'answered'] as const;
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];

export const FEEDBACK_TEXT = {
  open: 'Send beta feedback',
  tooMany: `You have sent ${FEEDBACK_LIMITS.perDay} messages in the last 24 hours. Thank you! Please try again tomorrow.`,
  title: 'Beta feedback',
  intro: 'Tell us what works, what breaks and what you miss. We read every message and answer here.',
  messageLabel: 'Your message',
  messagePlaceholder: 'What happened? What did you expect?',
  counter: (n: number) => `${n}/${FEEDBACK_LIMITS.messageMax}`,
  screenshot: 'Attach a screenshot (optional)',
  screenshotHint: 'An image of the page: JPEG, PNG, GIF, WebP or AVIF up to 5 MB.',
  captureScreen: 'Capture this screen',
  removeScreenshot: 'Remove screenshot',
  attached: (what: string) => `Sent with: ${what}`,
  send: 'Send',
  sent: 'Thanks! Your feedback was sent.',
  failed: 'Your feedback could not be sent. Please try again.',
  history: 'Your messages',
  noHistory: 'You have not sent any feedback yet.',
  answered: 'Answered',
  waiting: 'Waiting for an answer',
  answerFrom: 'Answer from the Versus team',
  // Admin.
  adminTitle: 'Beta Feedback',
  adminEmpty: 'No feedback here.',
  filters: { open: 'Open', answered: 'Answered', all: 'All' } as Record<FeedbackStatus | 'all', string>,
  from: (name: string) => `From ${name}`,
  page: 'Page',
  version: 'Version',
  browser: 'Browser',
  viewScreenshot: 'Screenshot',
  answerLabel: 'Your answer (sent to the player as a notification)',
  sendAnswer: 'Send answer',
  answerSent: 'Answer sent',
  notificationTitle: 'Answer to your feedback',
  // Refusals.
  messageRequired: 'Please write a message',
  messageTooLong: `Message must be at most ${FEEDBACK_LIMITS.messageMax} characters`,
  answerRequired: `Write an answer of 1 to ${FEEDBACK_LIMITS.answerMax} characters`,
  pageUrlInvalid: 'The page address is not valid',
  notFound: 'Feedback not found',
  alreadyAnswered: 'This feedback has already been answered.',
} as const;

/** The widget's fields as the server checks them. */
export function checkFeedback(input: {
  message?: unknown;
  pageUrl?: unknown;
  appVersion?: unknown;
}): { ok: true; value: { message: string; pageUrl: string; appVersion: string } } | { ok: false; message: string; field: string } {
  const message = typeof input.message === 'string' ? input.message.trim() : '';
  if (!message) return { ok: false, message: FEEDBACK_TEXT.messageRequired, field: 'message' };
  if (message.length > FEEDBACK_LIMITS.messageMax) return { ok: false, message: FEEDBACK_TEXT.messageTooLong, field: 'message' };
  const pageUrl = typeof input.pageUrl === 'string' ? input.pageUrl.trim() : '';
  // The path and query of an app page ("/matches?tab=history"), or an absolute http(s) address.
  if (!pageUrl || pageUrl.length > FEEDBACK_LIMITS.pageUrlMax || !(pageUrl.startsWith('/') || /^https?:\/\//i.test(pageUrl))) {
    return { ok: false, message: FEEDBACK_TEXT.pageUrlInvalid, field: 'pageUrl' };
  }
  const version = typeof input.appVersion === 'string' ? input.appVersion.trim().slice(0, FEEDBACK_LIMITS.appVersionMax) : '';
  return { ok: true, value: { message, pageUrl, appVersion: version || 'unknown' } };
}

export const feedbackSchema = z.object({
  id: z.string().uuid(),
  userId: z.string().uuid(),
  message: z.string(),
  pageUrl: z.string(),
  appVersion: z.string(),
  userAgent: z.string().nullable(),
  /** Where the author and admins fetch the screenshot; null without one. */
  screenshotUrl: z.string().nullable(),
  status: z.enum(FEEDBACK_STATUSES),
  answer: z.string().nullable(),
  answeredAt: z.string().nullable(),
  createdAt: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

export const adminFeedbackSchema = feedbackSchema.extend({
  author: z.object({ id: z.string().uuid(), username: z.string(), displayName: z.string() }),
  answeredBy: z.string().nullable(),
});
export type AdminFeedback = z.infer<typeof adminFeedbackSchema>;

export const feedbackResponseSchema = z.object({ feedback: feedbackSchema });
export const feedbackListSchema = z.object({ feedback: z.array(feedbackSchema) });
export const adminFeedbackListSchema = z.object({ feedback: z.array(adminFeedbackSchema) });
export const adminFeedbackResponseSchema = z.object({ feedback: adminFeedbackSchema });
export const adminFeedbackQuerySchema = z.object({ status: z.enum(['open', 'answered', 'all']).default('open') });
export const answerRequestSchema = z.object({ answer: z.string() });
