import { describe, expect, it } from 'vitest';
import { installPromptKind, isIosSafari, type InstallPromptInput } from './install-prompt.ts';

const base: InstallPromptInput = {
  viewportWidth: 390,
  standalone: false,
  canPrompt: true,
  canGuide: false,
  delayElapsed: true,
  shownThisSession: false,
  dismissedThisSession: false,
};

describe('installPromptKind', () => {
  it('shows the native prompt on a phone after the delay when the browser offers one', () => {
    expect(installPromptKind(base)).toBe('native');
  });

  it('waits for the 3 s delay', () => {
    expect(installPromptKind({ ...base, delayElapsed: false })).toBeNull();
  });

  it('shows on screens up to 768 px wide and not wider', () => {
    expect(installPromptKind({ ...base, viewportWidth: 768 })).toBe('native');
    expect(installPromptKind({ ...base, viewportWidth: 769 })).toBeNull();
    expect(installPromptKind({ ...base, viewportWidth: 1280 })).toBeNull();
  });

  it('never shows inside the installed app', () => {
    expect(installPromptKind({ ...base, standalone: true })).toBeNull();
    expect(installPromptKind({ ...base, standalone: true, canPrompt: false, canGuide: true })).toBeNull();
  });

  it('shows once per session and not after a dismissal', () => {
    expect(installPromptKind({ ...base, shownThisSession: true })).toBeNull();
    expect(installPromptKind({ ...base, dismissedThisSession: true })).toBeNull();
  });

  it('offers the guide where there is no install event but the steps work (iOS Safari)', () => {
    expect(installPromptKind({ ...base, canPrompt: false, canGuide: true })).toBe('guide');
    expect(installPromptKind({ ...base, canPrompt: true, canGuide: true })).toBe('native');
  });

  it('shows nothing where installing is not supported', () => {
    expect(installPromptKind({ ...base, canPrompt: false, canGuide: false })).toBeNull();
  });

  it('honours a custom width limit', () => {
    expect(installPromptKind({ ...base, viewportWidth: 500, maxWidth: 480 })).toBeNull();
  });
});

describe('isIosSafari', () => {
  const iphoneSafari =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';
  const iphoneChrome =
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/123.0.6312.52 Mobile/15E148 Safari/604.1';
  const ipadDesktop =
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15';
  const androidChrome =
    'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';

  it('recognises Safari on iPhone and on iPad in desktop mode', () => {
    expect(isIosSafari(iphoneSafari)).toBe(true);
    expect(isIosSafari(ipadDesktop, 5)).toBe(true);
  });

  it('rejects other iOS browsers, desktop Safari and Android', () => {
    expect(isIosSafari(iphoneChrome)).toBe(false);
    expect(isIosSafari(ipadDesktop, 0)).toBe(false);
    expect(isIosSafari(androidChrome, 5)).toBe(false);
  });
});
