import { useSyncExternalStore } from 'react';

// The browser's deferred install offer and the guide modal's open state, shared by the prompt
// and by any menu item that wants to offer installing (openInstallGuide / promptInstall).

/** Chromium's beforeinstallprompt event (not in the DOM typings). */
export interface BeforeInstallPromptEvent extends Event {
  prompt(): Promise<unknown>;
  readonly userChoice: Promise<{ outcome: 'accepted' | 'dismissed'; platform?: string }>;
}

interface InstallState {
  /** The captured offer, until used. */
  offer: BeforeInstallPromptEvent | null;
  installed: boolean;
  guideOpen: boolean;
}

let state: InstallState = { offer: null, installed: false, guideOpen: false };
const listeners = new Set<() => void>();

function set(next: Partial<InstallState>) {
  state = { ...state, ...next };
  for (const listener of listeners) listener();
}

const isOffer = (event: Event): event is BeforeInstallPromptEvent =>
  typeof (event as Partial<BeforeInstallPromptEvent>).prompt === 'function';

// Listen from the first moment the bundle runs: Chromium may fire the event before React mounts.
if (typeof window !== 'undefined') {
  window.addEventListener('beforeinstallprompt', (event) => {
    // Keep the browser's mini-infobar away; our prompt decides when to ask.
    event.preventDefault();
    if (isOffer(event)) set({ offer: event });
  });
  window.addEventListener('appinstalled', () => set({ offer: null, installed: true, guideOpen: false }));
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useInstallState(): InstallState {
  return useSyncExternalStore(subscribe, () => state);
}

export function openInstallGuide(): void {
  set({ guideOpen: true });
}

export function closeInstallGuide(): void {
  set({ guideOpen: false });
}

/** The browser's offer can be used once; without one, the guide opens instead. */
export async function promptInstall(): Promise<'accepted' | 'dismissed' | 'guide'> {
  const offer = state.offer;
  if (!offer) {
    openInstallGuide();
    return 'guide';
  }
  set({ offer: null });
  await offer.prompt();
  const choice = await offer.userChoice;
  if (choice.outcome === 'accepted') set({ installed: true });
  return choice.outcome;
}
