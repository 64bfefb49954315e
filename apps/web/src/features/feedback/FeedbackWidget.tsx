import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useLocation } from 'react-router';
import { toast } from 'sonner';
import { Popover as RadixPopover } from 'radix-ui';
import { Camera, ImagePlus, MessageSquareText, Send, X } from 'lucide-react';
import { APP_VERSION, FEEDBACK_LIMITS, FEEDBACK_TEXT as T, checkFeedback, type Feedback } from '@versus/domain/feedback';
import { checkEvidenceFile } from '@versus/domain/results';
import { Button, Spinner, cn } from '../../ui/index.ts';
import { isMatchScreen } from '../../app/match-screen.ts';
import { useMediaQuery } from '../gate/use-media-query.ts';
import { useAuth } from '../auth/use-auth.ts';
import { canCaptureScreen, captureScreen, useFeedbackLive, useMyFeedback, useSendFeedback } from './feedback.api.ts';

const IMAGE_TYPES = 'image/jpeg,image/png,image/gif,image/webp,image/avif';

/** Where the widget's button sits: floating in the corner, in a match screen's controls, or in the phone's header. */
export type FeedbackPlacement = 'floating' | 'docked' | 'header';

/** From this width the button floats in the corner (Tailwind's `md`, where the bottom bar goes). */
const WIDE = '(min-width: 768px)';

/** The beta chat widget (SPEC §2); where it sits per screen: docs/decisions.md, "the phone's layout". */
export function FeedbackWidget({ placement = 'floating' }: { placement?: FeedbackPlacement }) {
  const { isAuthenticated } = useAuth();
  const location = useLocation();
  const wide = useMediaQuery(WIDE);
  const [open, setOpen] = useState(false);
  if (!isAuthenticated) return null;
  if (placement !== 'docked' && (isMatchScreen(location) || wide !== (placement === 'floating'))) return null;
  return (
    <RadixPopover.Root open={open} onOpenChange={setOpen}>
      <RadixPopover.Trigger asChild>
        {placement === 'docked' ? (
          <Button variant="outline" size="sm" data-testid="feedback-open">
            <MessageSquareText className="size-4" aria-hidden />
            {T.open}
          </Button>
        ) : placement === 'header' ? (
          <button
            type="button"
            aria-label={T.open}
            title={T.open}
            data-testid="feedback-open"
            className="inline-flex size-10 items-center justify-center rounded-xl text-muted transition-colors hover:bg-surface-2 hover:text-fg data-[state=open]:bg-surface-2 data-[state=open]:text-fg"
          >
            <MessageSquareText className="size-5" aria-hidden />
          </button>
        ) : (
          <button
            type="button"
            aria-label={T.open}
            title={T.open}
            data-testid="feedback-open"
            className={cn(
              'fixed right-4 bottom-5 z-[60] grid size-12 place-items-center rounded-full',
              'bg-brand text-accent-fg shadow-glow transition hover:brightness-110 focus-visible:ring-4 focus-visible:ring-accent/40 focus-visible:outline-none',
            )}
          >
            <MessageSquareText className="size-5" aria-hidden />
          </button>
        )}
      </RadixPopover.Trigger>
      <RadixPopover.Portal>
        <RadixPopover.Content
          side={placement === 'header' ? 'bottom' : 'top'}
          align="end"
          sideOffset={10}
          collisionPadding={8}
          data-testid="feedback-panel"
          aria-label={T.title}
          className={cn(
            'z-[1000] flex w-[min(24rem,calc(100vw-1rem))] flex-col rounded-2xl border border-border bg-surface/95 shadow-2xl shadow-black/40 backdrop-blur-xl data-[state=open]:animate-rise focus:outline-none',
            // Under the phone's header it stops above the bottom bar.
            placement === 'header' ? 'max-h-[min(36rem,calc(100dvh-9.5rem))]' : 'max-h-[min(36rem,calc(100dvh-7rem))]',
          )}
        >
          <Panel onClose={() => setOpen(false)} />
        </RadixPopover.Content>
      </RadixPopover.Portal>
    </RadixPopover.Root>
  );
}

function Panel({ onClose }: { onClose: () => void }) {
  useFeedbackLive(false);
  const location = useLocation();
  const history = useMyFeedback(true);
  const send = useSendFeedback();
  const [message, setMessage] = useState('');
  const [shot, setShot] = useState<Blob | null>(null);
  const [shotName, setShotName] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [capturing, setCapturing] = useState(false);
  const messageId = useId();
  const fileId = useId();
  const fileRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLOListElement>(null);
  const pageUrl = location.pathname + location.search;

  useEffect(() => {
    listRef.current?.lastElementChild?.scrollIntoView({ block: 'end' });
  }, [history.data]);

  const pick = (file: File | null) => {
    if (!file) return;
    const problem = checkEvidenceFile({ type: file.type, size: file.size });
    if (problem) {
      setError(problem);
      if (fileRef.current) fileRef.current.value = '';
      return;
    }
    setError(null);
    setShot(file);
    setShotName(file.name);
  };

  const capture = async () => {
    setCapturing(true);
    const blob = await captureScreen();
    setCapturing(false);
    if (blob) {
      setShot(blob);
      setShotName('screen.png');
    }
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkFeedback({ message, pageUrl, appVersion: APP_VERSION });
    if (!checked.ok) return setError(checked.message);
    setError(null);
    send.mutate(
      { message: checked.value.message, pageUrl, appVersion: APP_VERSION, screenshot: shot },
      {
        onSuccess: () => {
          setMessage('');
          setShot(null);
          setShotName(null);
          if (fileRef.current) fileRef.current.value = '';
          toast.success(T.sent);
        },
        onError: (e) => setError(e instanceof Error ? e.message : T.failed),
      },
    );
  };

  const mine = [...(history.data ?? [])].reverse();
  return (
    <>
      <div className="flex items-start justify-between gap-2 border-b border-border/60 p-4 pb-3">
        <div>
          <h2 className="flex items-center gap-2 text-lg font-extrabold">
            {T.title}
            <span className="rounded-full border border-accent/40 bg-accent/15 px-2 py-0.5 text-[0.65rem] font-bold tracking-wider text-accent uppercase">
              Beta
            </span>
          </h2>
          <p className="mt-0.5 text-xs text-muted">{T.intro}</p>
        </div>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close"
          className="inline-flex size-8 shrink-0 items-center justify-center rounded-full text-muted hover:bg-surface-2 hover:text-fg"
        >
          <X className="size-4" aria-hidden />
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto px-4 py-3">
        <h3 className="sr-only">{T.history}</h3>
        {history.isPending ? (
          <Spinner className="size-5" />
        ) : mine.length === 0 ? (
          <p className="text-sm text-muted">{T.noHistory}</p>
        ) : (
          <ol ref={listRef} className="grid gap-3" data-testid="feedback-history">
            {mine.map((f) => (
              <Thread key={f.id} feedback={f} />
            ))}
          </ol>
        )}
      </div>
      <form onSubmit={submit} className="grid gap-2 border-t border-border/60 p-4 pt-3" noValidate>
        <label htmlFor={messageId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {T.messageLabel}
        </label>
        <textarea
          id={messageId}
          value={message}
          onChange={(e) => {
            setMessage(e.target.value);
            setError(null);
          }}
          rows={3}
          maxLength={FEEDBACK_LIMITS.messageMax}
          placeholder={T.messagePlaceholder}
          aria-invalid={!!error || undefined}
          aria-describedby={`${messageId}-meta`}
          data-testid="feedback-message"
          className="w-full resize-y rounded-xl border border-border bg-bg/60 px-3 py-2 text-sm text-fg outline-none placeholder:text-muted/70 focus:border-accent focus:ring-4 focus:ring-accent/20"
        />
        <div className="flex flex-wrap items-center justify-between gap-2 text-xs text-muted" id={`${messageId}-meta`}>
          <span className="truncate">{T.attached(`${pageUrl} · v${APP_VERSION}`)}</span>
          <span className="tabular-nums">{T.counter(message.length)}</span>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          <input
            ref={fileRef}
            id={fileId}
            type="file"
            accept={IMAGE_TYPES}
            className="sr-only"
            data-testid="feedback-file"
            onChange={(e) => pick(e.target.files?.[0] ?? null)}
          />
          <label
            htmlFor={fileId}
            title={T.screenshotHint}
            className="inline-flex h-8 cursor-pointer items-center gap-1.5 rounded-lg border border-border px-3 text-sm font-semibold text-fg hover:border-accent/70 hover:bg-accent/10 focus-within:ring-4 focus-within:ring-accent/30"
          >
            <ImagePlus className="size-4" aria-hidden />
            {T.screenshot}
          </label>
          {canCaptureScreen() && (
            <Button size="sm" variant="ghost" onClick={() => void capture()} loading={capturing}>
              <Camera className="size-4" aria-hidden />
              {T.captureScreen}
            </Button>
          )}
        </div>
        {shot && (
          <p className="flex items-center gap-2 text-xs">
            <span className="truncate">{shotName}</span>
            <button
              type="button"
              className="rounded text-danger underline"
              onClick={() => {
                setShot(null);
                setShotName(null);
                if (fileRef.current) fileRef.current.value = '';
              }}
            >
              {T.removeScreenshot}
            </button>
          </p>
        )}
        {error && (
          <p role="alert" className="text-sm font-semibold text-danger">
            {error}
          </p>
        )}
        <Button type="submit" loading={send.isPending} data-testid="feedback-send">
          <Send className="size-4" aria-hidden />
          {T.send}
        </Button>
      </form>
    </>
  );
}

function Thread({ feedback }: { feedback: Feedback }) {
  return (
    <li className="grid gap-1.5">
      <div className="ml-8 rounded-2xl rounded-br-sm bg-accent/15 px-3 py-2 text-sm">
        <p className="break-words whitespace-pre-wrap">{feedback.message}</p>
        <p className="mt-1 text-[0.7rem] text-muted">
          {new Date(feedback.createdAt).toLocaleString()} · {feedback.pageUrl}
          {feedback.screenshotUrl ? ` · ${T.viewScreenshot}` : ''}
        </p>
      </div>
      {feedback.answer ? (
        <div className="mr-8 rounded-2xl rounded-bl-sm border border-border bg-surface-2 px-3 py-2 text-sm">
          <p className="text-[0.7rem] font-bold text-accent-2">{T.answerFrom}</p>
          <p className="break-words whitespace-pre-wrap">{feedback.answer}</p>
        </div>
      ) : (
        <p className="mr-8 text-[0.7rem] text-muted">{T.waiting}</p>
      )}
    </li>
  );
}
