import { lazy, Suspense, useEffect, useState } from 'react';
import { Download, Share, X } from 'lucide-react';
import { PWA, SHELL } from '@versus/domain';
import { isStandalone } from '../../app/standalone.ts';
import { Button } from '../../ui/Button.tsx';
import { LogoMark } from '../../app/Logo.tsx';
import { installPromptKind, isIosSafari, PROMPT_DISMISSED_KEY, PROMPT_SHOWN_KEY, type InstallPromptKind } from './install-prompt.ts';
import { openInstallGuide, promptInstall, useInstallState } from './install-store.ts';
import { registerServiceWorker } from './register-sw.ts';

function sessionFlag(key: string): boolean {
  try {
    return sessionStorage.getItem(key) === '1';
  } catch (error) {
    console.debug('sessionStorage unavailable', error);
    return false;
  }
}

function setSessionFlag(key: string): void {
  try {
    sessionStorage.setItem(key, '1');
  } catch (error) {
    console.debug('sessionStorage unavailable', error);
  }
}

const iosSafari = () => isIosSafari(navigator.userAgent, navigator.maxTouchPoints);
const InstallGuide = lazy(() => import('./InstallGuide.tsx'));

/** SPEC §4 PWA install prompt and guide; also registers the service worker. */
export function InstallPrompt() {
  const { offer, installed, guideOpen } = useInstallState();
  const [delayElapsed, setDelayElapsed] = useState(false);
  const [kind, setKind] = useState<InstallPromptKind | null>(null);

  useEffect(() => {
    registerServiceWorker();
    const timer = setTimeout(() => setDelayElapsed(true), SHELL.pwaPromptDelayMs);
    return () => clearTimeout(timer);
  }, []);

  useEffect(() => {
    if (kind !== null) return;
    const next = installPromptKind({
      viewportWidth: window.innerWidth,
      standalone: installed || isStandalone(),
      canPrompt: offer !== null,
      canGuide: iosSafari(),
      delayElapsed,
      shownThisSession: sessionFlag(PROMPT_SHOWN_KEY),
      dismissedThisSession: sessionFlag(PROMPT_DISMISSED_KEY),
    });
    if (next === null) return;
    setSessionFlag(PROMPT_SHOWN_KEY);
    setKind(next);
  }, [delayElapsed, offer, installed, kind]);

  const visible = kind !== null && !installed;

  const dismiss = () => {
    setSessionFlag(PROMPT_DISMISSED_KEY);
    setKind(null);
  };

  const install = async () => {
    if (kind === 'guide' || offer === null) {
      setKind(null);
      openInstallGuide();
      return;
    }
    setKind(null);
    try {
      const outcome = await promptInstall();
      if (outcome === 'dismissed') setSessionFlag(PROMPT_DISMISSED_KEY);
    } catch (error) {
      console.warn('Install prompt failed', error);
      openInstallGuide();
    }
  };

  return (
    <>
      {visible && (
        <section
          role="dialog"
          aria-modal="false"
          aria-labelledby="pwa-prompt-title"
          aria-describedby="pwa-prompt-body"
          data-testid="pwa-install-prompt"
          className="fixed inset-x-3 bottom-[calc(5rem+env(safe-area-inset-bottom))] z-[70] mx-auto max-w-md animate-rise rounded-2xl border border-border bg-surface/95 p-4 shadow-2xl shadow-black/50 backdrop-blur-xl"
        >
          <div className="flex items-start gap-3">
            <LogoMark className="size-11 shrink-0" />
            <div className="min-w-0 flex-1">
              <h2 id="pwa-prompt-title" className="font-extrabold tracking-tight">
                {PWA.promptTitle}
              </h2>
              <p id="pwa-prompt-body" className="mt-0.5 text-sm text-muted">
                {PWA.promptBody}
              </p>
            </div>
            <button
              type="button"
              aria-label={PWA.notNow}
              onClick={dismiss}
              className="-mt-1 -mr-1 inline-flex size-8 shrink-0 items-center justify-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
            >
              <X className="size-4" aria-hidden />
            </button>
          </div>
          <div className="mt-3 flex justify-end gap-2">
            <Button variant="ghost" size="sm" onClick={dismiss}>
              {PWA.notNow}
            </Button>
            <Button size="sm" onClick={() => void install()}>
              {kind === 'guide' ? <Share className="size-4" aria-hidden /> : <Download className="size-4" aria-hidden />}
              {kind === 'guide' ? PWA.howToInstall : PWA.install}
            </Button>
          </div>
        </section>
      )}
      {/* The guide's dialog code loads the first time it opens, not with every first page. */}
      {guideOpen && (
        <Suspense fallback={null}>
          <InstallGuide open />
        </Suspense>
      )}
    </>
  );
}
