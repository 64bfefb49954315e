import { SHELL } from '@versus/domain';

// Splash timing (SPEC §2 Splash, §9 Shell): visible for at least 2000 ms from the start of the
// page, and until the fonts are ready plus 500 ms; then it hides 200 ms after loading ends.

export interface SplashTimes {
  /** ms on the page clock (performance.now()) when the page started: 0. */
  startedAt: number;
  /** ms on the page clock when document.fonts.ready resolved. */
  fontsReadyAt: number;
}

/** When loading ends: both the minimum time and the fonts (+500 ms) are behind us. */
export function splashLoadedAt({ startedAt, fontsReadyAt }: SplashTimes): number {
  return Math.max(startedAt + SHELL.splashMinMs, fontsReadyAt + SHELL.splashAfterFontsMs);
}

/** When the splash starts hiding. */
export function splashHideAt(times: SplashTimes): number {
  return splashLoadedAt(times) + SHELL.splashHideDelayMs;
}

/** Hides the splash that index.html paints before the app's script runs. */
export function hideSplash(): void {
  const splash = document.getElementById('splash');
  if (!splash || splash.classList.contains('is-hidden')) return;
  splash.classList.add('is-hidden');
  splash.setAttribute('aria-hidden', 'true');
  // After the fade, take it out of the page entirely.
  setTimeout(() => splash.remove(), 400);
}
