/// <reference types="vite-plugin-pwa/client" />
import { toast } from 'sonner';
import { PWA, SHELL } from '@versus/domain';

/** Production only, so dev never serves a stale shell; a toast offers Reload, as a forced one would cut a match short. */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  // After the first page is up: the worker's code and its precaching must not compete with it.
  afterLoad(() => {
    void loadAndRegister();
  });
}

/** Once the page has loaded and the first screen has had its moment (SHELL.preloadRoutesMs, 2 s). */
function afterLoad(run: () => void): void {
  const later = () => setTimeout(run, SHELL.preloadRoutesMs);
  if (document.readyState === 'complete') later();
  else window.addEventListener('load', later, { once: true });
}

function loadAndRegister(): Promise<void> {
  return import('virtual:pwa-register')
    .then(({ registerSW }) => {
      registerSW({
        immediate: true,
        onNeedReload: () => {
          toast(PWA.updateReady, {
            id: 'pwa-update',
            description: PWA.updateReadyDescription,
            duration: Infinity,
            action: { label: PWA.reload, onClick: () => window.location.reload() },
          });
        },
        onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
      });
    })
    .catch((error: unknown) => console.warn('Service worker module failed to load', error));
}
