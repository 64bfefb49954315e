// A knockout of 4 against the real server: two players in browsers and two scripted through the API
// fill it; the browsers see the bracket advance live, play their games in the UI and see the prize paid.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import type { BrowserContext, Page } from 'playwright-core';
import { LIVE_ARENA, TOURNAMENT, TOURNAMENT_VIEW } from '@versus/domain';
import type { MatchView } from '@versus/domain/arena';
import { formatMoney, toMinor } from '@versus/domain/money';
import type { TournamentDetail } from '@versus/domain/tournaments';
import { afterSplash, browserPerFile, callApi, dismissToasts, screenshot, signedUpPage, type SignedUpPlayer } from './harness.ts';

const browser = browserPerFile();
let db: pg.Client;

beforeAll(async () => {
  db = new pg.Client({ connectionString: inject('databaseUrl') });
  await db.connect();
});

afterAll(async () => {
  await db?.end();
});

interface Player extends SignedUpPlayer {
  /** Browser players only. */
  page: Page | null;
  context: BrowserContext | null;
}

const ENTRY = 10;

const browserPlayer = (prefix: string, width: number): Promise<Player> => signedUpPage(browser(), prefix, { width });

/** A scripted player: signed up in a throwaway context, playing through the API only. */
async function scriptedPlayer(prefix: string): Promise<Player> {
  const { context, ...player } = await signedUpPage(browser(), prefix);
  await context.close();
  return { ...player, page: null, context: null };
}

/** A tic-tac-toe tournament of 4 to 8 at ENTRY credits, starting in 10 minutes, created through the API; its id. */
async function createTicTacToe(as: Player, fields: { name: string; format: 'knockout' | 'arena'; arenaMinutes?: number }) {
  const created = await callApi<{ tournament: TournamentDetail }>(as, 'POST', '/api/tournaments', {
    game: 'tic-tac-toe',
    currency: 'credits',
    entry: { kind: 'stake', stake: ENTRY },
    minPlayers: 4,
    maxPlayers: 8,
    startsAt: new Date(Date.now() + 10 * 60_000).toISOString(),
    matchMinutes: 5,
    ...fields,
  });
  return created.tournament.id;
}

const tournament = (as: Player, id: string) => callApi<{ tournament: TournamentDetail }>(as, 'GET', `/api/tournaments/${id}`);
const matchView = async (as: Player, id: string) => (await callApi<{ match: MatchView }>(as, 'GET', `/api/matches/${id}`)).match;
const available = async (as: Player) => (await callApi<{ available_balance: number }>(as, 'GET', '/api/wallet/balance')).available_balance;
const cellName = (cell: number) => `${'abc'[cell % 3]}${Math.floor(cell / 3) + 1}`;

async function until<T>(read: () => Promise<T | null | undefined | false>, what: string, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

/** Whether the bracket on `page` marks `playerId` as a pair's winner. */
const hasWon = async (page: Page, playerId: string) =>
  (await page.locator(`[data-testid="bracket-slot"][data-won="true"][data-player="${playerId}"]`).count()) > 0;

/**
 * Plays one tournament game of tic-tac-toe to `winner`: browser players get ready and move in their page,
 * scripted ones through the API. The winner takes the top row; the loser plays the middle row and a corner.
 */
async function playGame(matchId: string, players: Player[], winnerId: string): Promise<void> {
  const [first, second] = (await matchView(players[0]!, matchId)).players.map((p) => players.find((x) => x.id === p.id)!) as [
    Player,
    Player,
  ];
  const seats = [first, second];
  for (const p of seats) {
    if (p.page) {
      await p.page.getByTestId('ready-button').click();
    } else {
      await callApi(p, 'POST', `/api/matches/${matchId}/ready`, {});
    }
  }
  let view = await until(async () => {
    const v = await matchView(first, matchId);
    return v.status === 'in_progress' && v;
  }, 'the game to start');
  while (view.status === 'in_progress') {
    const mover = seats[view.toMove[0]!]!;
    const cells = (view.game!.view as { cells: (string | null)[] }).cells;
    const cell = (mover.id === winnerId ? [0, 1, 2] : [3, 4, 6, 7]).find((c) => cells[c] === null)!;
    const before = view.version;
    if (mover.page) {
      // The page shows the move it is waiting for (the opponent's may have come over HTTP a moment ago).
      await mover.page
        .getByRole('button', { name: `${cellName(cell)}, empty`, exact: true })
        .click()
        .catch(async (error: unknown) => {
          // What the page shows against what the server has: which change the page missed.
          const shown = await mover.page!.getByTestId('match-screen').evaluate((el) => `${el.dataset.status} v${el.dataset.version}`);
          const server = await matchView(mover, matchId);
          throw new Error(`page at ${shown}, server at ${server.status} v${server.version}`, { cause: error });
        });
    } else {
      await callApi(mover, 'POST', `/api/matches/${matchId}/moves`, { move: cell, version: view.version });
    }
    view = await until(
      async () => {
        const v = await matchView(first, matchId);
        return v.version > before && v;
      },
      `the move ${cellName(cell)}`,
    );
  }
  expect(view.status).toBe('completed');
  expect(view.winnerId).toBe(winnerId);
}

/** The game `who` has to play now in the tournament, once it is made. */
const currentGame = (who: Player, id: string) =>
  until(async () => (await tournament(who, id)).tournament.me?.currentMatchId, `${who.username}'s next game`);

describe('tournaments', () => {
  it('fills a knockout of 4, advances the bracket live in the browsers and pays the winner', { timeout: 150_000 }, async () => {
    const a = await browserPlayer('tka', 1280);
    const b = await browserPlayer('tkb', 360);
    const c = await scriptedPlayer('tkc');
    const d = await scriptedPlayer('tkd');
    const everyone = [a, b, c, d];
    try {
      // A creates it in the form (the first start it offers is 15 minutes away).
      const pageA = a.page!;
      const pageB = b.page!;
      // The landing page and the marketplace lead to the list.
      await pageA.goto('/');
      await afterSplash(pageA);
      await pageA.getByTestId('landing-tournaments').click();
      await pageA.getByTestId('create-tournament-link').click();
      await pageA.getByTestId('create-tournament-submit').click();
      // The name is required: the form says so on the field, with the server's words, and the keyboard goes there.
      await pageA
        .getByTestId('field-error')
        .filter({ hasText: TOURNAMENT.nameLength(3, 80) })
        .waitFor();
      expect(await pageA.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
      await screenshot(pageA, 'tournament-create-1280');
      const name = `Cup ${a.username}`;
      await pageA.getByLabel('Name').fill(name);
      await pageA.getByLabel('Maximum players').fill('4');
      await pageA.getByLabel('Each pairing plays').selectOption('best-of-1');
      await pageA.getByTestId('create-tournament-submit').click();
      await pageA.waitForURL(/\/tournaments\/[0-9a-f-]{36}$/);
      const id = pageA.url().split('/').pop()!;
      await pageA.getByTestId('tournament-name').filter({ hasText: name }).waitFor();
      // The prize split is shown before joining.
      expect(await pageA.getByTestId('prize-split').textContent()).toContain('Winner takes all');

      // B finds it in the list and joins in the page; A joins too; C and D through the API.
      const before = await available(a);
      await pageB.goto('/tournaments/create');
      await afterSplash(pageB);
      await pageB.getByTestId('create-tournament-form').waitFor();
      await screenshot(pageB, 'tournament-create-360');
      await pageB.goto('/marketplace');
      await afterSplash(pageB);
      await pageB.getByTestId('marketplace-tournaments').click();
      await pageB.locator(`[data-testid="tournament-row"][data-id="${id}"]`).waitFor();
      await screenshot(pageB, 'tournaments-list-360');
      await pageB.locator(`[data-testid="tournament-row"][data-id="${id}"]`).click();
      await pageB.getByTestId('join-tournament').click();
      await pageB.locator('[data-sonner-toast]', { hasText: TOURNAMENT.entered(`$${ENTRY}.00`) }).waitFor();
      await pageA.getByTestId('join-tournament').click();
      await pageA.getByTestId('leave-tournament').waitFor();
      for (const p of [c, d]) await callApi(p, 'POST', `/api/tournaments/${id}/join`, {});
      // A's page follows the field live.
      await pageA.getByText('4/4 players').first().waitFor();
      expect(await available(a)).toBe(before - ENTRY);

      // The start, now rather than in 15 minutes: the runner starts it on its next beat.
      await db.query('UPDATE tournaments SET starts_at = now() WHERE id = $1', [id]);
      await Promise.all([pageA, pageB].map((p) => p.locator('[data-testid="tournament-page"] [data-status="running"]').waitFor()));
      await pageA.getByTestId('bracket').waitFor();
      expect(await pageA.getByTestId('bracket-pair').count()).toBe(3);
      await Promise.all([dismissToasts(pageA), dismissToasts(pageB)]);
      await screenshot(pageA, 'tournament-bracket-1280');
      await screenshot(pageB, 'tournament-bracket-360');
      // The bracket scrolls in its own box on a phone; the page does not scroll sideways.
      expect(await pageB.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

      // A beats everyone, B beats C and D, C beats D: who plays whom follows the seeding.
      const rank = (p: Player) => everyone.indexOf(p);
      const byId = (playerId: string) => everyone.find((p) => p.id === playerId)!;
      const t0 = (await tournament(a, id)).tournament;
      const firstRound = t0.games.filter((g) => g.round === 0);
      expect(firstRound).toHaveLength(2);
      const ordered = firstRound
        .map((g) => ({ matchId: g.matchId, players: g.players.map(byId) }))
        // The browsers' games first, one at a time, so the other page sees each result arrive.
        .sort((x, y) => Math.min(...x.players.map(rank)) - Math.min(...y.players.map(rank)));
      const finalists: Player[] = [];
      for (const game of ordered) {
        const winner = game.players.reduce((best, p) => (rank(p) < rank(best) ? p : best));
        for (const p of game.players) {
          if (!p.page) continue;
          // The page says the game is ready and leads to it.
          await p.page.getByTestId('play-my-game').click();
          await p.page.getByTestId('ready-room').waitFor();
        }
        const watchers = [a, b].filter((p) => !game.players.includes(p));
        await playGame(game.matchId, game.players, winner.id);
        finalists.push(winner);
        for (const p of game.players) {
          if (!p.page) continue;
          // From the match view back to the tournament: its name, not a stake.
          await p.page.getByTestId('match-tournament').getByRole('link', { name }).click();
          await p.page.getByTestId('bracket').waitFor();
        }
        // A page that stayed on the tournament sees the result without a reload.
        for (const w of watchers) {
          await until(() => hasWon(w.page!, winner.id), 'the result live');
        }
      }
      expect(finalists.map((p) => p.username).sort()).toEqual([a.username, b.username].sort());

      // The final: both browsers, A wins.
      const finalId = await currentGame(a, id);
      expect(await currentGame(b, id)).toBe(finalId);
      await Promise.all([a, b].map((p) => p.page!.getByTestId('play-my-game').click()));
      await Promise.all([a, b].map((p) => p.page!.getByTestId('ready-room').waitFor()));
      expect(await pageA.getByTestId('match-tournament').textContent()).toContain(name);
      expect(await pageA.getByTestId('match-screen').textContent()).not.toContain('Stake');
      await playGame(finalId, [a, b], a.id);
      await pageA.getByText(LIVE_ARENA.won).first().waitFor();

      // The prize: the whole pool, once, to A; their page and their wallet say so.
      await pageA.getByTestId('match-tournament').getByRole('link', { name }).click();
      await pageA
        .getByTestId('my-place')
        .filter({ hasText: TOURNAMENT_VIEW.finishedPlace(1, '$40.00') })
        .waitFor({ timeout: 20_000 });
      await pageA.locator('[data-testid="tournament-page"] [data-status="finished"]').waitFor();
      await dismissToasts(pageA);
      expect(await available(a)).toBe(before - ENTRY + 4 * ENTRY);
      await until(
        async () =>
          (await pageA.getByTestId('header-balance').first().textContent())?.includes(formatMoney(toMinor(before + 3 * ENTRY), 'credits')),
        'the wallet balance in the header',
      );
      const final = (await tournament(a, id)).tournament;
      expect(final.entrants.find((e) => e.id === a.id)).toMatchObject({ place: 1, prize: 4 * ENTRY });
      expect(final.entrants.filter((e) => e.prize > 0)).toHaveLength(1);
      await dismissToasts(pageA);
      await screenshot(pageA, 'tournament-finished-1280');
      await pageA.goto('/tournaments?tab=finished');
      await afterSplash(pageA);
      await pageA.locator(`[data-testid="tournament-row"][data-id="${id}"]`).waitFor();
      await screenshot(pageA, 'tournaments-list-1280');
    } finally {
      for (const p of [a, b]) await p.context?.close();
    }
  });

  it('shows an arena’s live standings and time left, and pauses and resumes a player', { timeout: 120_000 }, async () => {
    const e = await browserPlayer('tae', 1280);
    const f = await browserPlayer('taf', 360);
    const g = await scriptedPlayer('tag');
    const h = await scriptedPlayer('tah');
    const everyone = [e, f, g, h];
    try {
      const id = await createTicTacToe(g, { name: `Arena ${g.username}`, format: 'arena', arenaMinutes: 30 });
      for (const p of everyone) await callApi(p, 'POST', `/api/tournaments/${id}/join`, {});
      await db.query("UPDATE tournaments SET starts_at = now(), ends_at = now() + interval '30 minutes' WHERE id = $1", [id]);
      for (const p of [e, f]) {
        await p.page!.goto(`/tournaments/${id}`);
        await afterSplash(p.page!);
      }
      await Promise.all([e, f].map((p) => p.page!.getByTestId('standings').waitFor({ timeout: 20_000 })));
      await e.page!.getByTestId('arena-time-left').waitFor();

      // Every first pairing played through the API: the winners' 2 points appear live in the pages.
      const running = (await tournament(e, id)).tournament;
      const games = running.games.filter((x) => x.status !== 'completed');
      expect(games).toHaveLength(2);
      const scripted = everyone.map((p) => ({ ...p, page: null }));
      for (const game of games) {
        await playGame(
          game.matchId,
          scripted.filter((p) => game.players.includes(p.id)),
          game.players[0],
        );
      }
      const points = (page: Page) => page.locator('[data-testid="standing-row"] [data-testid="standing-points"]').allTextContents();
      await until(async () => (await points(e.page!)).filter((text) => text === '2').length === 2, 'the winners’ points in the standings');
      await Promise.all([dismissToasts(e.page!), dismissToasts(f.page!)]);
      await screenshot(e.page!, 'tournament-standings-1280');
      await screenshot(f.page!, 'tournament-standings-360');

      // Pause and resume, with the server's words.
      await e.page!.getByTestId('pause-tournament').click();
      await e.page!.locator('[data-sonner-toast]', { hasText: TOURNAMENT.pausedArena }).waitFor();
      await e.page!.getByTestId('resume-tournament').click();
      await e.page!.locator('[data-sonner-toast]', { hasText: TOURNAMENT.resumedArena }).waitFor();
      await e.page!.getByTestId('pause-tournament').waitFor();
      expect((await tournament(e, id)).tournament.me?.paused).toBe(false);
    } finally {
      for (const p of [e, f]) await p.context?.close();
    }
  });

  it('lets its creator cancel before the start, after asking, and returns every stake', { timeout: 60_000 }, async () => {
    const creator = await browserPlayer('tcc', 1280);
    const entrant = await browserPlayer('tce', 360);
    try {
      const before = await available(entrant);
      const id = await createTicTacToe(creator, { name: `Called Off ${creator.username}`, format: 'knockout' });
      await callApi(entrant, 'POST', `/api/tournaments/${id}/join`, {});
      expect(await available(entrant)).toBe(before - ENTRY);
      for (const p of [creator, entrant]) {
        await p.page!.goto(`/tournaments/${id}`);
        await afterSplash(p.page!);
        await p.page!.getByTestId('tournament-name').waitFor();
      }
      // Only the creator (or an admin) is offered it.
      expect(await entrant.page!.getByTestId('cancel-tournament').count()).toBe(0);

      // Asked first: keeping it changes nothing.
      await creator.page!.getByTestId('cancel-tournament').click();
      await creator.page!.getByRole('button', { name: TOURNAMENT_VIEW.keep }).click();
      expect((await tournament(creator, id)).tournament.status).toBe('scheduled');

      await creator.page!.getByTestId('cancel-tournament').click();
      await creator.page!.getByTestId('confirm-cancel-tournament').click();
      await creator.page!.locator('[data-sonner-toast]', { hasText: TOURNAMENT.cancelled }).waitFor();
      await creator.page!.locator('[data-status="cancelled"]').waitFor();
      // The entrant's page follows live, and the stake is back.
      await entrant.page!.locator('[data-status="cancelled"]').waitFor({ timeout: 20_000 });
      expect(await available(entrant)).toBe(before);
      expect(await creator.page!.getByTestId('cancel-tournament').count()).toBe(0);
    } finally {
      for (const p of [creator, entrant]) await p.context?.close();
    }
  });
});
