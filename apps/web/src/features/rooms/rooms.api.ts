// The calls the room panel and the join screen make to /api/rooms.
import {
  createRoomResponseSchema,
  joinRoomResponseSchema,
  myRoomResponseSchema,
  roomPreviewResponseSchema,
  roomResponseSchema,
  type CreateRoomRequest,
} from '@versus/domain/rooms';
import { api, requestJson } from '../../api/index.ts';

export const roomKeys = {
  all: ['rooms'] as const,
  mine: (userId: string) => ['rooms', 'mine', userId] as const,
  preview: (code: string) => ['rooms', 'preview', code] as const,
};

const path = (code: string) => `/api/rooms/${encodeURIComponent(code)}`;

export const fetchMyRoom = (signal?: AbortSignal) => api.get('/api/rooms/mine', myRoomResponseSchema, { signal }).then((r) => r.room);

export const createRoom = (request: CreateRoomRequest) => api.post('/api/rooms', request, createRoomResponseSchema);

/** Public: no token, so a signed-out visitor's preview never touches the session. */
export const previewRoom = (code: string, signal?: AbortSignal) =>
  requestJson(path(code), roomPreviewResponseSchema, { signal }).then((r) => r.room);

export const joinRoom = (code: string) => api.post(`${path(code)}/join`, undefined, joinRoomResponseSchema);

export const cancelRoom = (code: string) => api.post(`${path(code)}/cancel`, undefined, roomResponseSchema).then((r) => r.room);

/** The link a friend opens: {origin}/join-room/{code}. */
export const roomLink = (origin: string, code: string): string => `${origin}/join-room/${encodeURIComponent(code)}`;
