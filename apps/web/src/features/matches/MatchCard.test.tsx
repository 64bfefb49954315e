// The no-show claim button of an external match: offered only while neither player has reported
// (a report proves its author showed up; the server refuses the claim then).
import { renderToString } from 'react-dom/server';
import { MemoryRouter } from 'react-router';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import { MATCHES_SCREEN } from '@versus/domain';
import type { ArenaMatchSummary } from '@versus/domain/arena';
import type { ResultState } from '@versus/domain/results';
import { MatchCard } from './MatchCard.tsx';

let state: ResultState;
vi.mock('./matches-api.ts', () => ({
  useResultState: () => ({ data: state }),
  answerNoShow: async () => undefined,
  claimNoShow: async () => undefined,
  playNow: async () => undefined,
  postEvidenceForm: async () => undefined,
  matchKeys: { all: ['matches'] },
}));

const now = Date.parse('2026-01-01T12:00:00Z');
const match = {
  id: 'm1',
  gameType: 'fifa-24',
  gameName: 'FIFA 24',
  platform: 'pc',
  status: 'pending',
  stake: 50,
  currency: 'credits',
  viewerSeat: 0,
  player1: { id: 'me', username: 'me' },
  player2: { id: 'them', username: 'them' },
  player1Gamertag: null,
  player2Gamertag: null,
  winnerId: null,
  ready: [false, false],
  scheduledTime: new Date(now - 11 * 60_000).toISOString(),
} as unknown as ArenaMatchSummary;

const report = (userId: string) => ({ userId, outcome: 'win' as const, evidence: null, createdAt: new Date(now - 60_000).toISOString() });
const render = (reports: ResultState['reports'], over: Partial<ArenaMatchSummary> = {}) => {
  state = { matchId: 'm1', status: 'pending', reports, confirmDeadline: null, noShowClaim: null, disputeId: null, transitions: [] };
  return renderToString(
    <QueryClientProvider client={new QueryClient()}>
      <MatchCard match={{ ...match, ...over }} now={now} highlighted={false} />
    </QueryClientProvider>,
  );
};

describe('MatchCard no-show claim', () => {
  it('is offered 10 minutes after the start when nobody has reported', () => {
    expect(render([])).toContain(MATCHES_SCREEN.claimNoShow);
  });

  it('is not offered once the opponent has reported', () => {
    const html = render([report('them')]);
    expect(html).toContain(MATCHES_SCREEN.opponentReported('win'));
    expect(html).not.toContain(MATCHES_SCREEN.claimNoShow);
  });

  it('is not offered once I have reported', () => {
    expect(render([report('me')])).not.toContain(MATCHES_SCREEN.claimNoShow);
  });
});

describe('MatchCard stake and payout', () => {
  it('reads as money in the match currency, like the rest of the app', () => {
    const html = render([]);
    expect(html).toContain('$50.00');
    expect(html).toContain('$100.00');
    const virtual = renderToString(
      <QueryClientProvider client={new QueryClient()}>
        <MatchCard match={{ ...match, currency: 'vtokens' }} now={now} highlighted={false} />
      </QueryClientProvider>,
    );
    expect(virtual).toContain('50.00 VT');
  });

  it("names a tournament's game's tournament instead: it has no stake of its own", () => {
    const html = renderToString(
      <MemoryRouter>
        <QueryClientProvider client={new QueryClient()}>
          <MatchCard
            match={{ ...match, gameType: 'tic-tac-toe', stake: 0, tournament: { id: 't1', name: 'Friday Cup' } }}
            now={now}
            highlighted={false}
            history
          />
        </QueryClientProvider>
      </MemoryRouter>,
    );
    expect(html).toContain(MATCHES_SCREEN.tournament);
    expect(html).toContain('href="/tournaments/t1"');
    expect(html).toContain('Friday Cup');
    expect(html).not.toContain(MATCHES_SCREEN.stake);
    expect(html).not.toContain('$0.00');
  });
});

describe('MatchCard before the scheduled start', () => {
  const later = { scheduledTime: new Date(now + 40 * 60_000).toISOString() };

  it('says when reporting opens and offers to play now; no report buttons yet', () => {
    const html = render([], later);
    expect(html).toContain(MATCHES_SCREEN.startsIn('40m'));
    expect(html).toContain(MATCHES_SCREEN.readyNow);
    expect(html).toMatch(/Reporting opens at .+, or as soon as you are both ready to play now\./);
    expect(html).not.toContain(MATCHES_SCREEN.reportWin);
  });

  it('tells a ready player they wait for the opponent, and the opponent that the other is ready', () => {
    expect(render([], { ...later, ready: [true, false] })).toContain(MATCHES_SCREEN.youAreReady('them'));
    expect(render([], { ...later, ready: [false, true] })).toContain(MATCHES_SCREEN.opponentIsReady('them'));
  });

  it('once both were ready: in progress, started early, reports open', () => {
    const html = render([], { ...later, ready: [true, true], status: 'in_progress' });
    expect(html).toContain(MATCHES_SCREEN.status.in_progress);
    expect(html).toContain(MATCHES_SCREEN.startedEarly);
    expect(html).toContain(MATCHES_SCREEN.reportWin);
    expect(html).toContain(MATCHES_SCREEN.playThenReport);
    expect(html).not.toContain(MATCHES_SCREEN.readyNow);
  });
});
