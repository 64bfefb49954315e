import { useId, useState } from 'react';
import { toast } from 'sonner';
import { VERIFY_TEXT as T, type QueueItem } from '@versus/domain/verification';
import { Badge, Button, Card, Input, Spinner } from '../../ui/index.ts';
import { useQueueLive, useReview, useVerificationQueue } from './verification.api.ts';

/** The admin's review queue (on /admin): each pending gamertag or identity check, approve or reject with a reason. */
export function VerificationQueue() {
  useQueueLive(true);
  const queue = useVerificationQueue('pending', true);
  return (
    <Card className="mt-4 p-4" data-testid="verification-queue">
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="text-lg font-extrabold">{T.queueTitle}</h2>
        {queue.data && <Badge tone={queue.data.length ? 'warning' : 'neutral'}>{queue.data.length}</Badge>}
      </div>
      <p className="mt-1 text-xs text-muted">{T.manualNotice}</p>
      {queue.isPending ? (
        <Spinner className="mt-4 size-5" />
      ) : queue.isError ? (
        <p role="alert" className="mt-3 font-bold text-danger">
          {queue.error.message}
        </p>
      ) : queue.data.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{T.queueEmpty}</p>
      ) : (
        <ul className="mt-3 divide-y divide-border/60">
          {queue.data.map((item) => (
            <QueueRow key={item.id} item={item} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function QueueRow({ item }: { item: QueueItem }) {
  const reasonId = useId();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);
  const review = useReview();
  const decide = (decision: 'approve' | 'reject') => {
    if (decision === 'reject' && !reason.trim()) return setError(T.reasonRequired);
    setError(null);
    review.mutate(
      { id: item.id, decision, ...(decision === 'reject' ? { reason: reason.trim() } : {}) },
      {
        onSuccess: () => toast.success(decision === 'approve' ? T.approved : T.rejected),
        onError: (e) => setError(e instanceof Error ? e.message : String(e)),
      },
    );
  };
  const details: [string, string][] =
    item.kind === 'identity'
      ? [
          ['Name given', item.fullName ?? ''],
          ['Name on profile', item.user.fullName],
          ['Date of birth given', item.dateOfBirth ?? ''],
          ['Date of birth on profile', item.user.dateOfBirth],
          ['Document', `${item.documentType ? T.documentLabels[item.documentType] : ''} …${item.documentLast4 ?? ''}`],
        ]
      : [['Gamertag', item.gamertag ?? '']];
  return (
    <li className="grid gap-2 py-3" data-testid="queue-item">
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone="cyan">{T.kindLabels[item.kind]}</Badge>
        <span className="font-bold">{item.user.displayName || item.user.username}</span>
        <span className="text-xs text-muted">@{item.user.username}</span>
        <span className="text-xs text-muted">{new Date(item.createdAt).toLocaleString()}</span>
      </div>
      <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
        {details.map(([k, v]) => (
          <div key={k} className="contents">
            <dt className="text-muted">{k}</dt>
            <dd className="break-words">{v}</dd>
          </div>
        ))}
      </dl>
      <div className="flex flex-wrap items-end gap-2">
        <div className="min-w-48 flex-1">
          <label htmlFor={reasonId} className="text-xs font-semibold text-muted">
            {T.reason}
          </label>
          <Input id={reasonId} value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} className="h-9" />
        </div>
        <Button
          size="sm"
          loading={review.isPending && review.variables?.decision === 'approve'}
          disabled={review.isPending}
          onClick={() => decide('approve')}
        >
          {T.approve}
        </Button>
        <Button
          size="sm"
          variant="danger"
          loading={review.isPending && review.variables?.decision === 'reject'}
          disabled={review.isPending}
          onClick={() => decide('reject')}
        >
          {T.reject}
        </Button>
      </div>
      {error && (
        <p role="alert" className="text-sm font-semibold text-danger">
          {error}
        </p>
      )}
    </li>
  );
}
