import { useEffect, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import { MATCHES_SCREEN as T } from '@versus/domain';
import type { Dispute } from '@versus/domain/results';
import { Badge, Button, Card, cn } from '../../ui/index.ts';
import { money } from '../arena/format.ts';
import { EvidenceThumb } from './Evidence.tsx';
import { MatchChat } from './MatchChat.tsx';
import { formatTime, gameName } from './format.ts';
import { matchKeys, postEvidenceForm } from './matches-api.ts';

/** What a dispute's resolution means for me. */
export function resolutionText(dispute: Dispute, meId: string): string {
  const r = dispute.resolution;
  if (!r) return '';
  if (r.outcome === 'draw') return T.draw;
  if (r.outcome === 'void') return T.voided;
  const winner = r.outcome === 'player1' ? dispute.player1.id : dispute.player2.id;
  return winner === meId ? T.won : T.lost;
}

export function nameOf(dispute: Dispute, userId: string): string {
  return dispute.player1.id === userId ? dispute.player1.username : dispute.player2.id === userId ? dispute.player2.username : userId;
}

/** The reports and statements of a dispute (players' and admins' views). */
export function DisputeRecordList({ dispute }: { dispute: Dispute }) {
  return (
    <div className="grid gap-3 sm:grid-cols-2">
      <div>
        <p className="mb-1 text-xs font-bold tracking-wider text-muted uppercase">{T.reports}</p>
        <ul className="space-y-2 text-sm">
          {[dispute.player1, dispute.player2].map((p) => {
            const r = dispute.reports.find((x) => x.userId === p.id);
            return (
              <li key={p.id} className="flex items-center gap-2" data-testid="dispute-report">
                <span className="min-w-0 break-words">
                  <span className="font-bold">{p.username}</span>: {r ? r.outcome : T.noReport}
                </span>
                {r?.evidence && <EvidenceThumb evidence={r.evidence} />}
              </li>
            );
          })}
        </ul>
      </div>
      <div>
        <p className="mb-1 text-xs font-bold tracking-wider text-muted uppercase">{T.statements}</p>
        {dispute.statements.length === 0 ? (
          <p className="text-sm text-muted">—</p>
        ) : (
          <ul className="space-y-2 text-sm">
            {dispute.statements.map((s) => (
              <li key={s.id} className="flex items-start gap-2" data-testid="dispute-statement">
                <span className="min-w-0 break-words">
                  <span className="font-bold">{nameOf(dispute, s.userId)}</span>: {s.body ?? ''}
                </span>
                {s.evidence && <EvidenceThumb evidence={s.evidence} />}
              </li>
            ))}
          </ul>
        )}
      </div>
    </div>
  );
}

export function DisputeCard({ dispute, meId, highlighted }: { dispute: Dispute; meId: string; highlighted: boolean }) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [highlighted]);
  const opponent = dispute.player1.id === meId ? dispute.player2 : dispute.player1;
  return (
    <div ref={ref} data-testid="dispute-card" data-match-id={dispute.matchId} data-highlighted={highlighted || undefined}>
      <Card className={cn('space-y-3 p-4 sm:p-5', highlighted && 'ring-2 ring-accent')}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="text-lg font-black">{gameName(dispute.gameType)}</p>
            <p className="text-sm break-words">
              <span className="text-muted">{T.vs}</span> <span className="font-bold">{opponent.username}</span> ·{' '}
              <span data-testid="dispute-amounts">
                {T.stake} {money(dispute.stake, dispute.currency)} · {T.payout} {money(dispute.stake * 2, dispute.currency)}
              </span>
            </p>
            <p className="text-xs text-muted">{formatTime(dispute.openedAt)}</p>
          </div>
          <Badge tone={dispute.status === 'open' ? 'warning' : 'success'} data-testid="dispute-status">
            {dispute.status === 'open' ? T.status.disputed : T.status.resolved}
          </Badge>
        </div>
        <DisputeRecordList dispute={dispute} />
        {dispute.resolution && (
          <div className="rounded-lg border border-success/40 bg-success/10 p-3 text-sm" data-testid="dispute-resolution">
            <p className="font-bold">
              {T.resolution}: {resolutionText(dispute, meId)}
            </p>
            <p className="mt-1 break-words text-muted">{dispute.resolution.reason}</p>
          </div>
        )}
        {dispute.status === 'open' && <StatementForm matchId={dispute.matchId} />}
        <MatchChat matchId={dispute.matchId} readOnly={dispute.status !== 'open'} />
      </Card>
    </div>
  );
}

function StatementForm({ matchId }: { matchId: string }) {
  const client = useQueryClient();
  const [body, setBody] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [formKey, setFormKey] = useState(0);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    try {
      await postEvidenceForm(`/api/matches/${encodeURIComponent(matchId)}/dispute/statements`, body.trim() ? { body } : {}, file);
      setBody('');
      setFile(null);
      setFormKey((k) => k + 1);
      toast.success(T.statementAdded);
      await client.invalidateQueries({ queryKey: matchKeys.disputes });
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <form key={formKey} onSubmit={(e) => void submit(e)} className="space-y-2">
      <label className="block text-xs font-bold tracking-wider text-muted uppercase">
        {T.statementLabel}
        <textarea
          value={body}
          onChange={(e) => setBody(e.target.value)}
          placeholder={T.statementPlaceholder}
          maxLength={2000}
          rows={2}
          className="mt-1 block w-full rounded-lg border border-border bg-surface-2 p-2 text-sm font-normal tracking-normal text-fg normal-case"
        />
      </label>
      <div className="flex flex-wrap items-center gap-2">
        <input
          type="file"
          accept="image/*"
          aria-label={T.evidence}
          className="min-w-0 flex-1 text-xs"
          onChange={(e) => setFile(e.target.files?.[0] ?? null)}
        />
        <Button type="submit" size="sm" disabled={busy || (!body.trim() && !file)}>
          {T.addStatement}
        </Button>
      </div>
    </form>
  );
}
