import { useSyncExternalStore } from 'react';
import { NETWORK } from '@versus/domain';

// SPEC §4 Connectivity: the flag follows the browser's online and offline events; whether the
// backend answers is tracked too (checked every 30 s with a 5 s timeout).

export type BackendStatus = 'unknown' | 'up' | 'down';

export interface Connectivity {
  online: boolean;
  backend: BackendStatus;
}

let state: Connectivity = { online: typeof navigator === 'undefined' ? true : navigator.onLine, backend: 'unknown' };
const listeners = new Set<() => void>();

function set(next: Partial<Connectivity>): void {
  const merged = { ...state, ...next };
  if (merged.online === state.online && merged.backend === state.backend) return;
  state = merged;
  for (const listener of listeners) listener();
}

/** Asks the server whether it is up; updates and returns the status. */
export async function checkBackend(): Promise<BackendStatus> {
  if (!navigator.onLine) {
    set({ online: false });
    return state.backend;
  }
  try {
    const response = await fetch('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(NETWORK.backendCheckTimeoutMs) });
    set({ online: true, backend: response.ok ? 'up' : 'down' });
  } catch (error) {
    console.debug('Backend check failed', error);
    set({ online: navigator.onLine, backend: 'down' });
  }
  return state.backend;
}

/** Starts listening and checking; returns the stop function. */
export function startConnectivity(): () => void {
  const onOnline = () => {
    set({ online: true });
    void checkBackend();
  };
  const onOffline = () => set({ online: false });
  window.addEventListener('online', onOnline);
  window.addEventListener('offline', onOffline);
  set({ online: navigator.onLine });
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void checkBackend();
  }, NETWORK.backendCheckMs);
  return () => {
    window.removeEventListener('online', onOnline);
    window.removeEventListener('offline', onOffline);
    clearInterval(timer);
  };
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useConnectivity(): Connectivity {
  return useSyncExternalStore(subscribe, () => state, () => state);
}
