export { RealtimeClient, defaultRealtimeUrl } from './client.ts';
export type { RealtimeClientOptions, RealtimeListener, RealtimeStatus, RealtimeUpdate } from './client.ts';
export { RealtimeProvider, useRealtime, useRealtimeClient, useRealtimeStatus } from './react.tsx';
export type { RealtimeProviderProps } from './react.tsx';
export { backoffDelay, checkVersion, RECONNECT } from './backoff.ts';
