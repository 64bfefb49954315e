// Two players against the real server: an accepted challenge reaches the bell live; the popover's
// actions, tabs, search and filters, and the preferences screen.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page, WebSocketRoute } from 'playwright-core';
import { NOTIFICATION_SETTINGS, NOTIFICATIONS } from '@versus/domain';
import {
  afterSplash,
  baseUrl,
  dismissToasts,
  launchBrowser,
  newPage,
  screenshot,
  signUpInContext,
  type SignedUpPlayer,
  callApi as call,
  eventually,
} from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const bell = (page: Page) => page.getByTestId('notification-bell');
const unreadOnBell = async (page: Page) => Number(await bell(page).getAttribute('data-unread'));
const popover = (page: Page) => page.getByTestId('notification-popover');
const toast = (page: Page, text: string) => page.locator('[data-sonner-toast]').filter({ hasText: text }).first();

async function openPopover(page: Page): Promise<void> {
  if (!(await popover(page).isVisible())) await bell(page).click();
  await popover(page).waitFor();
}

async function closePopover(page: Page): Promise<void> {
  await page.keyboard.press('Escape');
  await popover(page).waitFor({ state: 'detached' });
}

/** Marks the page's window: `stillSamePage` proves later that nothing reloaded it. */
async function markPage(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { notReloaded?: boolean }).notReloaded = true;
  });
}
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded);

/** A's open FIFA challenge on PlayStation, as the API makes it. */
const createChallenge = (player: SignedUpPlayer, stake: number) =>
  call<{ challenge: { id: string } }>(player, 'POST', '/api/challenges', {
    game: 'fifa-24',
    platform: 'playstation',
    gamertag: 'AlphaPad',
    stake,
    duration: 30,
  });

describe('notifications', () => {
  it(
    'B accepts A’s challenge: A’s bell rises live, the popover leads to the match, mark all read sticks',
    { timeout: 120_000 },
    async () => {
      const a = await newPage(browser, { width: 1280 });
      const b = await newPage(browser, { width: 1280 });
      try {
        const playerA = await signUpInContext(a.page, { prefix: 'nta' });
        const playerB = await signUpInContext(b.page, { prefix: 'ntb' });

        await a.page.goto('/');
        await a.page.getByTestId('landing-page').waitFor();
        await afterSplash(a.page);
        await markPage(a.page);

        const created = await createChallenge(playerA, 10);
        // Whatever the creation itself notified, the bell agrees with the server before B accepts.
        await new Promise((resolve) => setTimeout(resolve, 500));
        const before = await call<{ unread: number }>(playerA, 'GET', '/api/notifications');
        await eventually(() => unreadOnBell(a.page), before.unread);

        const accepted = await call<{ match: { id: string } }>(playerB, 'POST', `/api/challenges/${created.challenge.id}/accept`, {
          gamertag: 'BravoPad',
        });
        const matchId = accepted.match.id;

        // The badge rises without a reload, and the urgent marker shows (challenge accepted is high priority).
        await eventually(() => unreadOnBell(a.page), before.unread + 1);
        expect(await a.page.getByTestId('notification-badge').textContent()).toBe(String(before.unread + 1));
        expect(await a.page.getByTestId('notification-urgent').count()).toBe(1);
        expect(await stillSamePage(a.page)).toBe(true);
        // The in-app toast came with it.
        await toast(a.page, 'Challenge Accepted').waitFor();
        await dismissToasts(a.page);

        // The popover lists it first, highlighted for 3 s.
        await openPopover(a.page);
        const item = popover(a.page).locator('[data-testid="notification-item"][data-type="challenge_accepted"]');
        await item.waitFor();
        expect((await item.textContent())?.toLowerCase()).toContain('challenge accepted');
        expect(await item.getAttribute('data-unread')).toBe('true');
        expect(await item.getAttribute('data-highlighted')).toBe('true');
        await a.page.waitForTimeout(600);
        await screenshot(a.page, 'notifications-popover-1280');
        await a.page.waitForFunction(
          () =>
            document
              .querySelector('[data-testid="notification-item"][data-type="challenge_accepted"]')
              ?.getAttribute('data-highlighted') === null,
          undefined,
          { timeout: 5_000 },
        );

        // Tabs, search and the category filter narrow the list.
        await popover(a.page).getByRole('tab', { name: NOTIFICATIONS.tabs.urgent }).click();
        await item.waitFor();
        await popover(a.page).getByRole('tab', { name: NOTIFICATIONS.tabs.social }).click();
        await item.waitFor({ state: 'detached' });
        await popover(a.page).getByRole('tab', { name: NOTIFICATIONS.tabs.all }).click();
        await popover(a.page).getByLabel(NOTIFICATION_SETTINGS.category).selectOption('financial');
        await item.waitFor({ state: 'detached' });
        await popover(a.page).getByLabel(NOTIFICATION_SETTINGS.category).selectOption('challenge');
        await item.waitFor();
        await popover(a.page).getByRole('searchbox').fill('CHALLENGE_ACC'); // the type, any case
        await item.waitFor();
        await popover(a.page).getByRole('searchbox').fill('no such words');
        await popover(a.page).getByText(NOTIFICATIONS.noMatches).waitFor();
        await popover(a.page).getByRole('searchbox').fill('');
        await popover(a.page).getByLabel(NOTIFICATION_SETTINGS.category).selectOption('all');

        // Clicking it opens the match, read.
        await item.getByRole('button', { name: /^Challenge Accepted/ }).click();
        await a.page.waitForURL((url) => url.pathname === '/matches' && url.searchParams.get('highlight') === matchId);
        const card = a.page.locator(`[data-testid="match-card"][data-match-id="${matchId}"]`);
        await card.waitFor();
        expect(await card.getAttribute('data-highlighted')).toBe('true');
        await eventually(() => unreadOnBell(a.page), before.unread);
        expect(await stillSamePage(a.page)).toBe(true);

        // A second challenge accepted, so that "mark all" has something to clear.
        const second = await createChallenge(playerA, 5);
        await call(playerB, 'POST', `/api/challenges/${second.challenge.id}/accept`, { gamertag: 'BravoPad' });
        await eventually(async () => (await unreadOnBell(a.page)) > 0, true);
        const unreadNow = await unreadOnBell(a.page);

        await dismissToasts(a.page);
        await openPopover(a.page);

        // A refused dismiss is rolled back: the item leaves at once, comes back with the reload, "Action failed".
        const firstItem = popover(a.page).getByTestId('notification-item').first();
        const firstId = (await firstItem.getAttribute('data-notification-id'))!;
        const byId = popover(a.page).locator(`[data-notification-id="${firstId}"]`);
        await a.page.route('**/api/notifications/*/dismiss', (route) =>
          route.fulfill({
            status: 500,
            contentType: 'application/json',
            body: JSON.stringify({ error: { code: 'boom', message: 'Server error' } }),
          }),
        );
        await byId.getByRole('button', { name: /^Dismiss/ }).click();
        await toast(a.page, NOTIFICATIONS.actionFailed).waitFor();
        await byId.waitFor();
        await a.page.unroute('**/api/notifications/*/dismiss');
        expect(await unreadOnBell(a.page)).toBe(unreadNow);
        // (Closing a toast is a click outside the popover, which closes it.)
        await dismissToasts(a.page);
        await openPopover(a.page);

        await popover(a.page).getByRole('button', { name: NOTIFICATIONS.markAllRead }).click();
        const allRead = toast(a.page, NOTIFICATIONS.allRead);
        await allRead.waitFor();
        expect(await allRead.textContent()).toContain(NOTIFICATIONS.allReadCount(unreadNow));
        await eventually(() => unreadOnBell(a.page), 0);
        expect(await a.page.getByTestId('notification-badge').count()).toBe(0);
        expect(await a.page.getByTestId('notification-urgent').count()).toBe(0);
        await closePopover(a.page);

        // It sticks: the server has them read.
        await a.page.reload();
        await afterSplash(a.page);
        await bell(a.page).waitFor();
        await a.page.waitForTimeout(1_000);
        expect(await unreadOnBell(a.page)).toBe(0);
        expect((await call<{ unread: number }>(playerA, 'GET', '/api/notifications')).unread).toBe(0);

        // Another player cannot mark A's notifications.
        const list = await call<{ notifications: { id: string }[] }>(playerA, 'GET', '/api/notifications');
        const foreign = await fetch(`${baseUrl()}/api/notifications/${list.notifications[0]!.id}/read`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${playerB.token}` },
          body: '{}',
        });
        expect(foreign.status).toBe(404);

        // The popover at 360 px.
        await a.page.setViewportSize({ width: 360, height: 780 });
        await openPopover(a.page);
        await a.page.waitForTimeout(600);
        await screenshot(a.page, 'notifications-popover-360');
        const box = await popover(a.page).boundingBox();
        expect(box).not.toBeNull();
        expect(box!.x).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width).toBeLessThanOrEqual(360);
        await closePopover(a.page);
      } finally {
        await a.context.close();
        await b.context.close();
      }
    },
  );

  it('a notification made while the socket was down shows once it reconnects, without a reload', { timeout: 90_000 }, async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 1280 });
    try {
      // The page's socket goes through this proxy, which can cut it and refuse reconnects.
      let down = false;
      const open: { page: WebSocketRoute; server: WebSocketRoute }[] = [];
      await a.context.routeWebSocket(/\/realtime/, (ws) => {
        if (down) return void ws.close({ code: 4000, reason: 'test: network down' });
        open.push({ page: ws, server: ws.connectToServer() });
      });
      const playerA = await signUpInContext(a.page, { prefix: 'ntr' });
      const playerB = await signUpInContext(b.page, { prefix: 'nts' });
      await a.page.goto('/');
      await afterSplash(a.page);
      await markPage(a.page);
      const created = await createChallenge(playerA, 5);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const before = (await call<{ unread: number }>(playerA, 'GET', '/api/notifications')).unread;
      await eventually(() => unreadOnBell(a.page), before);
      expect(open.length).toBeGreaterThan(0);

      // The network drops: the socket closes and reconnects are refused.
      down = true;
      for (const { page, server } of open.splice(0)) {
        await server.close().catch(() => undefined);
        await page.close({ code: 4000, reason: 'test: network down' }).catch(() => undefined);
      }
      await call(playerB, 'POST', `/api/challenges/${created.challenge.id}/accept`, { gamertag: 'BravoPad' });
      await a.page.waitForTimeout(1_500);
      expect(await unreadOnBell(a.page)).toBe(before); // nothing arrived while down

      // Back online: the client reconnects at once and catches up.
      down = false;
      await a.page.evaluate(() => window.dispatchEvent(new Event('online')));
      await eventually(() => unreadOnBell(a.page), before + 1, 15_000);
      expect(await stillSamePage(a.page)).toBe(true);
      await openPopover(a.page);
      await popover(a.page).locator('[data-testid="notification-item"][data-type="challenge_accepted"]').waitFor();
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('the preferences screen opens from Game Settings, shows validation errors and saves', { timeout: 90_000 }, async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      const player = await signUpInContext(page, { prefix: 'ntp' });
      await page.goto('/');
      await page.getByTestId('landing-page').waitFor();
      await afterSplash(page);
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Game Settings' }).click();
      await page.getByTestId('notification-preferences-link').click();
      await page.waitForURL((url) => url.pathname === '/settings/notifications');
      const screen = page.getByTestId('notification-preferences');
      await screen.getByRole('heading', { level: 1, name: NOTIFICATIONS.preferencesTitle }).waitFor();

      // Defaults: reminders 60, 15, 5.
      const reminders = screen.getByTestId('reminder-minutes').getByRole('spinbutton');
      expect(await reminders.evaluateAll((inputs) => inputs.map((i) => (i as HTMLInputElement).value))).toEqual(['60', '15', '5']);

      // Two equal reminder times are refused, under the setting; nothing is saved.
      await reminders.nth(1).fill('60');
      await screen.getByRole('button', { name: NOTIFICATION_SETTINGS.save }).click();
      await screen.getByTestId('error-reminderMinutes').waitFor();
      expect(await screen.getByTestId('error-reminderMinutes').textContent()).toBe(NOTIFICATIONS.invalidReminderMinutes);
      const stored = await call<{ preferences: { match: { reminderMinutes: number[] } } }>(player, 'GET', '/api/notifications/preferences');
      expect(stored.preferences.match.reminderMinutes).toEqual([60, 15, 5]);
      await screenshot(page, 'notification-preferences-error-1280');

      // Fixed, quiet hours on, sound off: saved on the server.
      await reminders.nth(1).fill('30');
      await screen.getByTestId('error-reminderMinutes').waitFor({ state: 'detached' });
      await screen.getByLabel(NOTIFICATION_SETTINGS.quietHours).click();
      await screen.getByLabel(NOTIFICATION_SETTINGS.sound, { exact: true }).click();
      await screen.getByRole('button', { name: NOTIFICATION_SETTINGS.save }).click();
      await toast(page, NOTIFICATIONS.preferencesSaved).waitFor();
      const saved = await call<{
        preferences: { match: { reminderMinutes: number[] }; general: { sound: boolean; quietHours: { enabled: boolean } } };
      }>(player, 'GET', '/api/notifications/preferences');
      expect(saved.preferences.match.reminderMinutes).toEqual([60, 30, 5]);
      expect(saved.preferences.general.sound).toBe(false);
      expect(saved.preferences.general.quietHours.enabled).toBe(true);

      // The 360 px layout.
      await page.setViewportSize({ width: 360, height: 780 });
      await page.waitForTimeout(400);
      await screenshot(page, 'notification-preferences-360');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(360);
      await screen.getByTestId('category-financial').scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      await screenshot(page, 'notification-preferences-categories-360');

      // The popover in the light theme (empty list), and in retro for a virtual account.
      await page.setViewportSize({ width: 1280, height: 800 });
      await page.evaluate(() => localStorage.setItem('versus:theme', 'light'));
      await page.goto('/');
      await afterSplash(page);
      await openPopover(page);
      await popover(page).getByTestId('notifications-empty').waitFor();
      expect(await popover(page).getByTestId('notifications-empty').textContent()).toContain(NOTIFICATIONS.empty);
      await page.waitForTimeout(400);
      await screenshot(page, 'notifications-popover-light-1280');
    } finally {
      await context.close();
    }
    const retro = await newPage(browser, { width: 390 });
    try {
      await signUpInContext(retro.page, { prefix: 'ntv', accountType: 'virtual' });
      await retro.page.goto('/live-arena');
      await afterSplash(retro.page);
      await openPopover(retro.page);
      await popover(retro.page).getByTestId('notifications-empty').waitFor();
      // On a touch screen the tabs and the category filter are big enough to tap.
      const small = await popover(retro.page).evaluate(
        (el) => [...el.querySelectorAll<HTMLElement>('[role=tab], select')].filter((c) => c.offsetHeight < 40).length,
      );
      expect(small).toBe(0);
      await retro.page.waitForTimeout(400);
      await screenshot(retro.page, 'notifications-popover-retro-390');
    } finally {
      await retro.context.close();
    }
  });
});
