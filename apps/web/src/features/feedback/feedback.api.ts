// Beta feedback calls: send (JSON, or multipart with a screenshot), my messages, the admin list
// and answer; refreshed by feedback.* events on my topic and the admin topic.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  adminFeedbackListSchema,
  adminFeedbackResponseSchema,
  feedbackListSchema,
  feedbackResponseSchema,
  type Feedback,
  type FeedbackStatus,
} from '@versus/domain/feedback';
import { api, parse } from '../../api/index.ts';
import { useProtectedObjectUrl } from '../../api/object-url.ts';
import { postForm } from '../auth/post-form.ts';
import { useTopicRefetch, type RefetchOn } from '../../realtime/use-topic-refetch.ts';
import { useAuth } from '../auth/use-auth.ts';

export const feedbackKeys = {
  all: ['feedback'] as const,
  mine: ['feedback', 'mine'] as const,
  admin: (status: FeedbackStatus | 'all') => ['feedback', 'admin', status] as const,
};

export interface FeedbackDraft {
  message: string;
  pageUrl: string;
  appVersion: string;
  screenshot: Blob | null;
}

export async function sendFeedback(draft: FeedbackDraft): Promise<Feedback> {
  const fields = { message: draft.message, pageUrl: draft.pageUrl, appVersion: draft.appVersion };
  const shot = draft.screenshot;
  const type = shot?.type || 'image/png';
  const file = shot ? { field: 'screenshot', blob: shot, filename: `screenshot.${type.split('/')[1] ?? 'png'}` } : null;
  return (await parse(await postForm('/api/feedback', fields, file), feedbackResponseSchema)).feedback;
}

export function useSendFeedback() {
  const client = useQueryClient();
  return useMutation({ mutationFn: sendFeedback, onSuccess: () => client.invalidateQueries({ queryKey: feedbackKeys.mine }) });
}

export const useMyFeedback = (enabled: boolean) =>
  useQuery({
    queryKey: feedbackKeys.mine,
    enabled,
    queryFn: ({ signal }) => api.get('/api/feedback', feedbackListSchema, { signal }).then((r) => r.feedback),
  });

export const useAdminFeedback = (status: FeedbackStatus | 'all', enabled: boolean) =>
  useQuery({
    queryKey: feedbackKeys.admin(status),
    enabled,
    queryFn: ({ signal }) => api.get(`/api/admin/feedback?status=${status}`, adminFeedbackListSchema, { signal }).then((r) => r.feedback),
  });

export function useAnswerFeedback() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, answer }: { id: string; answer: string }) =>
      api.post(`/api/admin/feedback/${encodeURIComponent(id)}/answer`, { answer }, adminFeedbackResponseSchema).then((r) => r.feedback),
    onSettled: () => client.invalidateQueries({ queryKey: feedbackKeys.all }),
  });
}

/** On the admin topic: any feedback.* event or a gap refreshes the admin list. */
export const ADMIN_FEEDBACK_REFETCH: RefetchOn = { types: /^feedback\./ };
/** The player's own messages: refetched when one is answered. */
export const MY_FEEDBACK_REFETCH: RefetchOn = { types: ['feedback.answered'] };
const MY_FEEDBACK_KEYS = [feedbackKeys.mine];
const ADMIN_FEEDBACK_KEYS = [['feedback', 'admin']];

/** An answer to my feedback refreshes my messages; new feedback refreshes the admin list. */
export function useFeedbackLive(admin: boolean): void {
  const { user } = useAuth();
  // An answer missed while offline shows after the reconnect too (a gap refetches).
  useTopicRefetch(user ? `user:${user.id}` : null, MY_FEEDBACK_REFETCH, MY_FEEDBACK_KEYS);
  useTopicRefetch(admin ? 'admin' : null, ADMIN_FEEDBACK_REFETCH, ADMIN_FEEDBACK_KEYS);
}

/** Feedback screenshot (bearer-protected) as an object URL while shown. */
export const useScreenshotUrl = (url: string | null): string | null => useProtectedObjectUrl(url, 'Feedback screenshot');

const MAX_CAPTURE_WIDTH = 1600;

/** One frame of the browser's screen capture; null when the browser cannot or the player says no. */
export async function captureScreen(): Promise<Blob | null> {
  const media = navigator.mediaDevices;
  if (!media?.getDisplayMedia) return null;
  let stream: MediaStream | null = null;
  try {
    stream = await media.getDisplayMedia({ video: true, audio: false });
    const video = document.createElement('video');
    video.srcObject = stream;
    video.muted = true;
    await video.play();
    // At most 1600 px wide, so the image stays well under the 5 MB limit.
    const scale = Math.min(1, MAX_CAPTURE_WIDTH / Math.max(1, video.videoWidth));
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(video.videoWidth * scale);
    canvas.height = Math.round(video.videoHeight * scale);
    canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
    return await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  } catch (error) {
    // The player cancelled the browser's picker (NotAllowedError) or capture is unavailable.
    console.info('Screen capture not taken', error);
    return null;
  } finally {
    stream?.getTracks().forEach((track) => track.stop());
  }
}

export const canCaptureScreen = () => typeof navigator !== 'undefined' && typeof navigator.mediaDevices?.getDisplayMedia === 'function';
