// Two players against the real server: a challenge made through the wizard appears live on the other's
// marketplace and is accepted; then the wizard's prefill and checks, escrow failures and codes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { CHALLENGE, MARKETPLACE, WIZARD } from '@versus/domain';
import { afterSplash, launchBrowser, newPage, screenshot, signUpInContext, eventually } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The header wallet dropdown's In Games figure. */
async function inGames(page: Page): Promise<string> {
  const menu = page.getByTestId('wallet-dropdown');
  if (!(await menu.isVisible())) await page.getByTestId('wallet-menu').click();
  await menu.waitFor();
  const text = (await page.getByTestId('dropdown-escrow').textContent()) ?? '';
  await page.keyboard.press('Escape');
  await menu.waitFor({ state: 'detached' });
  return text;
}

/** A screenshot once smooth scrolling and entry animations have settled. */
async function shot(page: Page, name: string): Promise<void> {
  await page.waitForTimeout(600);
  await screenshot(page, name);
}

const wizardStep = (page: Page) => page.getByTestId('challenge-wizard').getAttribute('data-step');
const nextButton = (page: Page) => page.getByRole('button', { name: 'Next', exact: true });
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();

describe('marketplace and create-challenge wizard', () => {
  it('A creates a challenge through the wizard; B sees it live, accepts it; both stakes are in escrow', { timeout: 120_000 }, async () => {
    const a = await newPage(browser, { width: 390 });
    const b = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(a.page, { prefix: 'mka' });
      await signUpInContext(b.page, { prefix: 'mkb' });

      // B is on the marketplace first (the demo players' challenges are there).
      await b.page.goto('/marketplace');
      await b.page.getByTestId('challenge-grid').waitFor();
      await afterSplash(b.page);
      expect(await b.page.getByRole('heading', { level: 1 }).textContent()).toContain(MARKETPLACE.title);
      await b.page.evaluate(() => {
        (window as unknown as { notReloaded?: boolean }).notReloaded = true;
      });
      await shot(b.page, 'marketplace-1280');

      // A opens the wizard from the mobile centre button.
      await a.page.goto('/');
      await a.page.getByTestId('landing-page').waitFor();
      await afterSplash(a.page);
      // Featured challenges come from the open ones (the demo players'), not the two samples.
      await a.page.getByTestId('featured-challenge').first().waitFor();
      await eventually(() => a.page.getByText('Zone Wars 1v1').count(), 0);
      expect(await a.page.getByTestId('featured-challenge').count()).toBeLessThanOrEqual(4);
      await a.page.getByTestId('bottom-bar').getByRole('button', { name: 'Create challenge' }).click();
      await a.page.waitForURL((url) => url.pathname === '/create-challenge');
      await a.page.getByTestId('challenge-wizard').waitFor();

      // Step 1: Next waits for a game.
      expect(await wizardStep(a.page)).toBe('1');
      expect(await a.page.getByRole('heading', { level: 2 }).textContent()).toContain(WIZARD.steps[0]);
      expect(await nextButton(a.page).isDisabled()).toBe(true);
      expect(await a.page.getByTestId('wizard-hint').textContent()).toBe(CHALLENGE.chooseGame);
      await shot(a.page, 'wizard-step1-390');
      await a.page.getByRole('radio', { name: /^Chess/ }).click();
      await nextButton(a.page).click();

      // Step 2: a stake and a duration.
      expect(await wizardStep(a.page)).toBe('2');
      expect(await nextButton(a.page).isDisabled()).toBe(true);
      const picks = await a.page.getByTestId('quick-picks').getByRole('radio').allTextContents();
      expect(picks).toEqual(['$10.00Casual', '$25.00Casual', '$50.00Pro', '$100.00Elite']);
      await a.page
        .getByTestId('quick-picks')
        .getByRole('radio', { name: /\$25\.00/ })
        .click();
      expect(await nextButton(a.page).isDisabled()).toBe(true);
      expect(await a.page.getByTestId('wizard-hint').textContent()).toBe(CHALLENGE.chooseDuration);
      await a.page.getByTestId('durations').getByRole('radio', { name: '30 min' }).click();
      await shot(a.page, 'wizard-step2-390');
      await nextButton(a.page).click();

      // Step 3: a time from the first six slots (more on request), a message with its counter.
      expect(await wizardStep(a.page)).toBe('3');
      expect(await nextButton(a.page).isDisabled()).toBe(true);
      const slots = a.page.getByTestId('slots').getByRole('radio');
      expect(await slots.count()).toBe(6);
      // On a phone "· Today" never breaks after its dot (at 360 px the time and day share no line),
      // and Show more is big enough to tap.
      await a.page.setViewportSize({ width: 360, height: 740 });
      const dayLines = await a.page
        .getByTestId('slots')
        .evaluate((el) =>
          [...el.querySelectorAll('span')]
            .filter((s) => s.textContent?.startsWith('·'))
            .map((s) => new Set([...s.getClientRects()].map((r) => Math.round(r.y))).size),
        );
      expect(Math.max(...dayLines)).toBe(1);
      await a.page.setViewportSize({ width: 390, height: 844 });
      expect((await a.page.getByRole('button', { name: /Show more times/ }).boundingBox())!.height).toBeGreaterThanOrEqual(40);
      await a.page.getByRole('button', { name: /Show more times/ }).click();
      expect(await slots.count()).toBe(24);
      await a.page.getByRole('button', { name: /Show fewer times/ }).click();
      await slots.first().click();
      await a.page.getByLabel('Message (optional)').fill('Rapid chess, best of 3. GLHF!');
      expect(await a.page.getByTestId('message-counter').textContent()).toBe('29/200');
      await shot(a.page, 'wizard-step3-390');
      await nextButton(a.page).click();

      // Step 4: the summary, then Launch.
      expect(await wizardStep(a.page)).toBe('4');
      const summary = a.page.getByTestId('confirm-summary');
      expect(await summary.textContent()).toContain('$50.00'); // payout: twice the stake
      expect(await summary.textContent()).toContain('FREE');
      await shot(a.page, 'wizard-step4-390');
      await a.page.getByRole('button', { name: WIZARD.launch }).click();

      // The escrow dialog follows the real call: every step completes, then the marketplace shows the new card.
      const dialog = a.page.getByTestId('escrow-dialog');
      await dialog.waitFor();
      for (const label of Object.values(WIZARD.escrowSteps)) expect(await dialog.textContent()).toContain(label);
      await screenshot(a.page, 'escrow-progress-390');
      await a.page.waitForURL((url) => url.pathname === '/marketplace' && url.searchParams.has('highlight'));
      const challengeId = new URL(a.page.url()).searchParams.get('highlight')!;
      await toast(a.page, CHALLENGE.createdTitle).waitFor();
      expect(await toast(a.page, CHALLENGE.createdTitle).textContent()).toContain(CHALLENGE.lockedInEscrow('$25'));
      const mine = a.page.locator(`[data-challenge-id="${challengeId}"]`);
      await mine.waitFor();
      expect(await mine.getAttribute('data-highlighted')).toBe('true');
      expect(await mine.getByRole('button', { name: /^Cancel/ }).isVisible()).toBe(true); // own: Cancel, not Accept
      await shot(a.page, 'marketplace-390');

      // B sees it appear without reloading.
      const card = b.page.locator(`[data-challenge-id="${challengeId}"]`);
      await card.waitFor({ timeout: 10_000 });
      expect(await b.page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
      expect(await card.textContent()).toContain('Chess Challenge');
      expect(await card.textContent()).toContain('$25.00');
      expect(await card.textContent()).toContain('Best of 3');

      // B accepts: the confirmation shows the stake and balance; the server's message is the toast.
      await card.getByRole('button', { name: /^Accept/ }).click();
      const confirm = b.page.getByTestId('challenge-dialog');
      await confirm.waitFor();
      expect(await confirm.getByTestId('accept-balance').textContent()).toContain('$1,000.00');
      await shot(b.page, 'accept-dialog-1280');
      await confirm.getByTestId('confirm-accept').click();
      await toast(b.page, CHALLENGE.accepted('25', 'credits')).waitFor();
      // A browser game: B is taken straight to the match in the live arena.
      await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'));

      // Both stakes are in escrow.
      await eventually(() => inGames(b.page), '$25.00');
      await eventually(() => inGames(a.page), '$25.00');

      // A's open list no longer has it (live, no reload).
      await mine.waitFor({ state: 'detached', timeout: 10_000 });
      // The match monitor takes A, the creator, to the same match's board.
      const matchId = new URL(b.page.url()).searchParams.get('match');
      await a.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.get('match') === matchId, { timeout: 10_000 });
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it(
    'prefills from the address, checks each step, fails the escrow lock on low credits, and shows a private code',
    { timeout: 120_000 },
    async () => {
      const a = await newPage(browser, { width: 1280 });
      const b = await newPage(browser, { width: 390 });
      try {
        const { token, id: aId, username: aName } = await signUpInContext(a.page, { prefix: 'mkc' });
        await signUpInContext(b.page, { prefix: 'mkd' });

        // /marketplace/create?game=&amount= opens Set Stakes with both chosen; an external game needs a platform and a gamertag.
        await a.page.goto('/marketplace/create?game=fortnite&amount=50');
        await a.page.getByTestId('challenge-wizard').waitFor();
        await afterSplash(a.page);
        expect(await wizardStep(a.page)).toBe('2');
        expect(
          await a.page
            .getByTestId('quick-picks')
            .getByRole('radio', { name: /\$50\.00/ })
            .getAttribute('aria-checked'),
        ).toBe('true');
        await a.page.getByTestId('durations').getByRole('radio').first().click();
        expect(await a.page.getByTestId('wizard-hint').textContent()).toBe(CHALLENGE.platformRequired);
        await a.page.getByTestId('platforms').getByRole('radio', { name: 'Xbox' }).click();
        expect(await a.page.getByTestId('wizard-hint').textContent()).toBe(CHALLENGE.gamertagRequired);
        expect(await nextButton(a.page).isDisabled()).toBe(true);
        await a.page.getByLabel('Your gamertag on Xbox').fill('NoScope42');
        expect(await nextButton(a.page).isDisabled()).toBe(false);
        // A custom stake outside 1–1000 is refused.
        await a.page.getByLabel('Custom amount').fill('1001');
        expect(await a.page.getByRole('alert').filter({ hasText: CHALLENGE.invalidStake }).isVisible()).toBe(true);
        expect(await nextButton(a.page).isDisabled()).toBe(true);
        await a.page.getByLabel('Custom amount').fill('');
        await a.page
          .getByTestId('quick-picks')
          .getByRole('radio', { name: /\$25\.00/ })
          .click();
        await shot(a.page, 'wizard-step2-1280');

        // Back to step 1 keeps the choices; the screenshots at 1280.
        await a.page.getByRole('button', { name: 'Back', exact: true }).click();
        expect(await wizardStep(a.page)).toBe('1');
        expect(await a.page.getByRole('radio', { name: /^Fortnite/ }).getAttribute('aria-checked')).toBe('true');
        await shot(a.page, 'wizard-step1-1280');
        await nextButton(a.page).click();
        await nextButton(a.page).click();
        await a.page.getByTestId('slots').getByRole('radio').nth(2).click();
        // Private: the code comes back with the challenge.
        await a.page.getByRole('radio', { name: /^Private/ }).click();
        await shot(a.page, 'wizard-step3-1280');
        await nextButton(a.page).click();
        await shot(a.page, 'wizard-step4-1280');
        await a.page.getByRole('button', { name: WIZARD.launch }).click();
        const dialog = a.page.getByTestId('escrow-dialog');
        const code = dialog.getByTestId('challenge-code');
        await code.waitFor();
        const codeText = (await code.textContent())!;
        expect(codeText).toMatch(/^[A-Z0-9]{6}$/);
        for (const id of ['auth', 'balance', 'lock', 'update']) {
          expect(await dialog.getByTestId(`escrow-step-${id}`).getAttribute('data-status')).toBe('completed');
        }
        await shot(a.page, 'escrow-private-code-1280');
        await dialog.getByRole('button', { name: 'Done' }).click();
        await a.page.waitForURL((url) => url.pathname === '/marketplace');

        // B finds it by code (typed in lower case, shown upper case) after a code that is too short.
        await b.page.goto('/marketplace');
        await b.page.getByTestId('challenge-grid').waitFor();
        await afterSplash(b.page);
        await shot(b.page, 'marketplace-top-390');
        // challenge={id} opens its details and counts a view; closing drops the parameter.
        const someId = (await b.page.locator('[data-challenge-id]').first().getAttribute('data-challenge-id'))!;
        await b.page.goto(`/marketplace?challenge=${someId}`);
        const details = b.page.getByTestId('challenge-dialog');
        await details.waitFor();
        await details.getByTestId('detail-views').waitFor();
        const views = Number(await details.getByTestId('detail-views').textContent());
        await b.page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });
        expect(new URL(b.page.url()).searchParams.has('challenge')).toBe(false);
        await b.page
          .locator(`[data-challenge-id="${someId}"]`)
          .getByRole('button', { name: /^Details/ })
          .click();
        await details.getByTestId('detail-views').waitFor();
        await eventually(async () => Number(await details.getByTestId('detail-views').textContent()), views + 1);
        expect(await b.page.locator(`[data-challenge-id="${someId}"]`).getByTestId('views').textContent()).toContain(String(views + 1));
        await b.page.keyboard.press('Escape');
        await details.waitFor({ state: 'detached' });

        // A rematch: game={g}&opponent={id} names the opponent and opens the wizard for that game, private by default.
        await b.page.goto(`/marketplace?game=chess&opponent=${aId}`);
        const rematch = b.page.getByTestId('rematch-banner');
        await rematch.getByText(WIZARD.rematchAgainst(aName)).waitFor();
        await rematch.getByRole('link', { name: 'Create rematch' }).click();
        await b.page.waitForURL((url) => url.pathname === '/marketplace/create' && url.searchParams.get('opponent') === aId);
        await b.page.getByTestId('rematch-banner').getByText(WIZARD.rematchAgainst(aName)).waitFor();
        expect(await wizardStep(b.page)).toBe('2');
        await b.page.getByTestId('durations').getByRole('radio').first().click();
        await b.page
          .getByTestId('quick-picks')
          .getByRole('radio', { name: /\$10\.00/ })
          .click();
        await nextButton(b.page).click();
        expect(await b.page.getByRole('radio', { name: /^Private/ }).getAttribute('aria-checked')).toBe('true');
        await b.page.goto('/marketplace');
        await b.page.getByTestId('marketplace-page').waitFor();

        const codeBox = b.page.getByTestId('code-search');
        await codeBox.getByRole('textbox').fill('ab1');
        expect(await codeBox.getByRole('textbox').inputValue()).toBe('AB1');
        await codeBox.getByRole('button', { name: 'Find' }).click();
        expect(await codeBox.getByRole('alert').textContent()).toBe(CHALLENGE.invalidCode);
        await codeBox.getByRole('textbox').fill(codeText.toLowerCase());
        await codeBox.getByRole('button', { name: 'Find' }).click();
        const found = b.page.getByTestId('challenge-dialog');
        await found.waitFor();
        expect(await found.textContent()).toContain('Fortnite');
        expect(await found.textContent()).toContain(codeText);
        await shot(b.page, 'code-found-390');
        await b.page.keyboard.press('Escape');

        // The private one is not listed publicly.
        expect(
          await b.page.locator('[data-challenge-id]').filter({ hasText: 'Fortnite Challenge' }).filter({ hasText: 'NoScope42' }).count(),
        ).toBe(0);

        // Low credits: spend all but $10, then a $25 challenge fails at the Credit Balance Check with SPEC's words.
        const spend = await a.page.request.post('/api/wallet/credits/use', {
          headers: { authorization: `Bearer ${token}` },
          data: { amount: 965, description: 'e2e: leave $10', idempotencyKey: `e2e-spend-${Date.now()}` },
        });
        expect(spend.status()).toBe(200);
        await a.page.goto('/create-challenge?game=chess&amount=25');
        await a.page.getByTestId('challenge-wizard').waitFor();
        await a.page.getByTestId('durations').getByRole('radio').first().click();
        await nextButton(a.page).click();
        await a.page.getByTestId('slots').getByRole('radio').first().click();
        await nextButton(a.page).click();
        await a.page.getByRole('button', { name: WIZARD.launch }).click();
        const failure = a.page.getByTestId('escrow-error');
        await failure.waitFor();
        expect(await failure.textContent()).toBe(CHALLENGE.escrowDialogInsufficient('$', '25.00'));
        expect(await dialog.getByTestId('escrow-step-auth').getAttribute('data-status')).toBe('completed');
        expect(await dialog.getByTestId('escrow-step-balance').getAttribute('data-status')).toBe('failed');
        expect(await dialog.getByTestId('escrow-step-lock').getAttribute('data-status')).toBe('pending');
        await shot(a.page, 'escrow-failed-1280');
        await dialog.getByRole('button', { name: WIZARD.retry }).click();
        await dialog.getByTestId('escrow-step-balance').and(a.page.locator('[data-status=failed]')).waitFor();
        await dialog.getByRole('button', { name: WIZARD.cancel }).click();
        await dialog.waitFor({ state: 'detached' });
        // Nothing more was created: only the private challenge is A's.
        const mine = await a.page.request.get('/api/challenges/mine', { headers: { authorization: `Bearer ${token}` } });
        expect(((await mine.json()) as { challenges: unknown[] }).challenges).toHaveLength(1);
      } finally {
        await a.context.close();
        await b.context.close();
      }
    },
  );

  it('keeps virtual accounts out of the marketplace', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'mkv', accountType: 'virtual' });
      await page.goto('/marketplace');
      await page.waitForURL((url) => url.pathname === '/');
      await toast(page, MARKETPLACE.virtualHidden).waitFor();
    } finally {
      await context.close();
    }
  });
});
