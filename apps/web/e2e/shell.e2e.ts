// The app shell around every screen: the 404 page, public and gated routes, the legacy arena
// redirect, the Offline badge, reduced motion and the mobile bottom bar.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { NOTIFICATIONS, PRODUCT_NAME, PROFILE, SHELL_TEXT } from '@versus/domain';
import { SOCIAL_TEXT } from '@versus/domain/social';
import { VERIFY_TEXT } from '@versus/domain/verification';
import { afterSplash, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

describe('app shell', () => {
  it('shows the 404 page for unknown paths, with a way home', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      const response = await page.goto('/no/such/page');
      expect(response?.status()).toBe(200); // the SPA answers and draws its own 404
      const notFound = page.getByTestId('not-found');
      await notFound.waitFor();
      expect(await notFound.getByRole('heading', { level: 1 }).textContent()).toBe(SHELL_TEXT.notFound);
      await afterSplash(page);
      await notFound.getByRole('link', { name: SHELL_TEXT.returnHome }).click();
      await page.waitForURL((url) => url.pathname === '/');
      await page.getByTestId('gate-page').waitFor();
    } finally {
      await context.close();
    }
  });

  it('keeps public routes open and puts gated ones behind the gate', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await page.goto('/join-room/abc123');
      await page.getByTestId('join-page').waitFor();
      await page.getByTestId('join-problem').waitFor();
      for (const [path, screen] of [
        ['/share', 'share-page'],
        ['/handle-protocol', 'share-page'],
        ['/join-challenge/XYZ789', 'join-page'],
      ] as const) {
        await page.goto(path);
        await page.getByTestId(screen).waitFor();
      }
      for (const path of ['/wallet', '/admin/disputes/enhanced', '/auth-debug']) {
        await page.goto(path);
        await page.getByTestId('gate-page').waitFor();
      }
    } finally {
      await context.close();
    }
  });

  it('signed in, shows every gated route and redirects the legacy arena address', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'shell' });
      await page.goto('/live-arena/match/m-42');
      await page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.get('match') === 'm-42');

      // Every other gated screen opens as itself (its own title), none as a stand-in.
      const titles: Record<string, string> = {
        '/leaderboards': PROFILE.leaderboardsTitle,
        '/profile': PROFILE.title,
        '/social': SOCIAL_TEXT.title,
        '/verification': VERIFY_TEXT.title,
        '/settings/notifications': NOTIFICATIONS.preferencesTitle,
        '/auth-debug': 'Auth Debug',
      };
      for (const [path, title] of Object.entries(titles)) {
        await page.goto(path);
        await page.waitForFunction((expected) => document.title === expected, `${title} · ${PRODUCT_NAME}`);
      }

      // The header's nav for a real account, with the live dot on Live Arena.
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allTextContents()).toEqual([
        'Marketplace',
        'Live Arena(live)',
        'Matches',
        'Leaderboards',
        'Profile',
      ]);
      // The wallet dropdown: Available, In Games and the account status.
      await page.getByRole('button', { name: 'Wallet balance' }).click();
      const menu = page.getByRole('menu');
      await menu.waitFor();
      for (const text of ['Available', 'In Games', 'Active']) expect(await menu.getByText(text, { exact: true }).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });

  it('shows the Offline badge while the browser is offline', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      expect(await page.getByTestId('offline-badge').count()).toBe(0);
      await context.setOffline(true);
      const badge = page.getByTestId('offline-badge');
      await badge.waitFor();
      expect(await badge.textContent()).toBe(SHELL_TEXT.offline);
      const box = await badge.boundingBox();
      expect(box!.x).toBeLessThan(100); // bottom-left
      expect(box!.y).toBeGreaterThan(600);
      await context.setOffline(false);
      await badge.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('shows the mobile offline banner with a Retry button', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      await context.setOffline(true);
      const banner = page.getByTestId('offline-banner');
      await banner.waitFor();
      expect(await banner.getByRole('button', { name: 'Retry' }).isVisible()).toBe(true);
      await afterSplash(page);
      await screenshot(page, 'offline-390');
      // Still offline: Retry checks and the banner stays.
      await banner.getByRole('button', { name: 'Retry' }).click();
      expect(await banner.isVisible()).toBe(true);
      await context.setOffline(false);
      await banner.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });

  it('stops the falling-text canvas under reduced motion', async () => {
    const reduced = await newPage(browser, { width: 1280 });
    const moving = await newPage(browser, { width: 1280, motion: true });
    try {
      await reduced.page.goto('/');
      await reduced.page.locator('[data-testid=falling-text][data-animating=false]').waitFor({ state: 'attached' });
      await moving.page.goto('/');
      await moving.page.locator('[data-testid=falling-text][data-animating=true]').waitFor({ state: 'attached' });
    } finally {
      await reduced.context.close();
      await moving.context.close();
    }
  });

  it('has a mobile bottom bar whose Stats and centre buttons ask a visitor to sign in', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      await afterSplash(page);
      const bar = page.getByTestId('bottom-bar');
      expect(await bar.isVisible()).toBe(true);
      // Sign In and Join Now are big enough to tap.
      for (const name of ['Sign In', 'Join Now']) {
        expect((await page.locator('header').getByRole('button', { name, exact: true }).boundingBox())!.height).toBeGreaterThanOrEqual(40);
      }
      await bar.getByRole('button', { name: 'Stats' }).click();
      await page.getByTestId('signin-dialog').waitFor();
      const toggle = page.getByTestId('signin-dialog').getByRole('button', { name: 'Show password' });
      expect(await toggle.evaluate((el) => (el as HTMLElement).offsetHeight)).toBeGreaterThanOrEqual(40);
      await page.keyboard.press('Escape');
      await page.getByTestId('signin-dialog').waitFor({ state: 'detached' });
      await bar.getByRole('button', { name: 'Create challenge' }).click();
      await page.getByTestId('signin-dialog').waitFor();
    } finally {
      await context.close();
    }
  });

  it('fits a 360 px phone signed in: no page scrolls sideways', async () => {
    const { context, page } = await newPage(browser, { width: 360 });
    try {
      await signUpInContext(page, { prefix: 'narrow' });
      const paths = [
        '/',
        '/wallet',
        '/marketplace',
        '/live-arena',
        '/create-challenge',
        '/matches',
        '/social',
        '/profile',
        '/leaderboards',
        '/settings/notifications',
      ];
      for (const path of paths) {
        await page.goto(path);
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        const [scrollWidth, clientWidth] = await page.evaluate(() => [
          document.documentElement.scrollWidth,
          document.documentElement.clientWidth,
        ]);
        expect({ path, scrollWidth }).toEqual({ path, scrollWidth: clientWidth });
        // The end of the page scrolls clear of the bottom bar (a wizard's Next, a last card's Accept),
        // and the beta chat button sits in the header, over no content.
        await page.getByTestId('feedback-open').waitFor();
        const [contentBottom, barTop, chatInHeader] = await page.evaluate(() => {
          window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
          const main = document.getElementById('main')!;
          const chat = document.querySelector('[data-testid=feedback-open]')!;
          const bar = document.querySelector('[data-testid=bottom-bar]')!;
          return [
            main.getBoundingClientRect().bottom - parseFloat(getComputedStyle(main).paddingBottom),
            bar.getBoundingClientRect().top,
            chat.closest('header') !== null,
          ];
        });
        expect({ path, clear: contentBottom <= barTop, chatInHeader }).toEqual({ path, clear: true, chatInHeader: true });
      }
      // The landing's "Live now" badge stays on one line beside its heading.
      await page.goto('/');
      const live = page.getByTestId('landing-page').getByText('Live now', { exact: true });
      expect(await live.evaluate((el) => el.getBoundingClientRect().height)).toBeLessThan(30);
      // The header's controls are big enough to tap.
      const header = await page
        .locator('header')
        .first()
        .evaluate(
          (el) =>
            [...el.querySelectorAll('a[href], button')]
              .map((c) => c.getBoundingClientRect())
              .filter((r) => r.width > 0 && (r.height < 40 || r.width < 40)).length,
        );
      expect(header).toBe(0);
      // Tab bars show every tab whole (counts included), none cut off or scrolled out of sight,
      // and each is tall enough to tap.
      for (const path of ['/matches', '/social']) {
        await page.goto(path);
        const list = page.getByRole('tablist').first();
        await list.getByRole('tab').first().waitFor();
        const tabs = await list.evaluate((el) =>
          [el, ...el.querySelectorAll('[role=tab]')].map((t) => ({
            clipped: t.scrollWidth > t.clientWidth,
            short: t !== el && t.getBoundingClientRect().height < 40,
          })),
        );
        expect({ path, clipped: tabs.some((t) => t.clipped), short: tabs.some((t) => t.short) }).toEqual({
          path,
          clipped: false,
          short: false,
        });
      }
    } finally {
      await context.close();
    }
  });

  it('applies the retro theme to a virtual account and dark again after sign-out', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'shell', accountType: 'virtual' });
      await page.goto('/');
      await page.getByTestId('landing-page').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('retro');
      expect(await page.evaluate(() => document.body.classList.contains('virtual-mode'))).toBe(true);
      // Virtual mode hides Marketplace and Leaderboards and names the arena Game Arena.
      const nav = page.getByRole('navigation', { name: 'Main' });
      expect(await nav.getByRole('link').allTextContents()).toEqual(['Game Arena', 'Matches', 'Profile']);
      await afterSplash(page);
      await screenshot(page, 'landing-virtual-1280');
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.getByTestId('gate-page').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
      expect(await page.evaluate(() => document.body.classList.contains('virtual-mode'))).toBe(false);
    } finally {
      await context.close();
    }
  });
});
