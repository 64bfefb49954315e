// The wallet against the real server: the starting balance, an admin's grant arriving live, the retries
// before "Failed to load balance", and a virtual account's VT, overlay card and retro theme.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { BALANCE, WALLET } from '@versus/domain';
import { afterSplash, baseUrl, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Signs the demo admin in through the API and grants `amount` credits to `userId`. */
async function adminGrant(userId: string, amount: number): Promise<void> {
  const signIn = await fetch(`${baseUrl()}/api/auth/signin`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' }),
  });
  expect(signIn.status).toBe(200);
  const { session } = (await signIn.json()) as { session: { access_token: string } };
  const grant = await fetch(`${baseUrl()}/api/admin/ledger/grant`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session.access_token}` },
    body: JSON.stringify({ userId, amount, description: 'Tournament prize', idempotencyKey: crypto.randomUUID() }),
  });
  expect(grant.status).toBe(200);
}

const text = async (page: Page, testId: string) => (await page.getByTestId(testId).textContent())?.trim();

async function waitForText(page: Page, testId: string, expected: string): Promise<void> {
  await page.waitForFunction(
    ([id, want]) => document.querySelector(`[data-testid="${id}"]`)?.textContent?.trim() === want,
    [testId, expected] as const,
    { timeout: 10_000 },
  );
}

async function openDropdown(page: Page) {
  await page.getByRole('button', { name: 'Wallet balance' }).click();
  const menu = page.getByTestId('wallet-dropdown');
  await menu.waitFor();
  return menu;
}

describe('wallet', () => {
  it('shows a new player $1,000.00, then an admin grant without a reload', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      const { id: userId } = await signUpInContext(page, { prefix: 'wallet' });
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      await afterSplash(page);

      await waitForText(page, 'wallet-available', '$1,000.00');
      expect(await text(page, 'wallet-escrow')).toBe('$0.00');
      expect(await text(page, 'wallet-status')).toBe(WALLET.active);
      expect(await text(page, 'wallet-ecosystem')).toBe(WALLET.playerEcosystem);
      expect(await text(page, 'header-balance')).toBe('$1,000.00');
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(WALLET.title);

      const menu = await openDropdown(page);
      expect(await text(page, 'dropdown-available')).toBe('$1,000.00');
      expect(await text(page, 'dropdown-escrow')).toBe('$0.00');
      for (const label of [WALLET.available, WALLET.inGames, WALLET.active, WALLET.playerEcosystem]) {
        expect(await menu.getByText(label, { exact: true }).isVisible()).toBe(true);
      }
      await page.keyboard.press('Escape');
      await menu.waitFor({ state: 'detached' });

      // The real history below the actions: the welcome credits.
      const first = page.getByTestId('wallet-transaction').first();
      await first.waitFor();
      expect(await first.textContent()).toContain('Starting balance');
      expect(await first.getByTestId('wallet-transaction-amount').textContent()).toBe('+$1,000.00');

      // Add Funds, Transaction History and Payment Methods only show the beta toast.
      for (const action of [WALLET.addFunds, WALLET.transactionHistory, WALLET.paymentMethods]) {
        await page.getByRole('button', { name: action, exact: true }).click();
        const toast = page.locator('[data-sonner-toast]', { hasText: WALLET.comingSoonDetail(action) });
        await toast.waitFor();
        expect(await toast.textContent()).toContain(BALANCE.featureComingSoon);
      }
      await screenshot(page, 'wallet-1280');

      // An admin grants $250.50: the page and the header follow over the socket, no reload.
      await page.evaluate(() => Object.assign(window, { __walletE2eMarker: true }));
      const grantedAt = Date.now();
      await adminGrant(userId, 250.5);
      await waitForText(page, 'wallet-available', '$1,250.50');
      await waitForText(page, 'header-balance', '$1,250.50');
      // SPEC §9: the refresh comes 500 ms after the change, not at once.
      expect(Date.now() - grantedAt).toBeGreaterThanOrEqual(500);
      expect(await page.evaluate(() => (window as unknown as { __walletE2eMarker?: boolean }).__walletE2eMarker)).toBe(true);
      await openDropdown(page);
      expect(await text(page, 'dropdown-available')).toBe('$1,250.50');
      await page.keyboard.press('Escape');

      const granted = page.getByTestId('wallet-transaction').first();
      await page.waitForFunction(() =>
        document.querySelector('[data-testid="wallet-transaction"]')?.textContent?.includes('Added by an admin'),
      );
      expect(await granted.textContent()).toContain('Tournament prize');
      expect(await granted.getByTestId('wallet-transaction-amount').textContent()).toBe('+$250.50');
    } finally {
      await context.close();
    }
  });

  it('labels an admin\'s pcredits wallet "Promoter Ecosystem", in $', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      const signIn = await page.request.post('/api/auth/signin', {
        data: { email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' },
      });
      expect(signIn.status()).toBe(200);
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      expect(await text(page, 'wallet-ecosystem')).toBe(WALLET.promoterEcosystem);
      await page.getByTestId('wallet-available').waitFor();
      expect(await text(page, 'wallet-available')).toMatch(/^\$[\d,]+\.\d{2}$/);
      expect(await page.getByText('Promoter credits (USD)').isVisible()).toBe(true);
      const menu = await openDropdown(page);
      expect(await menu.getByText(WALLET.promoterEcosystem, { exact: true }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('fits a phone: the page and the dropdown at 390 px', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await signUpInContext(page, { prefix: 'wallet', accountType: 'real' });
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      await afterSplash(page);
      await waitForText(page, 'wallet-available', '$1,000.00');
      await page.getByTestId('wallet-transaction').first().waitFor();
      // Nothing wider than the screen.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'wallet-390');
      await openDropdown(page);
      expect(await text(page, 'dropdown-available')).toBe('$1,000.00');
      await screenshot(page, 'wallet-dropdown-390');
    } finally {
      await context.close();
    }
  });

  it('retries a failing balance after 1 s, 2 s and 4 s, then shows "Failed to load balance" with Retry', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'wallet', accountType: 'real' });
      const attempts: number[] = [];
      await page.route('**/api/wallet/balance', async (route) => {
        attempts.push(Date.now());
        await route.fulfill({
          status: 500,
          contentType: 'application/json',
          body: JSON.stringify({ error: { code: 'internal', message: 'boom' } }),
        });
      });
      await page.goto('/wallet');
      const error = page.getByTestId('wallet-error');
      await error.waitFor({ timeout: 20_000 });
      expect(await error.textContent()).toContain(BALANCE.loadFailed);
      expect(attempts).toHaveLength(4);
      const gaps = attempts.slice(1).map((at, i) => at - attempts[i]!);
      [1000, 2000, 4000].forEach((delay, i) => {
        expect(gaps[i]).toBeGreaterThanOrEqual(delay - 50);
        expect(gaps[i]).toBeLessThan(delay + 1500);
      });
      expect(await text(page, 'header-balance')).toBe('—');
      await afterSplash(page);
      await screenshot(page, 'wallet-error-1280');

      // The header dropdown says so too, with Retry as one of its items (a menu holds only items).
      await page.getByTestId('wallet-menu').click();
      const dropdown = page.getByTestId('wallet-dropdown');
      expect(await dropdown.getByTestId('dropdown-error').textContent()).toContain(BALANCE.loadFailed);
      expect(await dropdown.getByRole('menuitem', { name: WALLET.retry }).isVisible()).toBe(true);
      await page.keyboard.press('Escape');
      await dropdown.waitFor({ state: 'hidden' });

      await page.unroute('**/api/wallet/balance');
      await error.getByRole('button', { name: WALLET.retry }).click();
      await waitForText(page, 'wallet-available', '$1,000.00');
      await waitForText(page, 'header-balance', '$1,000.00');
    } finally {
      await context.close();
    }
  });

  it('gives a virtual account orange VT, the overlay card and the retro theme', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'wallet', accountType: 'virtual' });
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      await afterSplash(page);
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('retro');

      await waitForText(page, 'wallet-available', '500.00 VT');
      await waitForText(page, 'header-balance', '500.00 VT');
      expect(await text(page, 'wallet-status')).toBe(WALLET.demoMode);
      // VT in orange: the class, and the colour it computes to in the retro theme.
      const vtColour = await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--c-vt').trim());
      expect(vtColour.toLowerCase()).toBe('#ff9f1c');
      for (const id of ['wallet-available', 'header-balance']) {
        const locator = page.getByTestId(id);
        expect(await locator.getAttribute('class')).toContain('text-vt');
        expect(await locator.evaluate((el) => getComputedStyle(el).color)).toBe('rgb(255, 159, 28)');
      }

      // The overlay card, pinned on the wallet page.
      const card = page.getByTestId('virtual-overlay');
      await card.waitFor();
      await waitForText(page, 'virtual-weekly-tokens', '500 / 500 VT');
      for (const label of [WALLET.weeklyTokens, WALLET.wins, WALLET.losses, WALLET.games]) {
        expect(await card.getByText(label, { exact: true }).isVisible()).toBe(true);
      }
      expect(await text(page, 'virtual-theme')).toBe(WALLET.retroLocked);
      expect(await card.getByRole('button', { name: WALLET.aiMode }).isDisabled()).toBe(true);
      expect(await card.getByRole('button', { name: new RegExp(WALLET.nextReset) }).isDisabled()).toBe(true);
      expect(await card.getByRole('button', { name: new RegExp(WALLET.nextReset) }).textContent()).toMatch(/in 6d 23h|in 7d 0h/);

      const menu = await openDropdown(page);
      expect(await menu.getByText(WALLET.demoMode, { exact: true }).isVisible()).toBe(true);
      expect(await page.getByTestId('dropdown-available').getAttribute('class')).toContain('text-vt');
      await page.keyboard.press('Escape');
      await screenshot(page, 'wallet-virtual-1280');

      // Elsewhere the card floats: a pill in the corner opens it, it minimises back, and the
      // header menu brings it back too; the choice survives a reload.
      await page.goto('/');
      await page.getByTestId('landing-page').waitFor();
      const pill = page.getByTestId('virtual-overlay-pill');
      await pill.waitFor();
      await afterSplash(page);
      await waitForText(page, 'virtual-overlay-pill', `${WALLET.virtualMode}500 VT`);
      // The pill shares the corner with the beta chat button: it sits above it, never over it.
      const chat = page.getByTestId('feedback-open');
      await chat.waitFor();
      const [pillBox, chatBox] = [await pill.boundingBox(), await chat.boundingBox()];
      expect(pillBox!.y + pillBox!.height).toBeLessThanOrEqual(chatBox!.y);
      await pill.click();
      const floating = page.getByTestId('virtual-overlay-floating');
      await floating.waitFor();
      expect(await floating.getByTestId('virtual-theme').textContent()).toBe(WALLET.retroLocked);
      await page.waitForTimeout(400); // the card's rise animation
      await screenshot(page, 'landing-virtual-overlay-1280');
      await floating.getByRole('button', { name: 'Minimise the Virtual Mode card' }).click();
      await pill.waitFor();
      await openDropdown(page);
      await page.getByRole('menuitem', { name: WALLET.showVirtualCard }).click();
      await floating.waitFor();
      await page.reload();
      await page.getByTestId('landing-page').waitFor();
      await floating.waitFor();
    } finally {
      await context.close();
    }
  });

  it('fits the virtual wallet and the floating pill on a phone', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await signUpInContext(page, { prefix: 'wallet', accountType: 'virtual' });
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      await afterSplash(page);
      await waitForText(page, 'wallet-available', '500.00 VT');
      await page.getByTestId('virtual-overlay').waitFor();
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await screenshot(page, 'wallet-virtual-390');
      await page.goto('/');
      await page.getByTestId('landing-page').waitFor();
      await page.getByTestId('virtual-overlay-pill').waitFor();
      await afterSplash(page);
      await screenshot(page, 'landing-virtual-pill-390');
      // On a match screen the pill stays out of the way: the board fills the phone.
      await page.goto('/live-arena?match=00000000-0000-4000-8000-000000000000');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.getByTestId('feedback-open').waitFor();
      expect(await page.getByTestId('virtual-overlay-pill').count()).toBe(0);
    } finally {
      await context.close();
    }
  });
});
