// Arrow-key movement over a square board of buttons (one tab stop: roving tabindex).
import { useCallback, useRef, useState, type KeyboardEvent } from 'react';

export function useGridKeys(size: number, initial = 0, skip: (index: number) => boolean = () => false) {
  const [focused, setFocused] = useState(initial);
  const refs = useRef<(HTMLElement | null)[]>([]);

  const onKeyDown = useCallback(
    (event: KeyboardEvent) => {
      const steps: Record<string, [number, number]> = {
        ArrowUp: [-1, 0],
        ArrowDown: [1, 0],
        ArrowLeft: [0, -1],
        ArrowRight: [0, 1],
      };
      let target: number | null = null;
      if (event.key === 'Home') target = Math.floor(focused / size) * size;
      else if (event.key === 'End') target = Math.floor(focused / size) * size + size - 1;
      else if (steps[event.key]) {
        const [dr, dc] = steps[event.key]!;
        let row = Math.floor(focused / size);
        let col = focused % size;
        // Move on until a square that may take focus (checkers' light squares may not).
        for (let i = 0; i < size; i++) {
          row += dr;
          col += dc;
          if (row < 0 || row >= size || col < 0 || col >= size) break;
          if (!skip(row * size + col)) {
            target = row * size + col;
            break;
          }
        }
      }
      if (target === null) return;
      event.preventDefault();
      setFocused(target);
      refs.current[target]?.focus();
    },
    [focused, size, skip],
  );

  const itemProps = (index: number) => ({
    ref: (el: HTMLElement | null) => {
      refs.current[index] = el;
    },
    tabIndex: index === focused ? 0 : -1,
    onFocus: () => setFocused(index),
  });

  return { onKeyDown, itemProps };
}
