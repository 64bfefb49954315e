import { useState, type FormEvent } from 'react';
import { Navigate } from 'react-router';
import { toast } from 'sonner';
import { useQueryClient } from '@tanstack/react-query';
import { ADMIN_SCREEN as T, MATCHES_SCREEN } from '@versus/domain';
import { RESULTS } from '@versus/domain/messages';
import { GAME_LIST } from '@versus/domain/catalogue';
import type { Dispute, ResolutionOutcome } from '@versus/domain/results';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useTickingClock } from '../../app/clock.ts';
import { Badge, Button, Card, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { DisputeRecordList } from '../matches/DisputeCard.tsx';
import { money } from '../arena/format.ts';
import { EvidenceThumb } from '../matches/Evidence.tsx';
import { ChatLines } from '../matches/MatchChat.tsx';
import { formatSpan, gameName } from '../matches/format.ts';
import { adminKeys, playedIn, resolveDispute, useAdminDisputes, useAdminLive, type DisputeFilters } from './admin-api.ts';

const num = (text: string): number | undefined => (text.trim() === '' ? undefined : Number(text));

/** /admin/disputes (the queue, oldest first) and /admin/disputes/enhanced (filters and a compact table). */
export default function AdminDisputesPage({ enhanced = false }: { enhanced?: boolean }) {
  useDocumentTitle(enhanced ? T.disputesEnhancedTitle : T.disputesTitle);
  const { isAdmin } = useAuth();
  const [filters, setFilters] = useState<DisputeFilters>({});
  const [compact, setCompact] = useState(enhanced);
  const disputes = useAdminDisputes(enhanced ? filters : {}, isAdmin);
  useAdminLive(isAdmin);
  const now = useTickingClock();
  if (!isAdmin) return <Navigate to="/" replace />;
  const list = disputes.data ?? [];
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12" data-testid="admin-disputes">
      <div className="flex flex-wrap items-end justify-between gap-2">
        <h1 className="text-3xl font-black sm:text-4xl">{enhanced ? T.disputesEnhancedTitle : T.disputesTitle}</h1>
        <p className="text-sm text-muted">{T.oldestFirst}</p>
      </div>
      {enhanced && (
        <Card className="mt-4 grid grid-cols-2 gap-3 p-4 sm:grid-cols-5">
          <label className="text-xs text-muted">
            {T.filterGame}
            <select
              className="mt-1 block w-full rounded-lg border border-border bg-surface-2 p-2 text-sm text-fg"
              value={filters.game ?? ''}
              onChange={(e) => setFilters({ ...filters, game: e.target.value || undefined })}
            >
              <option value="">{T.filterAnyGame}</option>
              {GAME_LIST.map((g) => (
                <option key={g.id} value={g.id}>
                  {g.name}
                </option>
              ))}
            </select>
          </label>
          {(
            [
              ['minAgeMinutes', T.filterMinAge],
              ['minStake', T.filterMinStake],
              ['maxStake', T.filterMaxStake],
            ] as const
          ).map(([key, label]) => (
            <label key={key} className="text-xs text-muted">
              {label}
              <input
                type="number"
                min={0}
                className="mt-1 block w-full rounded-lg border border-border bg-surface-2 p-2 text-sm text-fg"
                value={filters[key] ?? ''}
                onChange={(e) => setFilters({ ...filters, [key]: num(e.target.value) })}
              />
            </label>
          ))}
          <label className="text-xs text-muted">
            {T.filterStatus}
            <select
              className="mt-1 block w-full rounded-lg border border-border bg-surface-2 p-2 text-sm text-fg"
              value={filters.status ?? 'open'}
              onChange={(e) => setFilters({ ...filters, status: e.target.value as DisputeFilters['status'] })}
            >
              <option value="open">{MATCHES_SCREEN.status.open}</option>
              <option value="resolved">{MATCHES_SCREEN.status.resolved}</option>
              <option value="all">All</option>
            </select>
          </label>
          <div className="col-span-2 flex gap-2 sm:col-span-5">
            <Button size="sm" variant={compact ? 'primary' : 'secondary'} onClick={() => setCompact(true)}>
              {T.compact}
            </Button>
            <Button size="sm" variant={compact ? 'secondary' : 'primary'} onClick={() => setCompact(false)}>
              {T.cards}
            </Button>
          </div>
        </Card>
      )}
      <div className="mt-6 space-y-4">
        {disputes.isPending ? (
          <Spinner className="size-6" />
        ) : disputes.isError ? (
          <p role="alert" className="font-bold text-danger">
            {disputes.error.message}
          </p>
        ) : list.length === 0 ? (
          <Card className="p-8 text-center text-muted">{T.queueEmpty}</Card>
        ) : compact ? (
          <CompactTable disputes={list} now={now} />
        ) : (
          list.map((d) => <AdminDisputeCard key={d.id} dispute={d} now={now} />)
        )}
      </div>
    </div>
  );
}

function CompactTable({ disputes, now }: { disputes: Dispute[]; now: number }) {
  return (
    <div className="overflow-x-auto rounded-xl border border-border">
      <table className="w-full min-w-[40rem] text-left text-sm" data-testid="disputes-table">
        <thead className="bg-surface-2 text-xs text-muted uppercase">
          <tr>
            <th className="p-2">Game</th>
            <th className="p-2">Players</th>
            <th className="p-2">Reports</th>
            <th className="p-2">Stake</th>
            <th className="p-2">Age</th>
            <th className="p-2">Status</th>
            <th className="p-2">Evidence</th>
          </tr>
        </thead>
        <tbody>
          {disputes.map((d) => (
            <tr key={d.id} className="border-t border-border align-middle">
              <td className="p-2 font-bold">{gameName(d.gameType)}</td>
              <td className="p-2">
                {d.player1.username} · {d.player2.username}
              </td>
              <td className="p-2">
                {[d.player1, d.player2].map((p) => d.reports.find((r) => r.userId === p.id)?.outcome ?? '—').join(' / ')}
              </td>
              <td className="p-2 tabular-nums">{money(d.stake, d.currency)}</td>
              <td className="p-2 tabular-nums">{formatSpan(now - Date.parse(d.openedAt))}</td>
              <td className="p-2">{MATCHES_SCREEN.status[d.status]}</td>
              <td className="flex gap-1 p-2">
                {d.reports.flatMap((r) => (r.evidence ? [<EvidenceThumb key={r.evidence.id} evidence={r.evidence} />] : []))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function AdminDisputeCard({ dispute, now }: { dispute: Dispute; now: number }) {
  const client = useQueryClient();
  const { user } = useAuth();
  const [outcome, setOutcome] = useState<ResolutionOutcome | null>(null);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const choices: { id: ResolutionOutcome; label: string }[] = [
    { id: 'player1', label: T.winner(dispute.player1.username) },
    { id: 'player2', label: T.winner(dispute.player2.username) },
    { id: 'draw', label: T.draw },
    { id: 'void', label: T.void },
  ];
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!outcome || !reason.trim()) return;
    setBusy(true);
    try {
      await resolveDispute(dispute.id, outcome, reason);
      toast.success(T.resolvedToast);
      await client.invalidateQueries({ queryKey: adminKeys.all });
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Card className="space-y-4 p-4 sm:p-5" data-testid="admin-dispute" data-dispute-id={dispute.id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <p className="text-lg font-black">{gameName(dispute.gameType)}</p>
          <p className="text-sm break-words">
            <span className="font-bold">{dispute.player1.username}</span> vs <span className="font-bold">{dispute.player2.username}</span> ·{' '}
            <span data-testid="admin-dispute-stake">
              {MATCHES_SCREEN.stake} {money(dispute.stake, dispute.currency)}
            </span>
          </p>
          <p className="text-xs text-muted">{T.openedAgo(formatSpan(now - Date.parse(dispute.openedAt)))}</p>
        </div>
        <Badge tone={dispute.status === 'open' ? 'warning' : 'success'}>{MATCHES_SCREEN.status[dispute.status]}</Badge>
      </div>
      <DisputeRecordList dispute={dispute} />
      <div>
        <p className="mb-1 text-xs font-bold tracking-wider text-muted uppercase">{T.records}</p>
        <ul className="space-y-1 text-sm">
          {dispute.records.map((r) => (
            <li key={r.userId} className="break-words" data-testid="dispute-record">
              <span className="font-bold">{r.username}</span>: {T.record(r.disputes, r.won, r.lost)}
            </li>
          ))}
        </ul>
      </div>
      <div className="rounded-lg border border-border bg-surface-2/50 p-3">
        <p className="mb-2 text-xs font-bold tracking-wider text-muted uppercase">{T.chat}</p>
        <ChatLines messages={dispute.chat} />
      </div>
      {dispute.resolution ? (
        <p className="text-sm" data-testid="admin-resolution">
          <span className="font-bold">{MATCHES_SCREEN.outcomeNames[dispute.resolution.outcome]}</span>: {dispute.resolution.reason}
        </p>
      ) : playedIn(dispute, user?.id) ? (
        <p className="text-sm text-muted" data-testid="admin-own-dispute">
          {RESULTS.ownDispute}
        </p>
      ) : (
        <form onSubmit={(e) => void submit(e)} className="space-y-3" aria-label={T.resolve}>
          <fieldset>
            <legend className="mb-1 text-xs font-bold tracking-wider text-muted uppercase">{T.resolveAs}</legend>
            <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
              {choices.map((c) => (
                <button
                  key={c.id}
                  type="button"
                  aria-pressed={outcome === c.id}
                  onClick={() => setOutcome(c.id)}
                  className={cn(
                    'rounded-lg border px-3 py-2 text-sm font-bold break-words',
                    outcome === c.id ? 'border-accent bg-accent/15 text-accent' : 'border-border text-fg hover:border-accent/50',
                  )}
                >
                  {c.label}
                </button>
              ))}
            </div>
          </fieldset>
          <label className="block text-xs font-bold tracking-wider text-muted uppercase">
            {T.reason}
            <textarea
              required
              value={reason}
              onChange={(e) => setReason(e.target.value)}
              maxLength={2000}
              rows={2}
              className="mt-1 block w-full rounded-lg border border-border bg-surface-2 p-2 text-sm font-normal tracking-normal text-fg normal-case"
            />
          </label>
          <Button type="submit" disabled={busy || !outcome || !reason.trim()}>
            {T.resolve}
          </Button>
        </form>
      )}
    </Card>
  );
}
