// Runs the channels decideDelivery() picks for a new notification: sonner toast (with SPEC §9's
// duplicate window), Web Audio sound, system notification, vibration.
import { toast } from 'sonner';
import { NOTIFICATIONS } from '@versus/domain';
import type { Notification, NotificationPreferences } from '@versus/domain/notifications';
import { browserPermission, showSystemNotification } from './browser-notification.ts';
import { decideDelivery, type ToastTone } from './delivery.ts';
import { playSound } from './sound.ts';
import { ToastDeduper } from './toast-dedupe.ts';
import { interactionGate } from './vibration.ts';

const deduper = new ToastDeduper();

const SHOW: Record<ToastTone, typeof toast.success> = {
  success: toast.success,
  info: toast.info,
  warning: toast.warning,
  error: toast.error,
  critical: toast.error,
  default: toast,
};

/** The tag the server's Web Push uses for it (push.service.ts), so both show as one. */
const systemTag = (n: Notification) => (n.matchId ? `${n.type}:${n.matchId}` : `notification:${n.id}`);

/** Same title and subject: a repeat of the same news, whatever its id. */
const dedupeKey = (n: Notification) => `${n.type}|${n.matchId ?? ''}|${n.challengeId ?? ''}|${n.title}`;

export function deliverNotification(n: Notification, prefs: NotificationPreferences, open: (url: string) => void): void {
  try {
    const delivery = decideDelivery(n, prefs, {
      now: new Date(),
      tabHidden: document.visibilityState === 'hidden',
      permission: browserPermission(),
      interacted: interactionGate.hasInteracted,
    });
    if (delivery.toast && deduper.allow(dedupeKey(n), Date.now())) {
      const action = n.actions[0];
      SHOW[delivery.toast.tone](n.title, {
        id: `notification-${n.id}`,
        description: n.message,
        duration: delivery.toast.durationMs,
        action: action ? { label: action.label, onClick: () => open(action.url) } : undefined,
      });
    }
    if (delivery.sound) playSound(delivery.sound);
    if (delivery.system) {
      showSystemNotification(
        { tag: systemTag(n), title: n.title, body: n.message, urgent: n.urgent, silent: n.silent, url: n.targetUrl },
        open,
      );
    }
    if (delivery.vibrate) interactionGate.vibrate(delivery.vibrate);
  } catch (error) {
    console.error('Notification delivery failed', error);
    toast.error(NOTIFICATIONS.errorTitle, { description: NOTIFICATIONS.errorText });
  }
}
