// My active matches: pending (waiting for both to be ready) and in progress, soonest first.
import { Link } from 'react-router';
import { Gamepad2 } from 'lucide-react';
import { useAuth } from '../auth/use-auth.ts';
import { FindAMatchButton } from '../challenges/FindAMatchButton.tsx';
import { LIVE_ARENA } from '@versus/domain';
import type { ArenaMatchSummary } from '@versus/domain/arena';
import { Badge, Button, Card, Spinner, cn } from '../../ui/index.ts';

const opponentOf = (m: ArenaMatchSummary) => {
  const other = m.viewerSeat === 0 ? { ref: m.player2, tag: m.player2Gamertag } : { ref: m.player1, tag: m.player1Gamertag };
  return other.tag?.trim() || other.ref.displayName || other.ref.username;
};

export function MatchList({
  matches,
  selected,
  loading,
  error,
  onRetry,
}: {
  matches: readonly ArenaMatchSummary[] | undefined;
  selected: string | null;
  loading: boolean;
  error: string | null;
  onRetry: () => void;
}) {
  const { isVirtual } = useAuth();
  return (
    <section aria-labelledby="my-matches" className="space-y-3">
      <h2 id="my-matches" className="text-sm font-bold tracking-wider text-muted uppercase">
        {LIVE_ARENA.myMatches}
      </h2>
      {loading && <Spinner className="size-6 text-accent" label="Loading your matches" />}
      {error && (
        <Card role="alert" className="space-y-2 p-4 text-sm">
          <p className="font-semibold text-danger">{LIVE_ARENA.listFailed}</p>
          <Button size="sm" variant="secondary" onClick={onRetry}>
            {LIVE_ARENA.retry}
          </Button>
        </Card>
      )}
      {matches && matches.length === 0 && (
        <Card className="space-y-3 p-4 text-sm" data-testid="no-matches">
          <p className="font-semibold">{LIVE_ARENA.noMatches}</p>
          <p className="text-muted">{isVirtual ? LIVE_ARENA.noMatchesDetailVirtual : LIVE_ARENA.noMatchesDetail}</p>
          <FindAMatchButton />
        </Card>
      )}
      {matches && matches.length > 0 && (
        <ul className="flex gap-2 overflow-x-auto pb-1 lg:flex-col lg:overflow-visible" data-testid="match-list">
          {matches.map((m) => {
            const active = m.id === selected;
            return (
              <li key={m.id} className="min-w-[14rem] lg:min-w-0">
                <Link
                  to={`/live-arena?match=${encodeURIComponent(m.id)}`}
                  aria-current={active ? 'page' : undefined}
                  className={cn(
                    'flex items-start gap-3 rounded-xl border p-3 transition-colors',
                    active ? 'border-accent bg-accent/10' : 'border-border bg-surface/70 hover:border-accent/60',
                  )}
                >
                  <Gamepad2 className="mt-0.5 size-5 shrink-0 text-accent" aria-hidden />
                  <div className="min-w-0 flex-1">
                    <div className="flex items-baseline justify-between gap-2">
                      <p className="truncate font-bold">{m.gameName}</p>
                      <span
                        className="shrink-0 font-mono text-sm font-bold"
                        aria-label={`Score ${m.score[m.viewerSeat]} to ${m.score[m.viewerSeat === 0 ? 1 : 0]}`}
                      >
                        {m.score[m.viewerSeat]}–{m.score[m.viewerSeat === 0 ? 1 : 0]}
                      </span>
                    </div>
                    <p className="truncate text-xs text-muted">
                      {LIVE_ARENA.vs} {opponentOf(m)}
                    </p>
                    <div className="mt-1.5">
                      {m.yourTurn ? (
                        <Badge tone="cyan">{LIVE_ARENA.yourTurn}</Badge>
                      ) : m.status === 'in_progress' ? (
                        <Badge tone="danger">{LIVE_ARENA.live}</Badge>
                      ) : (
                        <Badge tone="neutral">{m.ready[m.viewerSeat] ? LIVE_ARENA.readyState : LIVE_ARENA.waiting}</Badge>
                      )}
                    </div>
                  </div>
                </Link>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
