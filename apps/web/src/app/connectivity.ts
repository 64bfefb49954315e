import { useSyncExternalStore } from 'react';
import { GENERIC, NETWORK } from '@versus/domain';
import { checkHealth, type HealthResult } from './health-check.ts';

// SPEC §4 Connectivity: online/offline events plus the app's one backend poll, which /auth-debug
// reads rather than polling again.

export type BackendStatus = 'unknown' | 'up' | 'down';

export interface Connectivity {
  online: boolean;
  backend: BackendStatus;
}

let state: Connectivity = { online: typeof navigator === 'undefined' ? true : navigator.onLine, backend: 'unknown' };
/** The last backend check in detail (latency, status) and whether one is under way. */
export interface BackendCheck {
  last: HealthResult | null;
  checking: boolean;
}

let backendCheck: BackendCheck = { last: null, checking: false };
const listeners = new Set<() => void>();
let inFlight: Promise<BackendStatus> | null = null;

function notify(): void {
  for (const listener of listeners) listener();
}

function set(next: Partial<Connectivity>): void {
  const merged = { ...state, ...next };
  if (merged.online === state.online && merged.backend === state.backend) return;
  state = merged;
  notify();
}

function setCheck(next: Partial<BackendCheck>): void {
  backendCheck = { ...backendCheck, ...next };
  notify();
}

/** A call while a check is under way shares it, so the poll and a "Check now" send one request. */
export function checkBackend(): Promise<BackendStatus> {
  inFlight ??= runCheck().finally(() => {
    inFlight = null;
    setCheck({ checking: false });
  });
  return inFlight;
}

async function runCheck(): Promise<BackendStatus> {
  if (!navigator.onLine) {
    set({ online: false });
    // What a request would have met: no network.
    setCheck({ last: { at: Date.now(), ok: false, latencyMs: null, status: null, detail: GENERIC.network } });
    return state.backend;
  }
  setCheck({ checking: true });
  const result = await checkHealth();
  // An answer of any status means the network is there; no answer leaves it to the browser.
  set({ online: result.status !== null || navigator.onLine, backend: result.ok ? 'up' : 'down' });
  setCheck({ last: result });
  if (!result.ok) console.debug('Backend check failed', result.detail);
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
  return useSyncExternalStore(
    subscribe,
    () => state,
    () => state,
  );
}

/** The app poll's last backend check, re-rendering when it changes. */
export function useBackendCheck(): BackendCheck {
  return useSyncExternalStore(
    subscribe,
    () => backendCheck,
    () => backendCheck,
  );
}
