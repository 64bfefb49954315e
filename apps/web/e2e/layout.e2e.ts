// Every SPEC §2 route on a 360 px phone, for real, virtual and admin accounts: no sideways scrolling,
// SPEC's bottom bar, and no control covered by the header, the bar or the beta chat button.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { LIVE_ARENA, MATCHES_SCREEN } from '@versus/domain';
import { afterSplash, callApi, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const ADMIN_ROUTES = ['/admin', '/admin/disputes', '/admin/disputes/enhanced', '/admin/beta-feedback'];

/** The player's routes of SPEC §2 (the admin ones redirect a player home), `matchId` one of theirs, and the tournaments' (issue 27). */
function playerRoutes(matchId: string, tournamentId: string): string[] {
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
    '/tournaments',
    '/tournaments?tab=finished',
    '/tournaments/create',
    `/tournaments/${tournamentId}`,
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
const SAME_SCREEN: Record<string, string> = {
  'marketplace/create': 'create-challenge',
  'join-challenge': 'join-room',
  'handle-protocol': 'share',
};
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

/** SPEC §2 Mobile bottom bar, by accessible name, left to right (virtual accounts have no Shop or Top). */
const BAR_ITEMS = {
  real: ['Play', 'Shop', 'Create challenge', 'Stats', 'Top'],
  virtual: ['Play', 'Create challenge', 'Stats'],
} as const;

/** What is wrong with the screen at `path` on a phone: sideways scrolling, a covered control, a bar not SPEC's. */
async function check(page: Page, who: string, path: string, account: keyof typeof BAR_ITEMS): Promise<Problem[]> {
  await open(page, path);
  await page.getByTestId('feedback-open').waitFor();
  // Lazy panels and live lists settle; a fixed pause keeps the walk short and the same each run.
  await page.waitForTimeout(100);
  const found = await page.evaluate(
    (barItems) => {
      const problems: string[] = [];
      const html = document.documentElement;
      if (html.scrollWidth > window.innerWidth) problems.push(`scrolls sideways: ${html.scrollWidth} > ${window.innerWidth}`);
      const chat = document.querySelector('[data-testid=feedback-open]')!;
      const box = chat.getBoundingClientRect();
      const bar = document.querySelector('[data-testid=bottom-bar]')!;
      const barBox = bar.getBoundingClientRect();
      const header = document.querySelector('header')!;
      const headerBottom = header.getBoundingClientRect().bottom;
      const label = (el: Element) =>
        `${el.tagName.toLowerCase()} "${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}"`;

      // The bar holds SPEC's items and nothing else, the add button in its centre.
      const items = [...bar.querySelectorAll(':is(a, button)')];
      const names = items.map((el) => (el.getAttribute('aria-label') ?? el.textContent ?? '').trim());
      if (names.join(' | ') !== barItems.join(' | ')) problems.push(`bottom bar holds ${names.join(' | ')}`);
      const add = items.find((el) => el.getAttribute('aria-label') === 'Create challenge');
      if (add) {
        const r = add.getBoundingClientRect();
        const off = r.left + r.width / 2 - (barBox.left + barBox.width / 2);
        if (Math.abs(off) > 3) problems.push(`the add button is ${Math.round(off)} px off the bar's centre`);
      }
      // The Virtual Mode pill, just above the bar, leaves its actions (the raised add button) whole.
      const pill = document.querySelector('[data-testid=virtual-overlay-pill]')?.getBoundingClientRect();
      for (const el of pill ? items : []) {
        const r = el.getBoundingClientRect();
        if (r.left < pill!.right && r.right > pill!.left && r.top < pill!.bottom && r.bottom > pill!.top)
          problems.push(`the Virtual Mode pill covers the bottom bar's ${label(el)}`);
      }

      // The part of `r` the header and the bar leave visible (they cover what lies under them).
      const overlaps = (r: DOMRect, above = Infinity, below = -Infinity) => {
        const top = Math.max(r.top, below);
        const bottom = Math.min(r.bottom, above);
        return r.width > 0 && bottom > top && r.left < box.right && r.right > box.left && top < box.bottom && bottom > box.top;
      };
      // On a match screen the button sits in the page's own controls: nothing floats there.
      const docked = document.getElementById('main')!.contains(chat);
      if (!docked) {
        if (!header.contains(chat)) problems.push('the beta chat button is not in the header');
        if (box.width < 40 || box.height < 40) problems.push(`the beta chat button is too small to tap: ${box.width}×${box.height}`);
        if (box.left < 0 || box.right > window.innerWidth) problems.push(`the beta chat button sticks out: ${box.left}–${box.right}`);
        for (const el of header.querySelectorAll(':is(a, button)')) {
          if (el !== chat && overlaps(el.getBoundingClientRect())) problems.push(`covers the header's ${label(el)}`);
        }
        for (const el of items) {
          if (overlaps(el.getBoundingClientRect())) problems.push(`covers the bottom bar's ${label(el)}`);
        }
        const controls = '#main :is(a[href], button, input, select, textarea, [role=button], [role=tab])';
        for (const end of [0, html.scrollHeight]) {
          window.scrollTo({ top: end, behavior: 'instant' });
          for (const el of document.querySelectorAll(controls)) {
            if (getComputedStyle(el).visibility === 'hidden') continue;
            if (overlaps(el.getBoundingClientRect(), barBox.top, headerBottom))
              problems.push(`covers ${label(el)} at the ${end === 0 ? 'top' : 'end'}`);
          }
        }
      }
      return problems;
    },
    [...BAR_ITEMS[account]],
  );
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
      const created = await callApi<{ challenge: { id: string } }>(player, 'POST', '/api/challenges', {
        game: 'tic-tac-toe',
        stake: 5,
        duration: 5,
      });
      const accepted = await callApi<{ match: { id: string } }>(opponent, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
      const { tournament } = await callApi<{ tournament: { id: string } }>(player, 'POST', '/api/tournaments', {
        name: `Layout Cup with a long name ${player.username}`,
        game: 'tic-tac-toe',
        format: 'knockout',
        currency: 'credits',
        entry: { kind: 'stake', stake: 5 },
        startsAt: new Date(Date.now() + 30 * 60_000).toISOString(),
        matchMinutes: 5,
      });
      await callApi(player, 'POST', `/api/tournaments/${tournament.id}/join`, {});
      await real.page.goto('/');
      await afterSplash(real.page);
      for (const path of playerRoutes(accepted.match.id, tournament.id)) problems.push(...(await check(real.page, 'real', path, 'real')));
    } finally {
      await real.context.close();
      await rival.context.close();
    }

    const virtual = await newPage(browser, { width: 360 });
    try {
      await signUpInContext(virtual.page, { prefix: 'layoutvt', accountType: 'virtual' });
      await virtual.page.goto('/');
      await afterSplash(virtual.page);
      for (const path of playerRoutes('00000000-0000-4000-8000-000000000000', '00000000-0000-4000-8000-000000000000'))
        problems.push(...(await check(virtual.page, 'virtual', path, 'virtual')));
    } finally {
      await virtual.context.close();
    }

    const admin = await newPage(browser, { width: 360 });
    try {
      const signIn = await admin.page.request.post('/api/auth/signin', {
        data: { email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' },
      });
      expect(signIn.status()).toBe(200);
      await admin.page.goto('/');
      await afterSplash(admin.page);
      for (const path of ADMIN_ROUTES) problems.push(...(await check(admin.page, 'admin', path, 'real')));
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
        await none
          .getByText(accountType === 'virtual' ? LIVE_ARENA.noMatchesDetailVirtual : LIVE_ARENA.noMatchesDetail, { exact: true })
          .waitFor();
        expect(await none.getByRole('link').getAttribute('href')).toBe(next);
        // With no match at all, no "choose a match" box at the foot of a phone's page.
        expect(await page.getByText(LIVE_ARENA.chooseMatch).count()).toBe(0);
        expect(await page.getByText(LIVE_ARENA.boardWaiting).isVisible()).toBe(false);
      } finally {
        await context.close();
      }
    }
  });

  it('puts the beta chat in the header on a phone and in the corner from 768 px, for a real and a virtual account', async () => {
    for (const accountType of ['real', 'virtual'] as const) {
      const { context, page } = await newPage(browser, { width: 360 });
      try {
        await signUpInContext(page, { prefix: 'layouthead', accountType });
        await page.goto('/matches');
        await afterSplash(page);
        const chat = page.getByRole('button', { name: 'Send beta feedback', exact: true });
        for (const width of [360, 1280]) {
          await page.setViewportSize({ width, height: 800 });
          await chat.waitFor();
          await page.waitForTimeout(200);
          await screenshot(page, `layout-header-${accountType}-${width}`);
          const where = await chat.evaluate((el) => {
            const r = el.getBoundingClientRect();
            return {
              inHeader: el.closest('header') !== null,
              position: getComputedStyle(el).position,
              right: innerWidth - r.right,
              bottom: innerHeight - r.bottom,
            };
          });
          if (width === 360) expect({ width, inHeader: where.inHeader }).toEqual({ width, inHeader: true });
          else
            expect({
              width,
              inHeader: where.inHeader,
              position: where.position,
              inCorner: where.right <= 24 && where.bottom <= 24,
            }).toEqual({ width, inHeader: false, position: 'fixed', inCorner: true });
          // At the page's end it covers neither a control nor the footer's words.
          const covered = await chat.evaluate((el) => {
            window.scrollTo({ top: document.documentElement.scrollHeight, behavior: 'instant' });
            const box = el.getBoundingClientRect();
            const under = document.querySelectorAll(
              'header :is(a, button), #main :is(a[href], button, input, select, textarea, [role=tab]), footer span',
            );
            return [...under]
              .filter((u) => {
                const r = u.getBoundingClientRect();
                return u !== el && r.width > 0 && r.left < box.right && r.right > box.left && r.top < box.bottom && r.bottom > box.top;
              })
              .map((u) => (u.getAttribute('aria-label') ?? u.textContent ?? '').trim().slice(0, 40));
          });
          expect({ width, covered }).toEqual({ width, covered: [] });
          expect(await chat.count()).toBe(1);
        }
        // Opened from the header, the chat's panel opens under it, whole on the phone.
        await page.setViewportSize({ width: 360, height: 640 });
        await chat.click();
        const panel = page.getByTestId('feedback-panel');
        await panel.waitFor();
        await page.waitForTimeout(300);
        const [panelBox, chatBox] = [(await panel.boundingBox())!, (await chat.boundingBox())!];
        expect(panelBox.y).toBeGreaterThanOrEqual(chatBox.y + chatBox.height);
        expect(panelBox.y + panelBox.height).toBeLessThanOrEqual(640);
        expect(panelBox.x).toBeGreaterThanOrEqual(0);
        expect(panelBox.x + panelBox.width).toBeLessThanOrEqual(360);
        await screenshot(page, `layout-feedback-open-${accountType}-360`);
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
