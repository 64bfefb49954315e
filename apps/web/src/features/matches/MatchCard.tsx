import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { CalendarClock, Gamepad2, MessageSquare, Monitor } from 'lucide-react';
import { MATCHES_SCREEN as T, RESULTS } from '@versus/domain';
import type { ArenaMatchSummary } from '@versus/domain/arena';
import { isWebGame } from '@versus/domain/catalogue';
import { RESULT_RULES, reportResponseSchema } from '@versus/domain/results';
import { useQueryClient } from '@tanstack/react-query';
import { Badge, Button, Card, cn, type BadgeTone } from '../../ui/index.ts';
import { money } from '../arena/format.ts';
import { MatchChat } from './MatchChat.tsx';
import { formatSpan, formatTime } from './format.ts';
import { answerNoShow, claimNoShow, matchKeys, playNow, postEvidenceForm, useResultState } from './matches-api.ts';

const STATUS_TONES: Record<string, BadgeTone> = {
  pending: 'neutral',
  accepted: 'cyan',
  in_progress: 'success',
  completed: 'accent',
  disputed: 'warning',
  cancelled: 'neutral',
};

export function statusBadge(status: string) {
  return (
    <Badge tone={STATUS_TONES[status] ?? 'neutral'} data-testid="match-status">
      {T.status[status] ?? status}
    </Badge>
  );
}

/** One match of /matches: who, what, when (ticking), the status and the actions open to me. */
export function MatchCard({
  match,
  now,
  highlighted,
  history = false,
}: {
  match: ArenaMatchSummary;
  now: number;
  highlighted: boolean;
  history?: boolean;
}) {
  const ref = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (highlighted) ref.current?.scrollIntoView({ behavior: 'smooth', block: 'center' });
  }, [highlighted]);
  const me = match.viewerSeat === 0 ? match.player1 : match.player2;
  const them = match.viewerSeat === 0 ? match.player2 : match.player1;
  const theirTag = match.viewerSeat === 0 ? match.player2Gamertag : match.player1Gamertag;
  const myTag = match.viewerSeat === 0 ? match.player1Gamertag : match.player2Gamertag;
  const start = match.scheduledTime ? Date.parse(match.scheduledTime) : null;
  const external = !isWebGame(match.gameType);
  const won = match.winnerId === me.id;

  return (
    <div ref={ref} data-testid="match-card" data-match-id={match.id} data-highlighted={highlighted || undefined}>
      <Card className={cn('space-y-3 p-4 sm:p-5', highlighted && 'ring-2 ring-accent')}>
        <div className="flex flex-wrap items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="flex items-center gap-2 text-lg font-black">
              <Gamepad2 className="size-5 shrink-0 text-accent" aria-hidden />
              <span className="truncate">{match.gameName}</span>
            </p>
            <p className="mt-0.5 flex items-center gap-1 text-xs text-muted uppercase">
              <Monitor className="size-3.5" aria-hidden /> {match.platform}
            </p>
          </div>
          {statusBadge(match.status)}
        </div>
        <p className="text-sm break-words">
          <span className="font-bold">{me.username}</span>
          {myTag && <span className="text-muted"> ({myTag})</span>} <span className="text-muted">{T.vs}</span>{' '}
          <span className="font-bold" data-testid="match-opponent">
            {them.username}
          </span>
          {theirTag && <span className="text-muted"> ({theirTag})</span>}
        </p>
        <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3">
          {match.tournament ? (
            <div className="col-span-2 min-w-0" data-testid="match-tournament">
              <dt className="text-xs text-muted">{T.tournament}</dt>
              <dd className="truncate font-bold">
                <Link to={`/tournaments/${match.tournament.id}`} className="text-accent underline-offset-2 hover:underline">
                  {match.tournament.name}
                </Link>
              </dd>
            </div>
          ) : (
            <>
              <div>
                <dt className="text-xs text-muted">{T.stake}</dt>
                <dd className="font-bold">{money(match.stake, match.currency)}</dd>
              </div>
              <div>
                <dt className="text-xs text-muted">{T.payout}</dt>
                <dd className="font-bold text-success">{money(match.stake * 2, match.currency)}</dd>
              </div>
            </>
          )}
          <div className="col-span-2 sm:col-span-1">
            <dt className="flex items-center gap-1 text-xs text-muted">
              <CalendarClock className="size-3.5" aria-hidden />
              {match.scheduledTime ? formatTime(match.scheduledTime) : T.unscheduled}
            </dt>
            {start !== null && !history && (
              <dd className="font-bold tabular-nums" data-testid="match-countdown">
                {start <= now
                  ? T.startedAgo(formatSpan(now - start))
                  : match.status === 'in_progress'
                    ? T.startedEarly
                    : T.startsIn(formatSpan(start - now))}
              </dd>
            )}
          </div>
        </dl>
        {history && match.status === 'completed' && (
          <p className="text-sm font-bold" data-testid="match-outcome">
            {match.winnerId === null ? T.draw : won ? T.won : T.lost}
          </p>
        )}
        {!history && !external && (
          <Button asChild size="sm">
            <Link to={`/live-arena?match=${encodeURIComponent(match.id)}`}>{T.play}</Link>
          </Button>
        )}
        {!history && external && (
          <ExternalActions
            match={match}
            meId={me.id}
            opponent={them.username}
            now={now}
            started={match.status === 'in_progress' || start === null || start <= now}
          />
        )}
      </Card>
    </div>
  );
}

function ExternalActions({
  match,
  meId,
  opponent,
  now,
  started,
}: {
  match: ArenaMatchSummary;
  meId: string;
  opponent: string;
  now: number;
  started: boolean;
}) {
  const client = useQueryClient();
  const result = useResultState(match.id, true);
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [chatOpen, setChatOpen] = useState(false);
  const state = result.data;
  const mine = state?.reports.find((r) => r.userId === meId);
  const theirs = state?.reports.find((r) => r.userId !== meId);
  const claim = state?.noShowClaim ?? null;
  const start = match.scheduledTime ? Date.parse(match.scheduledTime) : 0;
  const noShowOpen = now >= start + RESULT_RULES.noShowOpensAfterMs;

  const act = async (run: () => Promise<unknown>) => {
    setBusy(true);
    try {
      await run();
      await client.invalidateQueries({ queryKey: matchKeys.all });
    } catch (failure) {
      toast.error(failure instanceof Error ? failure.message : String(failure));
    } finally {
      setBusy(false);
    }
  };
  const report = (outcome: 'win' | 'loss') =>
    act(async () => {
      const answer = reportResponseSchema.parse(
        await postEvidenceForm(`/api/matches/${encodeURIComponent(match.id)}/report`, { outcome }, file),
      );
      setFile(null);
      if (answer.status === 'disputed') toast.warning(RESULTS.underReview);
      else if (answer.status === 'waiting') toast.success(RESULTS.reportRecorded);
    });

  const iAmReady = match.ready[match.viewerSeat];
  const theyAreReady = match.ready[match.viewerSeat === 0 ? 1 : 0];

  return (
    <div className="space-y-3">
      {!started && (
        <div className="space-y-2" data-testid="play-now">
          <p className="text-sm" data-testid="report-opens">
            {T.reportOpens(match.scheduledTime ? formatTime(match.scheduledTime) : T.unscheduled)}
          </p>
          {theyAreReady && !iAmReady && <p className="text-sm font-bold text-success">{T.opponentIsReady(opponent)}</p>}
          {iAmReady ? (
            <p className="text-sm text-muted" role="status">
              {T.youAreReady(opponent)}
            </p>
          ) : (
            <Button size="sm" variant="cyan" disabled={busy} onClick={() => void act(() => playNow(match.id))}>
              {T.readyNow}
            </Button>
          )}
        </div>
      )}
      {started && !mine && !theirs && <p className="text-sm text-muted">{T.playThenReport}</p>}
      {mine && (
        <p className="text-sm" data-testid="my-report">
          {T.youReported(mine.outcome)}
        </p>
      )}
      {theirs && <p className="text-sm text-warning">{T.opponentReported(theirs.outcome)}</p>}
      {state?.confirmDeadline && <p className="text-xs text-muted">{T.confirmBy(formatTime(state.confirmDeadline))}</p>}
      {started && state && !mine && (
        <div className="space-y-2">
          <label className="block text-xs text-muted">
            {T.evidenceLabel}
            <input
              type="file"
              accept="image/*"
              data-testid="evidence-input"
              className="mt-1 block w-full text-xs file:mr-2 file:rounded-md file:border-0 file:bg-surface-2 file:px-2 file:py-1 file:text-fg"
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </label>
          <div className="flex flex-wrap gap-2">
            <Button size="sm" disabled={busy} onClick={() => void report('win')}>
              {T.reportWin}
            </Button>
            <Button size="sm" variant="secondary" disabled={busy} onClick={() => void report('loss')}>
              {T.reportLoss}
            </Button>
          </div>
        </div>
      )}
      {claim?.status === 'open' && (
        <p className="text-sm text-warning" role="status">
          {T.noShowOpen(formatTime(claim.deadline))}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {claim?.status === 'open' && claim.claimantId !== meId && (
          <Button size="sm" variant="cyan" disabled={busy} onClick={() => void act(() => answerNoShow(match.id))}>
            {T.answerNoShow}
          </Button>
        )}
        {started && noShowOpen && !claim && !mine && !theirs && (
          <Button size="sm" variant="outline" disabled={busy} onClick={() => void act(() => claimNoShow(match.id))}>
            {T.claimNoShow}
          </Button>
        )}
        <Button size="sm" variant="ghost" aria-expanded={chatOpen} onClick={() => setChatOpen((o) => !o)}>
          <MessageSquare className="size-4" aria-hidden /> {T.chat}
        </Button>
      </div>
      {chatOpen && <MatchChat matchId={match.id} />}
    </div>
  );
}
