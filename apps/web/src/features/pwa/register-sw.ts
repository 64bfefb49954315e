/// <reference types="vite-plugin-pwa/client" />
import { toast } from 'sonner';
import { PWA } from '@versus/domain';

/**
 * Registers the generated service worker (vite.config.ts, registerType 'autoUpdate'): production
 * builds only, so the dev server never serves a stale cached shell. A new build's worker takes
 * over by itself; instead of the plugin's forced reload (which would cut a live match short) the
 * player gets a toast with a Reload button.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  import('virtual:pwa-register')
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
