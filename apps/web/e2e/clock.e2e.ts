// The clock a player agrees to: the time control chosen in the wizard is the one the card, the
// accept dialog and the match screen name, and the clocks start from it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { WIZARD } from '@versus/domain';
import { clockPerGame, matchTimeControl, timeControlLabel } from '@versus/domain/arena';
import { afterSplash, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const nextButton = (page: Page) => page.getByRole('button', { name: 'Next', exact: true });
const text = async (page: Page, testId: string) => ((await page.getByTestId(testId).first().textContent()) ?? '').trim();

describe('the time control', () => {
  it(
    'is chosen with the match length and is the same in the wizard, on the card, in the accept dialog and on the clocks',
    { timeout: 120_000 },
    async () => {
      const a = await newPage(browser, { width: 360 });
      const b = await newPage(browser, { width: 1280 });
      // What the creator chose: 10 min of tic-tac-toe is 2 min + 5 s per player per game.
      const label = timeControlLabel('tic-tac-toe', 10)!;
      expect(label).toBe('2 min + 5 s');
      expect(matchTimeControl('tic-tac-toe', 10).initialMs).toBe(120_000);
      try {
        await signUpInContext(a.page, { prefix: 'clka' });
        await signUpInContext(b.page, { prefix: 'clkb' });
        await b.page.goto('/marketplace');
        await b.page.getByTestId('challenge-grid').waitFor();
        await afterSplash(b.page);

        await a.page.goto('/create-challenge');
        await a.page.getByTestId('challenge-wizard').waitFor();
        await afterSplash(a.page);
        await a.page.getByRole('radio', { name: /^Tic-Tac-Toe/ }).click();
        await nextButton(a.page).click();

        // Step 2: the clock follows the length picked.
        await a.page
          .getByTestId('quick-picks')
          .getByRole('radio', { name: /\$10\.00/ })
          .click();
        expect(await a.page.getByTestId('wizard-time-control').count()).toBe(0);
        await a.page.getByTestId('durations').getByRole('radio', { name: '5 min', exact: true }).click();
        expect(await text(a.page, 'wizard-time-control')).toBe(clockPerGame('1 min + 5 s'));
        await a.page.getByTestId('durations').getByRole('radio', { name: '10 min', exact: true }).click();
        expect(await text(a.page, 'wizard-time-control')).toBe(clockPerGame(label));
        await a.page.getByTestId('wizard-time-control').scrollIntoViewIfNeeded();
        await screenshot(a.page, 'clock-wizard-step2-360');
        await nextButton(a.page).click();
        await a.page.getByTestId('slots').getByRole('radio').first().click();
        await nextButton(a.page).click();

        // Step 4: the summary names it before the stake is locked.
        const summary = a.page.getByTestId('confirm-summary');
        expect(await summary.textContent()).toContain(`Clock${clockPerGame(label)}`);
        await screenshot(a.page, 'clock-wizard-confirm-360');
        await a.page.getByRole('button', { name: WIZARD.launch }).click();
        await a.page.waitForURL((url) => url.pathname === '/marketplace' && url.searchParams.has('highlight'), { timeout: 20_000 });
        const challengeId = new URL(a.page.url()).searchParams.get('highlight')!;

        // B: the card and the accept dialog say the same.
        const card = b.page.locator(`[data-challenge-id="${challengeId}"]`);
        await card.waitFor({ timeout: 10_000 });
        expect(((await card.getByTestId('card-time-control').textContent()) ?? '').trim()).toBe(label);
        await card.getByRole('button', { name: /^Details/ }).click();
        const dialog = b.page.getByTestId('challenge-dialog');
        await dialog.waitFor();
        expect(await text(b.page, 'detail-time-control')).toBe(clockPerGame(label));
        await b.page.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        await card.getByRole('button', { name: /^Accept/ }).click();
        await dialog.waitFor();
        expect(await text(b.page, 'accept-time-control')).toBe(clockPerGame(label));
        await screenshot(b.page, 'clock-accept-dialog-1280');
        await dialog.getByTestId('confirm-accept').click();
        await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'), { timeout: 15_000 });
        const matchId = new URL(b.page.url()).searchParams.get('match')!;

        // The match screen names it before the start, and both clocks start from it.
        for (const p of [a.page, b.page]) {
          await p.goto(`/live-arena?match=${matchId}&auto_ready=true`);
          await afterSplash(p);
        }
        for (const p of [a.page, b.page]) {
          await p.locator('[data-testid="match-screen"][data-status="in_progress"]').waitFor({ timeout: 15_000 });
          expect(await text(p, 'match-time-control')).toContain(label);
          const clocks = [await text(p, 'clock-0'), await text(p, 'clock-1')];
          // The seat not to move shows its full time; the other counts down from it.
          expect(clocks).toContain('2:00');
          expect(clocks.every((c) => /^(2:00|1:5\d)$/.test(c))).toBe(true);
        }
        await screenshot(a.page, 'clock-match-360');
        await screenshot(b.page, 'clock-match-1280');
      } finally {
        await a.context.close();
        await b.context.close();
      }
    },
  );
});
