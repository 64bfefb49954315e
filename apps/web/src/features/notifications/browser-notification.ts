// The browser's Notification API: the permission prompt (SPEC §2: 1 s after the popover is first
// opened) and the system notification shown for a new one while the tab is hidden.

export const PERMISSION_PROMPT_DELAY_MS = 1_000;
const ASKED_KEY = 'versus.notifications.permissionAsked';

type Permission = NotificationPermission | 'unsupported';

export function browserPermission(): Permission {
  return typeof globalThis.Notification === 'function' ? globalThis.Notification.permission : 'unsupported';
}

/** Whether opening the popover should ask: only while the browser has not been answered, and once per device. */
export function shouldAskPermission(permission: Permission, alreadyAsked: boolean): boolean {
  return permission === 'default' && !alreadyAsked;
}

function readAsked(): boolean {
  try {
    return globalThis.localStorage?.getItem(ASKED_KEY) === '1';
  } catch (error) {
    console.debug('localStorage unavailable', error);
    return false;
  }
}

function rememberAsked(): void {
  try {
    globalThis.localStorage?.setItem(ASKED_KEY, '1');
  } catch (error) {
    console.debug('localStorage unavailable', error);
  }
}

/** Returns a cancel function, for a popover closed before the delay passed. */
export function schedulePermissionPrompt(delayMs = PERMISSION_PROMPT_DELAY_MS): () => void {
  if (!shouldAskPermission(browserPermission(), readAsked())) return () => undefined;
  const timer = setTimeout(() => {
    rememberAsked();
    void globalThis.Notification.requestPermission().catch((error: unknown) => console.debug('Notification permission', error));
  }, delayMs);
  return () => clearTimeout(timer);
}

export interface SystemNotice {
  /** Same tag as the Web Push of the same notification, so the two replace each other. */
  tag: string;
  title: string;
  body: string;
  urgent: boolean;
  silent: boolean;
  url: string | null;
}

/** Shows a system notification; a click focuses this tab and opens the notification's target. */
export function showSystemNotification(notice: SystemNotice, open: (url: string) => void): boolean {
  if (browserPermission() !== 'granted') return false;
  try {
    const shown = new globalThis.Notification(notice.title, {
      body: notice.body,
      tag: notice.tag,
      icon: '/pwa-192x192.png',
      requireInteraction: notice.urgent,
      silent: notice.silent,
    });
    shown.onclick = () => {
      globalThis.focus?.();
      if (notice.url) open(notice.url);
      shown.close();
    };
    return true;
  } catch (error) {
    // Some mobile browsers allow notifications only from a service worker.
    console.debug('System notification failed', error);
    return false;
  }
}
