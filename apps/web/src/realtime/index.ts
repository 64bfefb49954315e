export { MoveUnanswered, RealtimeClient, SocketUnavailable, snapshotMayBeBehind } from './client.ts';
export type { MoveAnswer, RealtimeUpdate } from './client.ts';
export { RealtimeProvider, useRealtime, useRealtimeClient, useRealtimeStatus } from './react.tsx';
export { useTopicRefetch } from './use-topic-refetch.ts';
