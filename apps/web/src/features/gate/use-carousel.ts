import { useCallback, useEffect, useState } from 'react';
import { nextIndex, previousIndex, wrapIndex } from './carousel.ts';
import { useDocumentVisible } from './use-media-query.ts';

export interface Carousel {
  index: number;
  /** True while auto-advance is held: hover, keyboard focus, the pause button or a hidden tab. */
  paused: boolean;
  userPaused: boolean;
  select(index: number): void;
  next(): void;
  previous(): void;
  setHovered(hovered: boolean): void;
  setFocused(focused: boolean): void;
  toggleUserPaused(): void;
}

/** Auto-advances every `intervalMs`; any change restarts the wait, so a chosen slide gets its full time. */
export function useCarousel(count: number, intervalMs: number): Carousel {
  const [index, setIndex] = useState(0);
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const [userPaused, setUserPaused] = useState(false);
  const visible = useDocumentVisible();
  const paused = hovered || focused || userPaused || !visible;

  useEffect(() => {
    if (paused || count < 2) return;
    const timer = window.setTimeout(() => setIndex((i) => nextIndex(i, count)), intervalMs);
    return () => window.clearTimeout(timer);
  }, [index, paused, count, intervalMs]);

  const select = useCallback((i: number) => setIndex(wrapIndex(i, count)), [count]);
  const next = useCallback(() => setIndex((i) => nextIndex(i, count)), [count]);
  const previous = useCallback(() => setIndex((i) => previousIndex(i, count)), [count]);
  const toggleUserPaused = useCallback(() => setUserPaused((p) => !p), []);

  return { index, paused, userPaused, select, next, previous, setHovered, setFocused, toggleUserPaused };
}
