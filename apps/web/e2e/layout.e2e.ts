// Every SPEC §2 route on a 360 px phone, signed in as a real and as a virtual account (and the
// admin screens as the demo admin): no page scrolls sideways, and the beta chat button covers
// neither the bottom bar's actions nor a control of the page (beyond what the bar itself covers),
// at the top of the page or at its end.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LIVE_ARENA, MATCHES_SCREEN } from '@versus/domain';
import { afterSplash, callApi, launchBrowser, newPage, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const ADMIN_ROUTES = ['/admin', '/admin/disputes', '/admin/disputes/enhanced', '/admin/beta-feedback'];

/** The player's routes of SPEC §2 (the admin ones redirect a player home), `matchId` one of theirs. */
function playerRoutes(matchId: string): string[] {
  return [
    '/',
    '/marketplace',
    '/marketplace/create',
    '/create-challenge',
    '/matches',
    '/matches?tab=history',
    '/matches?tab=disputes',
    '/live-arena',
    `/live-arena?match=${matchId}`,
    '/leaderboards',
    `/spectate/${matchId}`,
    '/wallet',
    '/profile',
    '/social',
    '/verification',
    '/settings/notifications',
    '/auth-debug',
    '/join-room',
    '/join-room/ABC234',
    '/join-challenge/XYZ789',
    '/share',
    '/handle-protocol',
    '/no/such/page',
  ];
}

interface Problem {
  who: string;
  path: string;
  problem: string;
}

/** Paths drawn by one screen, which keeps its heading between them (so the walk reloads there). */
const SAME_SCREEN: Record<string, string> = { 'marketplace/create': 'create-challenge', 'join-challenge': 'join-room', 'handle-protocol': 'share' };
const screenOf = (path: string) => {
  const parts = path.split('?')[0]!.split('/');
  return SAME_SCREEN[parts.slice(1, 3).join('/')] ?? SAME_SCREEN[parts[1]!] ?? parts[1];
};

/** Opens `path` as the app does, in the page (much faster than loading it), once its screen is drawn. */
async function open(page: Page, path: string): Promise<void> {
  const here = await page.evaluate(() => location.pathname + location.search);
  if (screenOf(here) === screenOf(path)) {
    await page.goto(path);
  } else {
    await page.evaluate((to) => {
      for (const heading of document.querySelectorAll('#main :is(h1, h2)')) heading.setAttribute('data-walked', '');
      history.pushState(null, '', to);
      dispatchEvent(new PopStateEvent('popstate'));
    }, path);
  }
  await page.locator('#main :is(h1, h2):not([data-walked])').first().waitFor();
}

/** What is wrong with the screen at `path` on a phone: sideways scrolling, a covered control. */
async function check(page: Page, who: string, path: string): Promise<Problem[]> {
  await open(page, path);
  await page.getByTestId('feedback-open').waitFor();
  // Lazy panels and live lists settle; a fixed pause keeps the walk short and the same each run.
  await page.waitForTimeout(100);
  const found = await page.evaluate(() => {
    const problems: string[] = [];
    const html = document.documentElement;
    if (html.scrollWidth > window.innerWidth) problems.push(`scrolls sideways: ${html.scrollWidth} > ${window.innerWidth}`);
    const chat = document.querySelector('[data-testid=feedback-open]')!;
    const box = chat.getBoundingClientRect();
    const bar = document.querySelector('[data-testid=bottom-bar]')!;
    const barTop = bar.getBoundingClientRect().top;
    // The part of `r` the bottom bar leaves visible (the bar itself covers what lies under it).
    const overlaps = (r: DOMRect, above = Infinity) => {
      const bottom = Math.min(r.bottom, above);
      return r.width > 0 && bottom > r.top && r.left < box.right && r.right > box.left && r.top < box.bottom && bottom > box.top;
    };
    const label = (el: Element) => `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;
    // On a match screen the button sits in the page's own controls: nothing floats there.
    const docked = document.getElementById('main')!.contains(chat);
    if (!docked && (box.width < 40 || box.height < 40)) problems.push(`the beta chat button is too small to tap: ${box.width}×${box.height}`);
    if (!docked) {
      for (const el of bar.querySelectorAll(':is(a, button)')) {
        if (el !== chat && overlaps(el.getBoundingClientRect())) problems.push(`covers the bottom bar's ${label(el)}`);
      }
      const controls = '#main :is(a[href], button, input, select, textarea, [role=button], [role=tab])';
      for (const end of [0, html.scrollHeight]) {
        window.scrollTo({ top: end, behavior: 'instant' });
        for (const el of document.querySelectorAll(controls)) {
          if (getComputedStyle(el).visibility === 'hidden') continue;
          if (overlaps(el.getBoundingClientRect(), barTop)) problems.push(`covers ${label(el)} at the ${end === 0 ? 'top' : 'end'}`);
        }
      }
    }
    return problems;
  });
  return found.map((problem) => ({ who, path, problem }));
}

describe('every screen on a 360 px phone', () => {
  it('fits and keeps the beta chat button clear of controls, for a real, a virtual and an admin account', async () => {
    const problems: Problem[] = [];

    // A real player with a match (and so a board to open and to spectate).
    const real = await newPage(browser, { width: 360 });
    const rival = await newPage(browser, { width: 360 });
    try {
      const player = await signUpInContext(real.page, { prefix: 'layout' });
      const opponent = await signUpInContext(rival.page, { prefix: 'layoutrival' });
      const created = await callApi<{ challenge: { id: string } }>(player, 'POST', '/api/challenges', { game: 'tic-tac-toe', stake: 5, duration: 5 });
      const accepted = await callApi<{ match: { id: string } }>(opponent, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
      await real.page.goto('/');
      await afterSplash(real.page);
      for (const path of playerRoutes(accepted.match.id)) problems.push(...(await check(real.page, 'real', path)));
    } finally {
      await real.context.close();
      await rival.context.close();
    }

    const virtual = await newPage(browser, { width: 360 });
    try {
      await signUpInContext(virtual.page, { prefix: 'layoutvt', accountType: 'virtual' });
      await virtual.page.goto('/');
      await afterSplash(virtual.page);
      for (const path of playerRoutes('00000000-0000-4000-8000-000000000000')) problems.push(...(await check(virtual.page, 'virtual', path)));
    } finally {
      await virtual.context.close();
    }

    const admin = await newPage(browser, { width: 360 });
    try {
      const signIn = await admin.page.request.post('/api/auth/signin', { data: { email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' } });
      expect(signIn.status()).toBe(200);
      await admin.page.goto('/');
      await afterSplash(admin.page);
      for (const path of ADMIN_ROUTES) problems.push(...(await check(admin.page, 'admin', path)));
    } finally {
      await admin.context.close();
    }

    expect(problems).toEqual([]);
  }, 120_000);

  it('says what to do next on every empty list, with a button to it (the wizard for a virtual account)', async () => {
    for (const accountType of ['real', 'virtual'] as const) {
      const { context, page } = await newPage(browser, { width: 360 });
      try {
        await signUpInContext(page, { prefix: 'layoutempty', accountType });
        const next = accountType === 'virtual' ? '/create-challenge' : '/marketplace';
        for (const [path, text] of [
          ['/matches', accountType === 'virtual' ? MATCHES_SCREEN.emptyActiveVirtual : MATCHES_SCREEN.emptyActive],
          ['/matches?tab=history', MATCHES_SCREEN.emptyHistory],
        ] as const) {
          await page.goto(path);
          const empty = page.getByTestId('matches-empty');
          await empty.getByText(text, { exact: true }).waitFor();
          expect({ path, href: await empty.getByRole('link').getAttribute('href') }).toEqual({ path, href: next });
        }
        await page.goto('/live-arena');
        const none = page.getByTestId('no-matches');
        await none.getByText(accountType === 'virtual' ? LIVE_ARENA.noMatchesDetailVirtual : LIVE_ARENA.noMatchesDetail, { exact: true }).waitFor();
        expect(await none.getByRole('link').getAttribute('href')).toBe(next);
        // With no match at all, no "choose a match" box at the foot of a phone's page.
        expect(await page.getByText(LIVE_ARENA.chooseMatch).count()).toBe(0);
        expect(await page.getByText(LIVE_ARENA.boardWaiting).isVisible()).toBe(false);
      } finally {
        await context.close();
      }
    }
  });

  it("keeps the arena's join-with-a-code box wide enough for a whole code at 1280 px", async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await signUpInContext(page, { prefix: 'layoutwide' });
      await page.goto('/live-arena');
      const box = page.getByTestId('join-code-form').getByRole('textbox');
      await box.fill('ABC234');
      const [scrollWidth, clientWidth] = await box.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
      expect(await page.getByText(LIVE_ARENA.boardWaiting).isVisible()).toBe(true);
    } finally {
      await context.close();
    }
  });
});
