import { useCallback, useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Circle, CircleCheck, CircleX, Copy, LoaderCircle, ShieldCheck } from 'lucide-react';
import { CHALLENGE, WIZARD, type Currency } from '@versus/domain';
import type { CreateChallengeRequest, CreateChallengeResponse } from '@versus/domain/challenges';
import { Button, Dialog, DialogActions, DialogContent, cn } from '../../ui/index.ts';
import { freshToken } from '../auth/session-store.ts';
import { challengeKeys, createChallenge } from './challenges.api.ts';
import {
  ESCROW_STEP_IDS,
  ESCROW_STEP_LABELS,
  StepFailure,
  currentStep,
  initialProgress,
  runEscrow,
  type EscrowProgress,
  type EscrowStepId,
  type EscrowStepStatus,
} from './escrow.ts';
import { useBalanceActions } from './use-stake-balance.ts';
import { stakeMoney } from './visuals.ts';

/** Long enough to read each step, short enough not to feel staged (SPEC's 1.5–2.5 s was a simulation). */
const MIN_STEP_MS = 450;

const STEP_HINTS: Record<EscrowStepId, string> = {
  auth: 'Checking your session',
  balance: 'Reading your available balance',
  lock: 'Locking your stake and posting the challenge',
  update: 'Refreshing your balance and the challenge lists',
};

const STATUS_TEXT: Record<EscrowStepStatus, string> = {
  pending: 'Pending',
  processing: 'Processing…',
  completed: 'Completed',
  failed: 'Failed',
};

export interface Launch {
  /** The Idempotency-Key of this launch: a Retry sends the same one. */
  key: string;
  request: CreateChallengeRequest;
  stake: number;
  currency: Currency;
}

export interface EscrowDialogProps {
  launch: Launch | null;
  /** Closed without a challenge (Cancel, Escape) or after Done. */
  onClose: () => void;
  /** The challenge exists and its stake is locked. */
  onCreated: (created: CreateChallengeResponse) => void;
  /** What Done does once a private challenge's code has been shown. */
  onDone: (created: CreateChallengeResponse) => void;
}

/** SPEC §4 escrow dialog: the four steps of the real creation call, with Retry and Cancel. */
export function EscrowDialog({ launch, onClose, onCreated, onDone }: EscrowDialogProps) {
  const [progress, setProgress] = useState<EscrowProgress>(initialProgress);
  const [created, setCreated] = useState<CreateChallengeResponse | null>(null);
  const running = useRef(false);
  const cancelled = useRef(false);
  const mounted = useRef(true);
  const queryClient = useQueryClient();
  const balance = useBalanceActions();

  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
    };
  }, []);

  const run = useCallback(
    async (current: Launch) => {
      if (running.current) return;
      running.current = true;
      cancelled.current = false;
      setCreated(null);
      try {
        const result = await runEscrow(
          { stake: current.stake },
          {
            checkSession: async () => (await freshToken()) !== null,
            readBalance: async () => {
              const read = await balance.readNow();
              return { availableMinor: read.availableMinor, currency: read.currency };
            },
            lock: async () => {
              // Cancelled during the first two steps: nothing is locked, and nothing will be.
              if (cancelled.current) throw new StepFailure(CHALLENGE.createFailed, CHALLENGE.createErrorTitle);
              return createChallenge(current.request, current.key);
            },
            refresh: async () => {
              await Promise.all([queryClient.invalidateQueries({ queryKey: challengeKeys.all }), balance.refresh()]);
            },
            onProgress: (next) => {
              if (mounted.current && !cancelled.current) setProgress(next);
            },
            minStepMs: MIN_STEP_MS,
          },
        );
        if (cancelled.current || !mounted.current) {
          // Closed while the lock was already on its way: the challenge exists, say so.
          if (result.ok) toastCreated(result.result);
          return;
        }
        if (result.ok) {
          toastCreated(result.result);
          setCreated(result.result);
          onCreated(result.result);
        } else {
          toast.error(result.title, { description: result.message });
        }
      } finally {
        running.current = false;
      }
    },
    [balance, onCreated, queryClient],
  );

  useEffect(() => {
    if (!launch) return;
    setProgress(initialProgress());
    void run(launch);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- a new launch (a new key) starts a new run; nothing else does.
  }, [launch?.key]);

  const locking = progress.steps.lock === 'processing';
  const failed = currentStep(progress) !== null && progress.error !== null;
  const busy = !failed && !progress.done;

  const close = () => {
    if (locking) return; // the lock is on its way: its answer decides what exists
    cancelled.current = true;
    if (created) onDone(created);
    else onClose();
  };

  const code = created?.challenge.code ?? null;
  const title = created ? CHALLENGE.createdTitle : failed ? 'Escrow lock failed' : 'Launching your challenge';
  const description = launch
    ? created
      ? created.message
      : `Locking your ${stakeMoney(launch.stake, launch.currency)} stake in escrow.`
    : undefined;

  return (
    <Dialog open={launch !== null} onOpenChange={(open) => !open && close()}>
      {launch && (
        <DialogContent
          title={title}
          description={description}
          hideClose={locking}
          data-testid="escrow-dialog"
          header={
            <span className="mb-4 inline-flex size-12 items-center justify-center rounded-2xl bg-accent/15 text-accent ring-1 ring-accent/30">
              <ShieldCheck className="size-6" aria-hidden />
            </span>
          }
        >
          <ol aria-label="Escrow progress" className="grid grid-cols-1 gap-2">
            {ESCROW_STEP_IDS.map((id, index) => (
              <EscrowStep key={id} id={id} index={index} status={progress.steps[id]} />
            ))}
          </ol>
          <p aria-live="polite" className="sr-only">
            {announcement(progress, created)}
          </p>

          {failed && (
            <p
              role="alert"
              data-testid="escrow-error"
              className="mt-4 rounded-xl border border-danger/40 bg-danger/10 px-3.5 py-3 text-sm text-danger"
            >
              {progress.error}
            </p>
          )}

          {code && (
            <div className="mt-4 rounded-2xl border border-accent-2/40 bg-accent-2/10 p-4 text-center">
              <p className="text-xs font-semibold tracking-wide text-muted uppercase">Challenge code</p>
              <p data-testid="challenge-code" className="mt-1 font-mono text-3xl font-black tracking-[0.3em] text-accent-2">
                {code}
              </p>
              <p className="mt-1 text-xs text-muted">Share it: only players with the code can accept.</p>
            </div>
          )}

          <DialogActions className="mt-6">
            {created ? (
              <>
                {code && (
                  <Button variant="secondary" onClick={() => copyCode(code)}>
                    <Copy className="size-4" aria-hidden />
                    Copy code
                  </Button>
                )}
                <Button onClick={close}>Done</Button>
              </>
            ) : (
              <>
                <Button variant="ghost" onClick={close} disabled={locking}>
                  {WIZARD.cancel}
                </Button>
                {failed && (
                  <Button onClick={() => void run(launch)} autoFocus>
                    {WIZARD.retry}
                  </Button>
                )}
                {busy && (
                  <Button disabled loading>
                    Working…
                  </Button>
                )}
              </>
            )}
          </DialogActions>
        </DialogContent>
      )}
    </Dialog>
  );
}

function EscrowStep({ id, index, status }: { id: EscrowStepId; index: number; status: EscrowStepStatus }) {
  const Icon = { pending: Circle, processing: LoaderCircle, completed: CircleCheck, failed: CircleX }[status];
  return (
    <li
      data-testid={`escrow-step-${id}`}
      data-status={status}
      aria-current={status === 'processing' ? 'step' : undefined}
      className={cn(
        'flex min-w-0 items-center gap-3 rounded-xl border px-3.5 py-3 transition-colors',
        status === 'processing' && 'border-accent/60 bg-accent/10',
        status === 'completed' && 'border-success/40 bg-success/5',
        status === 'failed' && 'border-danger/50 bg-danger/10',
        status === 'pending' && 'border-border bg-bg/40',
      )}
    >
      <Icon
        aria-hidden
        className={cn(
          'size-5 shrink-0',
          status === 'pending' && 'text-muted/60',
          status === 'processing' && 'animate-spin text-accent',
          status === 'completed' && 'text-success',
          status === 'failed' && 'text-danger',
        )}
      />
      <div className="min-w-0 flex-1">
        <p className="text-sm font-bold">
          <span className="sr-only">Step {index + 1}: </span>
          {ESCROW_STEP_LABELS[id]}
        </p>
        <p className="text-xs leading-snug text-muted">{STEP_HINTS[id]}</p>
      </div>
      <span
        className={cn(
          'shrink-0 text-xs font-semibold',
          status === 'completed'
            ? 'text-success'
            : status === 'failed'
              ? 'text-danger'
              : status === 'processing'
                ? 'text-accent'
                : 'text-muted',
        )}
      >
        {STATUS_TEXT[status]}
      </span>
    </li>
  );
}

function announcement(progress: EscrowProgress, created: CreateChallengeResponse | null): string {
  if (created) return `${CHALLENGE.createdTitle}. ${created.message}`;
  const step = currentStep(progress);
  if (!step) return '';
  const label = ESCROW_STEP_LABELS[step];
  return progress.steps[step] === 'failed' ? `${label} failed: ${progress.error ?? ''}` : `${label}: processing`;
}

function toastCreated(created: CreateChallengeResponse) {
  const code = created.challenge.code;
  toast.success(CHALLENGE.createdTitle, {
    description: code ? `Code ${code} · ${created.message}` : created.message,
  });
}

function copyCode(code: string) {
  navigator.clipboard
    .writeText(code)
    .then(() => toast.success('Code copied', { description: code }))
    .catch((error: unknown) => {
      console.warn('Copying the code failed', error);
      toast.error('Could not copy the code', { description: `Your code is ${code}.` });
    });
}
