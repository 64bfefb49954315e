import { ShieldCheck, Sparkles, UserPlus, LogIn, Users } from 'lucide-react';
import { PRODUCT_NAME, SHELL_TEXT, TAGLINE } from '@versus/domain';
import { FallingTextCanvas } from './FallingTextCanvas.tsx';
import { GateCarousel } from './GateCarousel.tsx';
import { GATE_TEXT } from './gate.content.ts';

export interface GatePageProps {
  onSignIn(): void;
  onCreateAccount(): void;
}

/** What a signed-out visitor sees on every gated route (SPEC §1, §2 Gate behaviour). */
export function GatePage({ onSignIn, onCreateAccount }: GatePageProps) {
  return (
    <div className="relative isolate overflow-hidden" data-testid="gate-page">
      <div aria-hidden="true" className="absolute inset-0 -z-10 overflow-hidden">
        <FallingTextCanvas className="opacity-25 [mask-image:linear-gradient(to_bottom,black_0%,black_55%,transparent_100%)]" />
        <div className="absolute -top-32 left-1/2 size-[36rem] -translate-x-1/2 rounded-full bg-accent/20 blur-3xl" />
        <div className="absolute -right-24 bottom-0 size-[28rem] rounded-full bg-accent-2/10 blur-3xl" />
      </div>

      <div className="mx-auto grid w-full max-w-6xl gap-8 px-4 py-10 sm:px-6 sm:py-16 lg:grid-cols-[minmax(0,1.25fr)_minmax(0,1fr)] lg:gap-x-12 lg:gap-y-10 lg:px-8 lg:py-24">
        <header className="lg:col-start-1 lg:row-start-1">
          <p className="inline-flex items-center gap-2 rounded-full border border-accent/40 bg-accent/10 px-3 py-1 text-xs font-bold uppercase tracking-[0.2em] text-accent">
            <Sparkles className="size-3.5" aria-hidden="true" />
            {PRODUCT_NAME} · {GATE_TEXT.eyebrow}
          </p>
          <h1 className="mt-5 font-display text-4xl leading-[1.05] font-black text-fg sm:text-5xl lg:text-[3.25rem] xl:text-6xl">
            {SHELL_TEXT.gateTitle.split(' ').slice(0, -1).join(' ')}{' '}
            <span className="text-brand">{SHELL_TEXT.gateTitle.split(' ').slice(-1)}</span>
          </h1>
          <p className="mt-4 font-display text-lg font-bold tracking-wide text-fg/90 sm:text-xl">{TAGLINE}</p>
          <p className="mt-3 max-w-xl text-base leading-relaxed text-muted">{GATE_TEXT.intro}</p>
        </header>

        <aside
          aria-labelledby="gate-get-started"
          className="glass self-center rounded-3xl p-6 shadow-glow sm:p-8 lg:col-start-2 lg:row-span-2 lg:row-start-1"
        >
          <h2 id="gate-get-started" className="font-display text-2xl font-black text-fg">
            {GATE_TEXT.getStarted}
          </h2>
          <p className="mt-2 text-sm leading-relaxed text-muted">{GATE_TEXT.getStartedText}</p>
          <div className="mt-6 grid gap-3">
            <button
              type="button"
              onClick={onCreateAccount}
              className="bg-brand inline-flex h-12 items-center justify-center gap-2 rounded-xl px-5 font-bold text-accent-fg shadow-glow hover:brightness-110 motion-safe:transition active:scale-[0.99]"
            >
              <UserPlus className="size-5" aria-hidden="true" />
              {GATE_TEXT.createAccount}
            </button>
            <button
              type="button"
              onClick={onSignIn}
              className="inline-flex h-12 items-center justify-center gap-2 rounded-xl border border-border bg-surface-2/60 px-5 font-bold text-fg hover:border-accent-2/60 hover:bg-surface-2 motion-safe:transition active:scale-[0.99]"
            >
              <LogIn className="size-5" aria-hidden="true" />
              {GATE_TEXT.signIn}
            </button>
          </div>
          <ul className="mt-6 grid gap-3 border-t border-border/70 pt-5 text-sm">
            <li className="flex items-start gap-3">
              <ShieldCheck className="mt-0.5 size-5 shrink-0 text-success" aria-hidden="true" />
              <span className="text-fg/90">{SHELL_TEXT.gateSecure}</span>
            </li>
            <li className="flex items-start gap-3">
              <Users className="mt-0.5 size-5 shrink-0 text-accent-2" aria-hidden="true" />
              <span className="text-fg/90">{SHELL_TEXT.gateJoin}</span>
            </li>
          </ul>
          <p className="mt-5 text-xs text-muted">{GATE_TEXT.adults}</p>
        </aside>

        <GateCarousel className="lg:col-start-1 lg:row-start-2" />
      </div>
    </div>
  );
}
