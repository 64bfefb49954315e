// The live arena with two players in two browser contexts (mouse and touch) against the real server:
// tic-tac-toe and chess through the UI, reloads mid-game, and the payout.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LIVE_ARENA } from '@versus/domain';
import {
  dismissToasts,
  browserPerFile,
  playCell,
  screenshot,
  signedUpPage,
  callApi as call,
  waitStatus,
  waitForGame,
  whoseTurn,
  type PagePlayer as Player,
} from './harness.ts';

const browser = browserPerFile();

/** Registers a fresh real player through the API inside a new context (which signs the page in). */
const player = (prefix: string, width: number): Promise<Player> => signedUpPage(browser(), prefix, { width });

/** A creates a challenge, B accepts it: the match id. */
async function makeMatch(a: Player, b: Player, game: string, stake: number, duration: number): Promise<string> {
  const created = await call<{ challenge: { id: string } }>(a, 'POST', '/api/challenges', { game, stake, duration });
  const accepted = await call<{ match: { id: string } }>(b, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
  return accepted.match.id;
}

const balance = (who: Player) => call<{ available_balance: number; escrow_balance: number }>(who, 'GET', '/api/wallet/balance');

async function openArena(who: Player, matchId: string): Promise<void> {
  await who.page.goto(`/live-arena?match=${matchId}&auto_ready=true`);
  await who.page.locator('#splash').waitFor({ state: 'hidden' });
}

const screen = (page: Page) => page.getByTestId('match-screen');
describe('live arena', () => {
  it('plays a tic-tac-toe best of 3 through the UI, survives a reload and pays the winner', async () => {
    const a = await player('ttta', 1280);
    const b = await player('tttb', 390);
    try {
      const stake = 10;
      const matchId = await makeMatch(a, b, 'tic-tac-toe', stake, 5);
      expect((await balance(a)).escrow_balance).toBe(stake);

      // A arrives first and is readied; B's arrival is announced to A, and the match starts.
      await openArena(a, matchId);
      await a.page.getByTestId('ready-room').getByText(LIVE_ARENA.waitingForReady(b.username)).waitFor();
      await openArena(b, matchId);
      await a.page.locator('[data-sonner-toast]', { hasText: LIVE_ARENA.playerJoined(b.username) }).waitFor();
      await Promise.all([waitStatus(a.page, 'in_progress'), waitStatus(b.page, 'in_progress')]);

      // The beta chat is docked under the match: floating over the board, it covered a cell or a clock.
      for (const p of [a, b]) {
        const feedback = p.page.getByTestId('feedback-open');
        await feedback.waitFor();
        expect(await feedback.count()).toBe(1);
        expect(await feedback.evaluate((el) => getComputedStyle(el).position)).not.toBe('fixed');
        const [button, board] = await Promise.all([feedback.boundingBox(), p.page.getByTestId('ttt-board').boundingBox()]);
        expect(button!.y, 'the chat button sits below the board').toBeGreaterThanOrEqual(board!.y + board!.height);
      }

      // X wins along the top row every game (a1, b1, c1 against a2, b2); X alternates, so the
      // match goes to a third game, which the first game's X wins.
      const firstX = await whoseTurn([a, b]);
      const firstO = firstX === a ? b : a;
      // With the socket connected, moves travel on it: no HTTP request per move.
      let httpMoves = 0;
      for (const p of [a, b])
        p.page.on(
          'request',
          (request) => void (request.method() === 'POST' && request.url().endsWith(`/api/matches/${matchId}/moves`) && httpMoves++),
        );
      for (let game = 0; game < 3; game++) {
        const x = game % 2 === 0 ? firstX : firstO;
        const o = x === a ? b : a;
        await waitForGame(x.page, game + 1);
        await playCell(x, 'a1');
        await playCell(o, 'a2');
        await playCell(x, 'b1');
        if (game === 1) {
          // A reload mid-game restores the board exactly from the server.
          await o.page.reload();
          await o.page.locator('#splash').waitFor({ state: 'hidden' });
          for (const cell of ['a1, X', 'a2, O', 'b1, X', 'b2, empty', 'c1, empty']) {
            await o.page.getByRole('button', { name: cell, exact: true }).waitFor();
          }
          expect(await o.page.getByTestId('move-list').textContent()).toContain('X b1');
          expect(await o.page.getByTestId('series-score').textContent()).toContain(LIVE_ARENA.gameNumber(2));
        }
        await playCell(o, 'b2');
        await playCell(x, 'c1');
        if (game === 0) {
          await waitForGame(x.page, 2);
          expect(httpMoves).toBe(0);
        }
      }

      const winner = firstX;
      const loser = firstO;
      await Promise.all([waitStatus(a.page, 'completed'), waitStatus(b.page, 'completed')]);
      expect(await winner.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.won);
      expect(await winner.page.getByTestId('result-payout').textContent()).toBe(LIVE_ARENA.paid('$20.00'));
      expect(await loser.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.lost);
      expect(await screen(winner.page).getByTestId('series-score').textContent()).toMatch(/2\s*–\s*1|1\s*–\s*2/);
      const rematch = await loser.page.getByTestId('rematch').getAttribute('href');
      expect(rematch).toBe(`/marketplace?game=tic-tac-toe&opponent=${winner.id}`);

      // The winner's balance rose by the stake; no escrow is left on either side.
      const [won, lost] = await Promise.all([balance(winner), balance(loser)]);
      expect(won).toMatchObject({ available_balance: 1000 + stake, escrow_balance: 0 });
      expect(lost).toMatchObject({ available_balance: 1000 - stake, escrow_balance: 0 });
      await winner.page.getByTestId('header-balance').filter({ hasText: '$1,010.00' }).waitFor();

      // SPEC §2: on /live-arena the game screens are preloaded after 3 s, ludo's 2 s later
      // (the loser's page was never reloaded: it has been on the arena all along).
      await loser.page.waitForFunction(
        (boards) => boards.every((board) => performance.getEntriesByType('resource').some((e) => e.name.includes(`/${board}-`))),
        ['ChessBoard', 'CheckersBoard', 'RockPaperScissorsBoard', 'AiRockPaperScissorsBoard', 'LudoBoard'],
        { timeout: 6_000 },
      );
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it("plays scholar's mate in chess (click, drag, tap, premove), restores after a reload, then the loser resigns", async () => {
    const a = await player('chessa', 1280);
    const b = await player('chessb', 390);
    try {
      const stake = 10;
      const matchId = await makeMatch(a, b, 'chess', stake, 10);
      await Promise.all([openArena(a, matchId), openArena(b, matchId)]);
      await Promise.all([waitStatus(a.page, 'in_progress'), waitStatus(b.page, 'in_progress')]);

      const white = await whoseTurn([a, b]);
      const black = white === a ? b : a;
      expect(await white.page.getByTestId('chess-board').getAttribute('data-flipped')).toBeNull();
      expect(await black.page.getByTestId('chess-board').getAttribute('data-flipped')).toBe('true');
      await Promise.all([dismissToasts(a.page), dismissToasts(b.page)]);

      const square = (who: Player, sq: string) => who.page.locator(`[data-square="${sq}"]`);
      const touch = (who: Player) => who === b; // B is the phone
      const click = async (who: Player, sq: string) => (touch(who) ? square(who, sq).tap() : square(who, sq).click());
      const waitTurn = (who: Player) =>
        who.page
          .getByTestId('turn-status')
          .filter({ hasText: new RegExp(`^${LIVE_ARENA.yourTurn}$`) })
          .waitFor();
      const move = async (who: Player, from: string, to: string) => {
        await waitTurn(who);
        await click(who, from);
        await square(who, to).locator('span.rounded-full').first().waitFor(); // the legal-target hint
        await click(who, to);
      };
      const moves = (who: Player) => who.page.getByTestId('move-list').textContent();
      const waitMoves = async (who: Player, text: string) => who.page.getByTestId('move-list').filter({ hasText: text }).waitFor();

      // 1. e4 e5
      await move(white, 'e2', 'e4');
      await white.page.locator('[data-square="e4"][aria-label="e4, white pawn"]').waitFor();
      // Black answers with the keyboard: arrows to e7, Enter, arrows to e5, Enter (the board is turned for black).
      await waitTurn(black);
      await square(black, 'e8').focus();
      await black.page.keyboard.press('ArrowUp');
      await black.page.keyboard.press('Enter');
      expect(await square(black, 'e7').getAttribute('aria-pressed')).toBe('true');
      await black.page.keyboard.press('ArrowUp');
      await black.page.keyboard.press('ArrowUp');
      expect(await black.page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).toBe('e5, empty');
      await black.page.keyboard.press('Enter');
      // The clock of the side to move ticks down between server updates.
      const running = white.page.locator('[data-to-move] [role="timer"]');
      await white.page.locator('[data-square="e5"][aria-label="e5, black pawn"]').waitFor();
      const before = await running.textContent();
      await white.page.waitForTimeout(1_100);
      expect(await running.textContent()).not.toBe(before);
      // 2. Bc4, and black premoves Nc6 while white thinks: it plays the moment the turn comes.
      await waitMoves(black, '1. e4 e5');
      await click(black, 'b8');
      await click(black, 'c6');
      await black.page.getByText(LIVE_ARENA.premoveQueued).waitFor();
      await move(white, 'f1', 'c4');
      await waitMoves(white, '2. Bc4 Nc6');
      await white.page.locator('[data-square="c6"][aria-label="c6, black knight"]').waitFor();

      // A reload mid-game restores the board exactly.
      await white.page.reload();
      await white.page.locator('#splash').waitFor({ state: 'hidden' });
      await waitTurn(white);
      for (const [sq, label] of [
        ['c4', 'white bishop'],
        ['e4', 'white pawn'],
        ['c6', 'black knight'],
        ['e5', 'black pawn'],
        ['f1', 'empty'],
      ]) {
        expect(await square(white, sq!).getAttribute('aria-label')).toBe(`${sq}, ${label}`);
      }
      expect(await moves(white)).toContain('2. Bc4 Nc6');

      // A spectator (a second tab of A) sees the same position, read-only, and then live.
      const watcher = await a.context.newPage();
      await watcher.goto(`/spectate/${matchId}`);
      await watcher.locator('#splash').waitFor({ state: 'hidden' });
      await watcher.getByTestId('spectating').waitFor();
      await watcher.locator('[data-square="c6"][aria-label="c6, black knight"]').waitFor();
      expect(await watcher.getByTestId('resign').count()).toBe(0);
      expect(await watcher.getByTestId('turn-status').textContent()).toBe(LIVE_ARENA.theirTurn(white.username));

      // 3. Qh5 by dragging the queen (mouse on A, or a tap-tap on the phone), Nf6.
      await waitTurn(white);
      if (touch(white)) {
        await click(white, 'd1');
        await click(white, 'h5');
      } else {
        await square(white, 'd1').dragTo(square(white, 'h5'));
      }
      await watcher.locator('[data-square="h5"][aria-label="h5, white queen"]').waitFor();
      await watcher.close();
      await move(black, 'g8', 'f6');
      await waitMoves(white, '3. Qh5 Nf6');
      // Mid-game screenshots: the last move and the hints of a selected piece.
      await waitTurn(white);
      await click(white, 'h5');
      await square(white, 'f7').locator('span.rounded-full').first().waitFor();
      await screenshot(a.page, 'arena-chess-1280');
      await screenshot(b.page, 'arena-chess-390');

      // 4. Qxf7# wins game 1; game 2 starts with colours swapped; black (of game 1) resigns the match.
      await click(white, 'f7');
      await waitMoves(black, 'Qxf7#');
      await waitForGame(black.page, 2);
      await black.page.getByTestId('resign').click();
      const dialog = black.page.getByTestId('resign-dialog');
      await dialog.waitFor();
      expect(await dialog.textContent()).toContain(LIVE_ARENA.resignBody('$10.00'));
      await dialog.getByRole('button', { name: LIVE_ARENA.resignConfirm }).click();

      await Promise.all([waitStatus(a.page, 'completed'), waitStatus(b.page, 'completed')]);
      expect(await white.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.won);
      expect(await white.page.getByTestId('result-payout').textContent()).toBe(LIVE_ARENA.paid('$20.00'));
      expect(await black.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.lost);
      expect(await black.page.getByTestId('result-payout').textContent()).toBe(LIVE_ARENA.stakeLost('$10.00'));
      expect(await white.page.getByTestId('match-result').textContent()).toContain('resignation');

      const [won, lost] = await Promise.all([balance(white), balance(black)]);
      expect(won).toMatchObject({ available_balance: 1000 + stake, escrow_balance: 0 });
      expect(lost).toMatchObject({ available_balance: 1000 - stake, escrow_balance: 0 });

      await Promise.all([dismissToasts(a.page), dismissToasts(b.page)]);
      await screenshot(a.page, 'arena-result-1280');
      await screenshot(b.page, 'arena-result-390');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
