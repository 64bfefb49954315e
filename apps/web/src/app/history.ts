import { SHELL } from '@versus/domain';

// Installed-app navigation (SPEC §2): a back button with the stack depth, history capped at 50.

export type NavigationAction = 'PUSH' | 'POP' | 'REPLACE';

/** The in-app stack after a navigation; the oldest entries drop off past the cap. */
export function nextHistory(stack: readonly string[], action: NavigationAction, entry: string, cap: number = SHELL.historyCap): string[] {
  if (action === 'REPLACE') {
    return stack.length === 0 ? [entry] : [...stack.slice(0, -1), entry];
  }
  if (action === 'POP') {
    // Going back to the entry below the top: drop the top. Otherwise (forward, or an entry we
    // never saw) treat it as a new visit.
    if (stack.length >= 2 && stack[stack.length - 2] === entry) return stack.slice(0, -1);
    if (stack[stack.length - 1] === entry) return [...stack];
  }
  const next = [...stack, entry];
  return next.length > cap ? next.slice(next.length - cap) : next;
}
