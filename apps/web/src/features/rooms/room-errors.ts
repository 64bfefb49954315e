import { ROOMS } from '@versus/domain';
import { ApiError } from '../../api/index.ts';

/** SPEC §8 Private rooms: the server's message as it is; a lost connection gets the room wording. */
export function roomErrorMessage(error: unknown, fallback: string): string {
  if (error instanceof ApiError && error.isNetwork) return ROOMS.networkError;
  if (error instanceof Error && error.message) return error.message;
  return fallback;
}
