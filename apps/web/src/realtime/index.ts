export { MoveUnanswered, RealtimeClient, SocketUnavailable, defaultRealtimeUrl } from './client.ts';
export type { MoveAnswer, RealtimeClientOptions, SocketMove, RealtimeListener, RealtimeStatus, RealtimeUpdate } from './client.ts';
export { RealtimeProvider, useRealtime, useRealtimeClient, useRealtimeStatus } from './react.tsx';
export type { RealtimeProviderProps } from './react.tsx';
export { backoffDelay, checkVersion, RECONNECT } from './backoff.ts';
