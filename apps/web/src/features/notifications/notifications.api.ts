// The signed-in player's own notifications and preferences (GET/POST /api/notifications…).
import {
  notificationListSchema,
  notificationResponseSchema,
  preferencesResponseSchema,
  readAllResponseSchema,
  type Notification,
  type NotificationList,
  type NotificationPreferences,
} from '@versus/domain/notifications';
import { api } from '../../api/index.ts';

export const notificationKeys = {
  all: (userId: string) => ['notifications', userId] as const,
  list: (userId: string) => ['notifications', userId, 'list'] as const,
  preferences: (userId: string) => ['notifications', userId, 'preferences'] as const,
};

export function fetchNotifications(signal?: AbortSignal): Promise<NotificationList> {
  return api.get('/api/notifications?limit=50', notificationListSchema, { signal });
}

export async function postRead(id: string): Promise<Notification> {
  return (await api.post(`/api/notifications/${encodeURIComponent(id)}/read`, {}, notificationResponseSchema)).notification;
}

export async function postReadAll(): Promise<number> {
  return (await api.post('/api/notifications/read-all', {}, readAllResponseSchema)).count;
}

export async function postDismiss(id: string): Promise<Notification> {
  return (await api.post(`/api/notifications/${encodeURIComponent(id)}/dismiss`, {}, notificationResponseSchema)).notification;
}

export async function fetchPreferences(signal?: AbortSignal): Promise<NotificationPreferences> {
  return (await api.get('/api/notifications/preferences', preferencesResponseSchema, { signal })).preferences;
}

export async function putPreferences(preferences: NotificationPreferences): Promise<NotificationPreferences> {
  return (await api.put('/api/notifications/preferences', preferences, preferencesResponseSchema)).preferences;
}
