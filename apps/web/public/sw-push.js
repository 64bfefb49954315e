// Push handling for the generated service worker (imported by sw.js, see vite.config.ts).
// A push carries JSON { title, body?, url?, tag?, icon?, id?, type?, urgent?, silent?, timestamp? }
// (the server's PushPayload, apps/server/src/notifications/push/push.service.ts; plain text
// becomes the body). An urgent one stays until the player acts on it; the notification opens
// `url` (same origin only) in an open Versus window, or a new one.
self.addEventListener('push', (event) => {
  let data = {};
  if (event.data) {
    try {
      data = event.data.json();
    } catch {
      data = { body: event.data.text() };
    }
  }
  const title = typeof data.title === 'string' && data.title ? data.title : 'Versus';
  const url = typeof data.url === 'string' ? data.url : '/';
  const tag = typeof data.tag === 'string' ? data.tag : undefined;
  const urgent = data.urgent === true;
  const timestamp = typeof data.timestamp === 'string' ? Date.parse(data.timestamp) : NaN;
  event.waitUntil(
    self.registration.showNotification(title, {
      body: typeof data.body === 'string' ? data.body : '',
      icon: typeof data.icon === 'string' ? data.icon : '/pwa-192x192.png',
      badge: '/pwa-192x192.png',
      // Same tag replaces an earlier notification instead of stacking duplicates; an urgent
      // replacement alerts again.
      tag,
      renotify: Boolean(tag) && urgent,
      requireInteraction: urgent,
      silent: data.silent === true,
      timestamp: Number.isFinite(timestamp) ? timestamp : undefined,
      data: { url, id: typeof data.id === 'string' ? data.id : null, type: typeof data.type === 'string' ? data.type : null },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  let target = new URL('/', self.location.origin);
  try {
    const asked = new URL(event.notification.data && event.notification.data.url ? event.notification.data.url : '/', self.location.origin);
    if (asked.origin === self.location.origin) target = asked;
  } catch (error) {
    console.warn('Push notification has a bad url', error);
  }
  event.waitUntil(
    self.clients.matchAll({ type: 'window', includeUncontrolled: true }).then((windows) => {
      const open = windows.find((client) => new URL(client.url).origin === target.origin);
      if (open) return open.focus().then((client) => (client && 'navigate' in client ? client.navigate(target.href) : client));
      return self.clients.openWindow(target.href);
    }),
  );
});
