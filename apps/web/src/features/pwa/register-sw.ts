/// <reference types="vite-plugin-pwa/client" />

/**
 * Registers the generated service worker (vite.config.ts, registerType 'autoUpdate'): production
 * builds only, so the dev server never serves a stale cached shell.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || !('serviceWorker' in navigator)) return;
  import('virtual:pwa-register')
    .then(({ registerSW }) => {
      registerSW({
        immediate: true,
        onRegisterError: (error: unknown) => console.warn('Service worker registration failed', error),
      });
    })
    .catch((error: unknown) => console.warn('Service worker module failed to load', error));
}
