export { MoveUnanswered, RealtimeClient, SocketUnavailable, defaultRealtimeUrl, snapshotMayBeBehind } from './client.ts';
export type { MoveAnswer, RealtimeClientOptions, SocketMove, RealtimeListener, RealtimeStatus, RealtimeUpdate } from './client.ts';
export { RealtimeProvider, useRealtime, useRealtimeClient, useRealtimeStatus } from './react.tsx';
export type { RealtimeProviderProps } from './react.tsx';
export { refetchesOn, topicRefetchListener, useTopicRefetch } from './use-topic-refetch.ts';
export type { RefetchOn } from './use-topic-refetch.ts';
export { backoffDelay, checkVersion, RECONNECT } from './backoff.ts';
