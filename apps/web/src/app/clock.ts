import { useEffect, useState } from 'react';
import { SHELL } from '@versus/domain';

/** SPEC §4 Ticking clock: every second while the tab is visible, every 5 s while hidden. */
export function clockIntervalMs(visibility: DocumentVisibilityState): number {
  return visibility === 'hidden' ? SHELL.clockHiddenMs : SHELL.clockVisibleMs;
}

/** The current time in ms, re-rendering on the ticking clock (countdowns, "time left"). */
export function useTickingClock(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let timer: ReturnType<typeof setInterval>;
    const start = () => {
      clearInterval(timer);
      timer = setInterval(() => setNow(Date.now()), clockIntervalMs(document.visibilityState));
    };
    const onVisibility = () => {
      setNow(Date.now());
      start();
    };
    start();
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, []);
  return now;
}
