// An external game end to end, three browser contexts: starting early when both are ready,
// contradicting reports, and the admin's resolution.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Browser } from 'playwright-core';
import { ADMIN_SCREEN, MATCHES_SCREEN, NOTIFICATIONS, RESULTS } from '@versus/domain';
import { adminDisputeItem, afterSplash, callApi, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const available = async (who: { token: string }) =>
  Number((await callApi<{ available_balance: number }>(who, 'GET', '/api/wallet/balance')).available_balance);
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();
const card = (page: Page, matchId: string) => page.locator(`[data-testid="match-card"][data-match-id="${matchId}"]`);
const chip = async (page: Page, matchId: string) => ((await card(page, matchId).getByTestId('match-status').textContent()) ?? '').trim();

async function eventuallyText(read: () => Promise<string>, expected: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
  expect(last).toBe(expected);
}

describe('an external game', () => {
  it('starts when both are ready, tells both of a dispute, and reads money the same everywhere', { timeout: 150_000 }, async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 360 });
    const admin = await newPage(browser, { width: 1280 });
    try {
      const playerA = await signUpInContext(a.page, { prefix: 'extA' });
      const playerB = await signUpInContext(b.page, { prefix: 'extB' });
      const stake = 40;
      const created = await callApi<{ challenge: { id: string } }>(playerA, 'POST', '/api/challenges', {
        game: 'fifa-24',
        platform: 'playstation',
        gamertag: 'AlphaPad',
        stake,
        duration: 30,
      });
      const accepted = await callApi<{ match: { id: string } }>(playerB, 'POST', `/api/challenges/${created.challenge.id}/accept`, {
        gamertag: 'BravoPad',
      });
      const matchId = accepted.match.id;
      // A's stake is already in escrow.
      const before = await available(playerA);

      // Both open the match card: it starts later (30 minutes ahead), says when reporting opens, offers to play now.
      for (const { page } of [a, b]) {
        await page.goto(`/matches?highlight=${matchId}`);
        await afterSplash(page);
        await card(page, matchId).waitFor();
        expect(await chip(page, matchId)).toBe(MATCHES_SCREEN.status.pending);
        expect(await card(page, matchId).getByTestId('match-countdown').textContent()).toMatch(/^Starts in /);
        expect(await card(page, matchId).getByTestId('report-opens').textContent()).toMatch(
          /^Reporting opens at .+, or as soon as you are both ready to play now\.$/,
        );
        expect(await card(page, matchId).getByRole('button', { name: MATCHES_SCREEN.reportWin }).count()).toBe(0);
      }
      await screenshot(b.page, 'external-before-start-360');

      // A is ready; B sees it live, and is ready too: the match is in progress at once, for both.
      await card(a.page, matchId).getByRole('button', { name: MATCHES_SCREEN.readyNow }).click();
      await card(a.page, matchId).getByText(MATCHES_SCREEN.youAreReady(playerB.username)).waitFor();
      await card(b.page, matchId).getByText(MATCHES_SCREEN.opponentIsReady(playerA.username)).waitFor({ timeout: 10_000 });
      await card(b.page, matchId).getByRole('button', { name: MATCHES_SCREEN.readyNow }).click();
      for (const { page } of [a, b]) {
        await eventuallyText(() => chip(page, matchId), MATCHES_SCREEN.status.in_progress!);
        expect(await card(page, matchId).getByTestId('match-countdown').textContent()).toBe(MATCHES_SCREEN.startedEarly);
        await card(page, matchId).getByText(MATCHES_SCREEN.playThenReport).waitFor();
        // Told what to do: play on the platform, then report — not "Join now" in a browser arena.
        await toast(page, NOTIFICATIONS.playOnPlatform).waitFor({ timeout: 10_000 });
        expect(await toast(page, NOTIFICATIONS.playOnPlatform).getByText('Join', { exact: false }).count()).toBe(0);
      }
      await screenshot(b.page, 'external-in-progress-360');
      await screenshot(a.page, 'external-in-progress-1280');

      // A reports a win; B also claims the win: both are told it is under review, with where to follow it.
      await card(a.page, matchId).getByRole('button', { name: MATCHES_SCREEN.reportWin }).click();
      await a.page.getByText(RESULTS.reportRecorded).first().waitFor();
      await card(b.page, matchId).getByRole('button', { name: MATCHES_SCREEN.reportWin }).click();
      await b.page.getByText(RESULTS.underReview).first().waitFor();
      const disputeToast = toast(a.page, 'Match Under Review');
      await disputeToast.waitFor({ timeout: 10_000 });
      await screenshot(a.page, 'external-dispute-toast-1280');
      await disputeToast.getByRole('button', { name: NOTIFICATIONS.followDispute }).click();
      await a.page.waitForURL(
        (url) => url.pathname === '/matches' && url.searchParams.get('tab') === 'disputes' && url.searchParams.get('highlight') === matchId,
      );
      await toast(b.page, 'Match Under Review').waitFor({ timeout: 10_000 });

      // The Disputes tab: amounts as money.
      const dispute = a.page.locator(`[data-testid="dispute-card"][data-match-id="${matchId}"]`);
      await dispute.waitFor();
      expect(await dispute.getByTestId('dispute-amounts').textContent()).toBe(
        `${MATCHES_SCREEN.stake} $40.00 · ${MATCHES_SCREEN.payout} $80.00`,
      );
      await b.page.goto(`/matches?tab=disputes&highlight=${matchId}`);
      await afterSplash(b.page);
      await b.page.locator(`[data-testid="dispute-card"][data-match-id="${matchId}"]`).waitFor();
      await screenshot(b.page, 'external-disputes-tab-360');

      // The admin queue: the same money, "1 dispute" for each player; resolved for A, who is paid.
      const item = await adminDisputeItem(admin.page, [playerA.username, playerB.username]);
      expect(await item.getByTestId('admin-dispute-stake').textContent()).toBe(`${MATCHES_SCREEN.stake} $40.00`);
      expect(await item.getByTestId('dispute-record').allTextContents()).toEqual([
        `${playerA.username}: ${ADMIN_SCREEN.record(1, 0, 0)}`,
        `${playerB.username}: ${ADMIN_SCREEN.record(1, 0, 0)}`,
      ]);
      expect(ADMIN_SCREEN.record(1, 0, 0)).toBe('1 dispute · 0 won · 0 lost');
      await screenshot(admin.page, 'external-admin-1280');
      await item.getByRole('button', { name: ADMIN_SCREEN.winner(playerA.username) }).click();
      await item.getByLabel(ADMIN_SCREEN.reason).fill('A’s screenshot shows the final score 2-1.');
      await item.getByRole('button', { name: ADMIN_SCREEN.resolve }).click();
      await admin.page.getByText(ADMIN_SCREEN.resolvedToast).waitFor();
      await dispute.getByTestId('dispute-resolution').waitFor({ timeout: 10_000 });
      expect(await available(playerA)).toBe(before + 2 * stake); // the payout: both stakes
    } finally {
      for (const c of [a, b, admin]) await c.context.close();
    }
  });
});
