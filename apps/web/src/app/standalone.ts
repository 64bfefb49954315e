// Installed-app (standalone PWA) mode, SPEC §4: a pwa-mode style; no zoom, context menu, drag or
// text selection (except in inputs and editable or selectable elements); portrait only.

export function isStandalone(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}

const EDITABLE = 'input, textarea, select, [contenteditable="true"], .selectable';

export function applyStandaloneMode(): () => void {
  if (!isStandalone()) return () => undefined;
  document.documentElement.classList.add('pwa-mode');
  document.body.classList.add('pwa-mode');

  const viewport = document.querySelector<HTMLMetaElement>('meta[name="viewport"]');
  const previousViewport = viewport?.content;
  if (viewport) viewport.content = 'width=device-width, initial-scale=1, maximum-scale=1, user-scalable=no, viewport-fit=cover';

  const allowed = (target: EventTarget | null) => target instanceof Element && target.closest(EDITABLE) !== null;
  const onContextMenu = (event: Event) => {
    if (!allowed(event.target)) event.preventDefault();
  };
  const onDragStart = (event: Event) => {
    if (!allowed(event.target)) event.preventDefault();
  };
  // Pinch zoom on iOS ignores user-scalable; gesturestart is the way to stop it there.
  const onGesture = (event: Event) => event.preventDefault();
  document.addEventListener('contextmenu', onContextMenu);
  document.addEventListener('dragstart', onDragStart);
  document.addEventListener('gesturestart', onGesture);

  const orientation = screen.orientation as ScreenOrientation & { lock?: (o: string) => Promise<void> };
  orientation.lock?.('portrait').catch((error: unknown) => {
    // Most browsers allow the lock only in fullscreen; the manifest's orientation covers the rest.
    console.debug('Orientation lock unavailable', error);
  });

  return () => {
    document.documentElement.classList.remove('pwa-mode');
    document.body.classList.remove('pwa-mode');
    if (viewport && previousViewport) viewport.content = previousViewport;
    document.removeEventListener('contextmenu', onContextMenu);
    document.removeEventListener('dragstart', onDragStart);
    document.removeEventListener('gesturestart', onGesture);
  };
}
