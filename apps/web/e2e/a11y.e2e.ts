// Accessibility against the real server: axe-core finds no serious or critical violation on the main
// screens, signed out and in, at 1280 and 360 px and in every theme; nothing is excluded.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterSplash, callApi, launchBrowser, newPage, signUpInContext, type SignedUpPlayer } from './harness.ts';

const AXE_SOURCE = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

type Theme = 'dark' | 'light' | 'retro';
interface Look {
  theme: Theme;
  width: number;
}
const DARK_1280: Look = { theme: 'dark', width: 1280 };
const DARK_360: Look = { theme: 'dark', width: 360 };
const LIGHT_1280: Look = { theme: 'light', width: 1280 };
const RETRO_1280: Look = { theme: 'retro', width: 1280 };

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A context in the look's width; the light theme is the stored choice before the app starts. */
async function open(look: Look): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, { width: look.width });
  if (look.theme === 'light') await opened.context.addInitScript(() => localStorage.setItem('versus:theme', 'light'));
  return opened;
}

/** Client-side navigation (no reload, so no two-second splash): the router follows popstate. */
async function go(page: Page, path: string): Promise<void> {
  await page.evaluate((to) => {
    window.history.pushState({}, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
}

/** Waits out short animations (half-faded text would fail contrast); loops and the carousel's bar go on. */
async function settle(page: Page, ready: Locator): Promise<void> {
  await afterSplash(page);
  await ready.waitFor({ state: 'visible' });
  await page.evaluate(() => document.fonts.ready.then(() => undefined));
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== 'running' || Number(a.effect?.getComputedTiming().endTime ?? 0) > 1_000),
  );
}

interface AxeNode {
  target: unknown[];
  failureSummary?: string;
}
interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: AxeNode[];
}

/** axe-core's serious and critical violations on the page as it is now, one line each. */
async function audit(page: Page, where: string, look: Look): Promise<string[]> {
  // Evaluated through the devtools protocol: the page's CSP refuses an inline <script> tag.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const theme = await page.evaluate(() => document.documentElement.dataset.theme);
  expect({ where, theme }).toEqual({ where, theme: look.theme });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: AxeViolation[] }> } })
      .axe;
    const result = await axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((n) => ({ target: n.target, failureSummary: n.failureSummary })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => {
      const targets = v.nodes
        .slice(0, 3)
        .map((n) => JSON.stringify(n.target))
        .join(', ');
      const why = (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').trim();
      return `[${look.theme} ${look.width}px] ${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.length} node(s): ${targets} — first: ${why}`;
    });
}

function expectClean(found: string[]): void {
  expect(found, `axe found serious or critical violations:\n${found.join('\n')}`).toEqual([]);
}

/** The gate and the two modals, signed out. */
async function signedOut(look: Look): Promise<string[]> {
  const { context, page } = await open(look);
  const found: string[] = [];
  try {
    await page.goto('/');
    const gate = page.getByTestId('gate-page');
    await settle(page, gate);
    found.push(...(await audit(page, 'gate', look)));

    await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
    const signIn = page.getByTestId('signin-dialog');
    await settle(page, signIn);
    found.push(...(await audit(page, 'sign-in modal', look)));
    await page.keyboard.press('Escape');
    await signIn.waitFor({ state: 'detached' });

    await gate.getByRole('button', { name: 'Create Account' }).click();
    const register = page.getByTestId('register-dialog');
    await settle(page, register);
    found.push(...(await audit(page, 'register modal', look)));
  } finally {
    await context.close();
  }
  return found;
}

/** Every main screen of a signed-in player, reached without reloads. */
async function signedIn(look: Look): Promise<string[]> {
  const { context, page } = await open(look);
  const found: string[] = [];
  const check = async (path: string, testId: string) => {
    await go(page, path);
    await settle(page, page.getByTestId(testId));
    found.push(...(await audit(page, path, look)));
  };
  /** A menu, popover or dialog: opened, checked, closed with Escape. */
  const checkOpened = async (where: string, openIt: () => Promise<void>, panel: Locator) => {
    await openIt();
    await settle(page, panel);
    found.push(...(await audit(page, where, look)));
    await page.keyboard.press('Escape');
    await panel.waitFor({ state: 'detached' });
  };
  try {
    const virtual = look.theme === 'retro';
    const me = await signUpInContext(page, { prefix: 'a11y', accountType: virtual ? 'virtual' : 'real' });
    await page.goto('/');
    await settle(page, page.getByTestId('landing-page'));
    found.push(...(await audit(page, '/', look)));

    if (!virtual) await check('/marketplace', 'marketplace-page'); // hidden in virtual mode (SPEC §2)
    await check('/wallet', 'wallet-page');
    await page.getByTestId('wallet-available').filter({ hasText: /\d/ }).waitFor();
    found.push(...(await audit(page, '/wallet (loaded)', look)));
    await checkOpened(
      'wallet dropdown',
      () => page.getByRole('button', { name: 'Wallet balance' }).click(),
      page.getByTestId('wallet-dropdown'),
    );

    await check('/matches', 'matches-page');
    await check('/profile', 'profile-page');
    await checkOpened(
      'notifications popover',
      () => page.getByTestId('notification-bell').click(),
      page.getByTestId('notification-popover'),
    );
    const openSettings = async () => {
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Game Settings' }).click();
    };
    await checkOpened('Game Settings', openSettings, page.getByRole('dialog'));

    await check('/settings/notifications', 'notification-preferences');

    // Tournaments: the list with one in it, its page and the create form.
    const { tournament } = await callApi<{ tournament: { id: string } }>(me, 'POST', '/api/tournaments', {
      name: `A11y Cup ${me.username}`,
      game: 'chess',
      format: 'knockout',
      currency: virtual ? 'vtokens' : 'credits',
      entry: { kind: 'stake', stake: 5 },
      startsAt: new Date(Date.now() + 30 * 60_000).toISOString(),
      matchMinutes: 10,
    });
    await go(page, '/tournaments');
    await settle(page, page.locator(`[data-testid="tournament-row"][data-id="${tournament.id}"]`));
    found.push(...(await audit(page, '/tournaments', look)));
    await go(page, `/tournaments/${tournament.id}`);
    await settle(page, page.getByTestId('tournament-name'));
    found.push(...(await audit(page, '/tournaments/:id', look)));
    await check('/tournaments/create', 'create-tournament-form');
  } finally {
    await context.close();
  }
  return found;
}

interface Player extends SignedUpPlayer {
  page: Page;
  context: BrowserContext;
  look: Look;
}

async function player(look: Look): Promise<Player> {
  const { context, page } = await open(look);
  const signedUp = await signUpInContext(page, { prefix: 'a11yarena', accountType: look.theme === 'retro' ? 'virtual' : 'real' });
  return { ...signedUp, page, context, look };
}

/** A challenges, B accepts (a virtual account's challenges are private), both open the arena. */
async function runningMatch(a: Player, b: Player): Promise<void> {
  const isPrivate = a.look.theme === 'retro';
  const created = await callApi<{ challenge: { id: string; code: string | null } }>(a, 'POST', '/api/challenges', {
    game: 'tic-tac-toe',
    stake: 10,
    duration: 5,
    isPrivate,
  });
  const code = created.challenge.code ?? undefined;
  const accepted = await callApi<{ match: { id: string } }>(b, 'POST', `/api/challenges/${created.challenge.id}/accept`, { code });
  await Promise.all([a, b].map((p) => p.page.goto(`/live-arena?match=${accepted.match.id}&auto_ready=true`)));
  await Promise.all([a, b].map((p) => settle(p.page, p.page.locator('[data-testid="match-screen"][data-status="in_progress"]'))));
  await Promise.all([a, b].map((p) => p.page.getByTestId('turn-status').waitFor()));
}

describe('accessibility (axe-core: no serious or critical violations)', () => {
  it('signed out: the gate, sign-in and register modals', async () => {
    const found: string[] = [];
    for (const look of [DARK_1280, DARK_360, LIGHT_1280]) found.push(...(await signedOut(look)));
    expectClean(found);
  });

  it('signed in: every main screen in dark at 1280 and 360 px, light and retro at 1280 px', { timeout: 120_000 }, async () => {
    const found: string[] = [];
    for (const look of [DARK_1280, DARK_360, LIGHT_1280, RETRO_1280]) found.push(...(await signedIn(look)));
    expectClean(found);
  });

  it('the live arena with a running tic-tac-toe match, in every look', { timeout: 90_000 }, async () => {
    const found: string[] = [];
    const a = await player(DARK_1280);
    const b = await player(DARK_360);
    const c = await player(LIGHT_1280);
    const d = await player(DARK_1280);
    const v = await player(RETRO_1280);
    const w = await player(RETRO_1280);
    try {
      await runningMatch(a, b);
      found.push(...(await audit(a.page, 'live arena', a.look)), ...(await audit(b.page, 'live arena', b.look)));
      await runningMatch(c, d);
      found.push(...(await audit(c.page, 'live arena', c.look)));
      await runningMatch(v, w);
      found.push(...(await audit(v.page, 'live arena', v.look)));
    } finally {
      for (const p of [a, b, c, d, v, w]) await p.context.close();
    }
    expectClean(found);
  });
});
