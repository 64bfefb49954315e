import { useId, useState } from 'react';
import { Link, Navigate } from 'react-router';
import { toast } from 'sonner';
import { FEEDBACK_LIMITS, FEEDBACK_TEXT as T, type AdminFeedback, type FeedbackStatus } from '@versus/domain/feedback';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useAdminFeedback, useAnswerFeedback, useFeedbackLive, useScreenshotUrl } from './feedback.api.ts';

const FILTERS: (FeedbackStatus | 'all')[] = ['open', 'answered', 'all'];

/** /admin/beta-feedback: every message from the widget, newest first; answer each once (admins only; others go home). */
export default function AdminBetaFeedbackPage() {
  useDocumentTitle(T.adminTitle);
  const { isAdmin } = useAuth();
  const [status, setStatus] = useState<FeedbackStatus | 'all'>('open');
  const list = useAdminFeedback(status, isAdmin);
  useFeedbackLive(isAdmin);
  if (!isAdmin) return <Navigate to="/" replace />;
  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="admin-beta-feedback">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-3xl font-black sm:text-4xl">{T.adminTitle}</h1>
        <Link className="text-sm font-bold text-accent hover:underline" to="/admin">
          Admin Dashboard
        </Link>
      </div>
      <div role="tablist" aria-label={T.adminTitle} className="mt-6 flex gap-1 rounded-xl border border-border bg-surface p-1">
        {FILTERS.map((f) => (
          <button
            key={f}
            role="tab"
            type="button"
            aria-selected={status === f}
            onClick={() => setStatus(f)}
            className={cn(
              'flex-1 rounded-lg px-3 py-2 text-sm font-bold transition',
              status === f ? 'bg-accent-solid text-accent-fg' : 'text-muted hover:text-fg',
            )}
          >
            {T.filters[f]}
          </button>
        ))}
      </div>
      <div className="mt-6 grid gap-4" role="tabpanel">
        {list.isPending ? (
          <Spinner className="mx-auto size-6" />
        ) : list.isError ? (
          <Card role="alert" className="p-5 font-bold text-danger">
            {list.error.message}
          </Card>
        ) : list.data.length === 0 ? (
          <Card className="p-8 text-center text-muted">{T.adminEmpty}</Card>
        ) : (
          list.data.map((f) => <FeedbackCard key={f.id} feedback={f} />)
        )}
      </div>
    </div>
  );
}

function FeedbackCard({ feedback }: { feedback: AdminFeedback }) {
  const answerId = useId();
  const [answer, setAnswer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [showShot, setShowShot] = useState(false);
  const send = useAnswerFeedback();
  const shot = useScreenshotUrl(showShot ? feedback.screenshotUrl : null);
  const submit = () => {
    const text = answer.trim();
    if (!text) return setError(T.answerRequired);
    setError(null);
    send.mutate(
      { id: feedback.id, answer: text },
      { onSuccess: () => toast.success(T.answerSent), onError: (e) => setError(e instanceof Error ? e.message : String(e)) },
    );
  };
  return (
    <Card className="p-4 sm:p-5" data-testid="feedback-item">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={feedback.status === 'open' ? 'warning' : 'success'}>{feedback.status === 'open' ? T.filters.open : T.answered}</Badge>
        <span className="font-bold">{T.from(feedback.author.displayName || feedback.author.username)}</span>
        <span className="text-xs text-muted">@{feedback.author.username}</span>
        <span className="text-xs text-muted">{new Date(feedback.createdAt).toLocaleString()}</span>
      </div>
      <p className="mt-3 break-words whitespace-pre-wrap">{feedback.message}</p>
      <dl className="mt-3 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
        <dt className="text-muted">{T.page}</dt>
        <dd className="break-all">{feedback.pageUrl}</dd>
        <dt className="text-muted">{T.version}</dt>
        <dd>{feedback.appVersion}</dd>
        {feedback.userAgent && (
          <>
            <dt className="text-muted">{T.browser}</dt>
            <dd className="break-words">{feedback.userAgent}</dd>
          </>
        )}
      </dl>
      {feedback.screenshotUrl && (
        <div className="mt-3">
          <Button size="sm" variant="outline" aria-expanded={showShot} onClick={() => setShowShot((v) => !v)}>
            {T.viewScreenshot}
          </Button>
          {showShot &&
            (shot ? (
              <img src={shot} alt={`${T.viewScreenshot}: ${feedback.pageUrl}`} className="mt-2 max-h-96 rounded-xl border border-border" />
            ) : (
              <Spinner className="mt-2 size-5" />
            ))}
        </div>
      )}
      {feedback.answer ? (
        <div className="mt-4 rounded-xl border border-border bg-surface-2 p-3 text-sm">
          <p className="text-xs font-bold text-accent-2">{T.answerFrom}</p>
          <p className="break-words whitespace-pre-wrap">{feedback.answer}</p>
        </div>
      ) : (
        <div className="mt-4 grid gap-2">
          <label htmlFor={answerId} className="text-xs font-semibold tracking-wide text-muted uppercase">
            {T.answerLabel}
          </label>
          <textarea
            id={answerId}
            value={answer}
            rows={3}
            maxLength={FEEDBACK_LIMITS.answerMax}
            onChange={(e) => {
              setAnswer(e.target.value);
              setError(null);
            }}
            data-testid="feedback-answer"
            className="w-full resize-y rounded-xl border border-border bg-bg/60 px-3 py-2 text-sm text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20"
          />
          {error && (
            <p role="alert" className="text-sm font-semibold text-danger">
              {error}
            </p>
          )}
          <div>
            <Button size="sm" loading={send.isPending} onClick={submit} data-testid="feedback-answer-send">
              {T.sendAnswer}
            </Button>
          </div>
        </div>
      )}
    </Card>
  );
}
