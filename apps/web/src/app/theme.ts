import { useSyncExternalStore } from 'react';
import type { AccountType } from '@versus/domain';

// Themes (SPEC §1, §4): dark (default) or light, chosen by the user and stored on this device;
// retro is forced while a virtual account is signed in, and leaving it returns to the choice.

export type ThemeChoice = 'dark' | 'light';
export type Theme = ThemeChoice | 'retro';

const THEME_KEY = 'versus:theme';

/** The theme to show: retro for a signed-in virtual account, otherwise the user's choice. */
export function resolveTheme(choice: ThemeChoice, signedInAccountType: AccountType | null): Theme {
  return signedInAccountType === 'virtual' ? 'retro' : choice;
}

export function parseThemeChoice(value: string | null | undefined): ThemeChoice {
  return value === 'light' ? 'light' : 'dark';
}

let choice: ThemeChoice = readChoice();
const listeners = new Set<() => void>();

function readChoice(): ThemeChoice {
  try {
    return parseThemeChoice(typeof localStorage === 'undefined' ? null : localStorage.getItem(THEME_KEY));
  } catch (error) {
    console.warn('Local storage unavailable', error);
    return 'dark';
  }
}

export function setThemeChoice(next: ThemeChoice): void {
  choice = next;
  try {
    localStorage.setItem(THEME_KEY, next);
  } catch (error) {
    console.warn('Could not store the theme', error);
  }
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function useThemeChoice(): ThemeChoice {
  return useSyncExternalStore(
    subscribe,
    () => choice,
    () => 'dark',
  );
}

/** Puts the theme on <html data-theme> and the virtual-mode class on <body>. */
export function applyTheme(theme: Theme, virtualMode: boolean): void {
  const root = document.documentElement;
  root.dataset.theme = theme;
  document.body.classList.toggle('virtual-mode', virtualMode);
  const meta = document.querySelector<HTMLMetaElement>('meta[name="theme-color"]');
  if (meta) meta.content = theme === 'light' ? '#f5f4fb' : theme === 'retro' ? '#0a0118' : '#09080f';
}
