import { createContext, useContext, useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import type { RealtimeClient, RealtimeListener, RealtimeStatus } from './client.ts';

const RealtimeContext = createContext<RealtimeClient | null>(null);

export interface RealtimeProviderProps {
  client: RealtimeClient;
  /** Connected while true (pass "signed in"); disconnected while false. Default true. */
  enabled?: boolean;
  children: ReactNode;
}

/** Makes one client available to the tree and connects it while `enabled`. */
export function RealtimeProvider({ client, enabled = true, children }: RealtimeProviderProps) {
  useEffect(() => {
    if (!enabled) return;
    client.connect();
    return () => client.disconnect();
  }, [client, enabled]);
  return <RealtimeContext.Provider value={client}>{children}</RealtimeContext.Provider>;
}

export function useRealtimeClient(): RealtimeClient {
  const client = useContext(RealtimeContext);
  if (!client) throw new Error('useRealtime needs a <RealtimeProvider> above it');
  return client;
}

/** Follows `topic` while mounted (null: nothing); `onUpdate` may change every render, the subscription only with the topic. */
export function useRealtime(topic: string | null | undefined, onUpdate: RealtimeListener): void {
  const client = useRealtimeClient();
  const latest = useRef(onUpdate);
  useEffect(() => {
    latest.current = onUpdate;
  });
  useEffect(() => {
    if (!topic) return;
    return client.subscribe(topic, (update) => latest.current(update));
  }, [client, topic]);
}

/** 'idle' | 'connecting' | 'connected' | 'reconnecting', re-rendering on change. */
export function useRealtimeStatus(): RealtimeStatus {
  const client = useRealtimeClient();
  return useSyncExternalStore(client.onStatus, client.getStatus, client.getStatus);
}
