import { useEffect, useRef, useState } from 'react';
import { ArrowLeft, ArrowRight, Check, Rocket } from 'lucide-react';
import { WIZARD, type Currency } from '@versus/domain';
import { scheduleSlots } from '@versus/domain/catalogue';
import type { CreateChallengeResponse } from '@versus/domain/challenges';
import { Button, cn } from '../../ui/index.ts';
import { newIdempotencyKey } from './challenges.api.ts';
import { EscrowDialog, type Launch } from './EscrowDialog.tsx';
import { useStakeBalance } from './use-stake-balance.ts';
import { useGamertagPrefill } from '../verification/gamertag-prefill.ts';
import { ConfirmStep, GameStep, ScheduleStep, StakeStep } from './WizardSteps.tsx';
import {
  LAST_STEP,
  WIZARD_STEPS,
  draftPlatform,
  furthestReachable,
  stepProblem,
  toCreateRequest,
  type StepIndex,
  type WizardDraft,
} from './wizard.ts';

export interface ChallengeWizardProps {
  initialDraft: WizardDraft;
  initialStep: StepIndex;
  currency: Currency;
  virtual: boolean;
  /** A rematch: the opponent's name, shown on the Schedule and Confirm steps. */
  rematchName: string | null;
  /** The challenge exists (public: the page moves on; private: the dialog shows the code first). */
  onCreated: (created: CreateChallengeResponse) => void;
  /** Done after a private challenge's code was shown. */
  onDone: (created: CreateChallengeResponse) => void;
}

/** SPEC §4 Wizard: Choose Game, Set Stakes, Schedule, Confirm; Next only when the step is valid; Launch opens the escrow dialog. */
export function ChallengeWizard({ initialDraft, initialStep, currency, virtual, rematchName, onCreated, onDone }: ChallengeWizardProps) {
  const [draft, setDraft] = useState(initialDraft);
  const [step, setStep] = useState<StepIndex>(initialStep);
  const [slotsFrom, setSlotsFrom] = useState(() => new Date());
  const [launch, setLaunch] = useState<Launch | null>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const rootRef = useRef<HTMLDivElement>(null);
  const moved = useRef(false);
  const balance = useStakeBalance();
  useGamertagPrefill<WizardDraft>(draftPlatform(draft), setDraft);

  const now = new Date();
  const slots = scheduleSlots(slotsFrom);
  const problem = stepProblem(step, draft, now);
  const reachable = furthestReachable(draft, now);

  // After a step change, focus its heading so a screen reader announces where the player is, and
  // bring it into view below the sticky header when it is out of sight.
  useEffect(() => {
    const heading = headingRef.current;
    if (!moved.current || !heading) return;
    heading.focus({ preventScroll: true });
    const top = heading.getBoundingClientRect().top;
    if (top < 80 || top > window.innerHeight * 0.6) {
      const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
      // The whole wizard from its step indicator, so the player also sees where they are.
      (rootRef.current ?? heading).scrollIntoView({ block: 'start', behavior: smooth ? 'smooth' : 'auto' });
    }
  }, [step]);

  const goTo = (next: StepIndex) => {
    if (next === 2) {
      // Fresh slots each time the Schedule step opens; a chosen slot that has passed is dropped.
      const fresh = new Date();
      setSlotsFrom(fresh);
      if (draft.scheduledTime && !scheduleSlots(fresh).some((s) => s.toISOString() === draft.scheduledTime)) {
        setDraft((d) => ({ ...d, scheduledTime: null }));
      }
    }
    moved.current = true;
    setStep(next);
  };

  const onLaunch = () => {
    if (stepProblem(LAST_STEP, draft, new Date()) || draft.stake === null) return;
    setLaunch({ key: newIdempotencyKey(), request: toCreateRequest(draft), stake: draft.stake, currency });
  };

  const hintId = 'wizard-step-hint';
  return (
    <div
      ref={rootRef}
      className="glass scroll-mt-20 rounded-3xl p-4 shadow-xl shadow-black/20 sm:p-7"
      data-testid="challenge-wizard"
      data-step={step + 1}
    >
      <nav aria-label="Wizard steps">
        <ol className="grid grid-cols-4 gap-1.5 sm:gap-3">
          {WIZARD_STEPS.map((label, index) => {
            const i = index as StepIndex;
            const done = i < step;
            const current = i === step;
            return (
              <li key={label} className="min-w-0">
                <button
                  type="button"
                  onClick={() => goTo(i)}
                  disabled={i > reachable || current}
                  aria-current={current ? 'step' : undefined}
                  className="group flex w-full flex-col items-center gap-1.5 rounded-xl px-0.5 py-1 text-center disabled:cursor-default"
                >
                  <span
                    className={cn(
                      'relative grid size-8 place-items-center rounded-full border-2 text-sm font-black transition-colors sm:size-9',
                      current && 'border-accent bg-accent-solid text-accent-fg shadow-glow',
                      done && 'border-success bg-success/15 text-success',
                      !current && !done && 'border-border text-muted',
                    )}
                  >
                    {done ? <Check className="size-4" strokeWidth={3} aria-hidden /> : i + 1}
                  </span>
                  <span
                    className={cn(
                      'text-[0.68rem] leading-tight font-semibold sm:text-xs',
                      current ? 'text-fg' : done ? 'text-success' : 'text-muted',
                    )}
                  >
                    <span className="sr-only">Step {i + 1}: </span>
                    {label}
                    {done && <span className="sr-only"> (done)</span>}
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        <div aria-hidden className="mx-4 mt-2 h-1 overflow-hidden rounded-full bg-surface-2">
          <div className="bg-brand h-full rounded-full transition-[width] duration-300" style={{ width: `${(step / LAST_STEP) * 100}%` }} />
        </div>
      </nav>

      <section aria-labelledby="wizard-step-title" className="mt-6">
        <h2 id="wizard-step-title" ref={headingRef} tabIndex={-1} className="scroll-mt-24 text-xl font-black outline-none sm:text-2xl">
          <span className="mr-2 text-sm font-bold text-muted">
            Step {step + 1} of {WIZARD_STEPS.length}
          </span>
          <span className="block sm:inline">{WIZARD_STEPS[step]}</span>
        </h2>
        <div className="mt-5">
          {step === 0 && <GameStep draft={draft} onChange={setDraft} />}
          {step === 1 && <StakeStep draft={draft} onChange={setDraft} currency={currency} balance={balance.data} />}
          {step === 2 && (
            <ScheduleStep draft={draft} onChange={setDraft} slots={slots} now={now} virtual={virtual} rematchName={rematchName} />
          )}
          {step === 3 && <ConfirmStep draft={draft} currency={currency} rematchName={rematchName} />}
        </div>
      </section>

      <div className="mt-8 flex flex-col gap-3 border-t border-border/60 pt-5 sm:flex-row sm:items-center">
        <p id={hintId} className="min-h-5 text-sm text-muted sm:flex-1" data-testid="wizard-hint">
          {problem ?? (step === LAST_STEP ? 'Ready when you are.' : '')}
        </p>
        <div className="flex gap-2">
          <Button variant="secondary" className="h-12 sm:px-5" onClick={() => goTo((step - 1) as StepIndex)} disabled={step === 0}>
            <ArrowLeft className="size-4" aria-hidden />
            Back
          </Button>
          {step < LAST_STEP ? (
            <Button
              className="h-12 grow text-base sm:grow-0 sm:px-6"
              onClick={() => goTo((step + 1) as StepIndex)}
              disabled={problem !== null}
              aria-describedby={problem ? hintId : undefined}
            >
              Next
              <ArrowRight className="size-4" aria-hidden />
            </Button>
          ) : (
            <Button className="h-12 grow sm:grow-0 sm:px-6 sm:text-base" onClick={onLaunch} disabled={problem !== null || launch !== null}>
              <Rocket className="size-4" aria-hidden />
              {WIZARD.launch}
            </Button>
          )}
        </div>
      </div>

      <EscrowDialog launch={launch} onClose={() => setLaunch(null)} onCreated={onCreated} onDone={onDone} />
    </div>
  );
}
