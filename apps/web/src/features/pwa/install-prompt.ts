import { SHELL } from '@versus/domain';

// SPEC §4 PWA install prompt: on screens 768 px wide or less, 3 s after load, if not installed,
// supported, not already shown and not dismissed this session.

/** 'native': the browser's own install dialog is available; 'guide': the manual steps (iOS Safari). */
export type InstallPromptKind = 'native' | 'guide';

export interface InstallPromptInput {
  viewportWidth: number;
  /** Running as the installed app. */
  standalone: boolean;
  /** A beforeinstallprompt event was captured and not used yet. */
  canPrompt: boolean;
  /** A browser that installs only from its own menu (iOS Safari): we can show the steps. */
  canGuide: boolean;
  /** The 3 s since load have passed. */
  delayElapsed: boolean;
  shownThisSession: boolean;
  dismissedThisSession: boolean;
  maxWidth?: number;
}

/** Which prompt to show now, or null for none. */
export function installPromptKind(input: InstallPromptInput): InstallPromptKind | null {
  const maxWidth = input.maxWidth ?? SHELL.pwaPromptMaxWidth;
  if (!input.delayElapsed || input.standalone) return null;
  if (input.viewportWidth > maxWidth) return null;
  if (input.shownThisSession || input.dismissedThisSession) return null;
  if (input.canPrompt) return 'native';
  if (input.canGuide) return 'guide';
  return null;
}

/** Safari installs through Share → Add to Home Screen; other iOS browsers cannot install, so get no prompt. */
export function isIosSafari(userAgent: string, maxTouchPoints = 0): boolean {
  const iPadOsDesktopMode = /Macintosh/.test(userAgent) && maxTouchPoints > 1;
  const ios = /iPhone|iPad|iPod/.test(userAgent) || iPadOsDesktopMode;
  if (!ios) return false;
  return /Safari\//.test(userAgent) && !/CriOS|FxiOS|EdgiOS|OPiOS|GSA\/|DuckDuckGo/.test(userAgent);
}

/** The session's memory of the prompt (sessionStorage keys). */
export const PROMPT_SHOWN_KEY = 'versus:pwa-prompt-shown';
export const PROMPT_DISMISSED_KEY = 'versus:pwa-prompt-dismissed';
