import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { LIVE_ARENA } from '@versus/domain';

import { launchBrowser } from './chromium.ts';

export { launchBrowser };

export const screenshotsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

export function baseUrl(): string {
  return inject('baseUrl');
}

/** A JSON call as `who`, throwing unless 2xx; `base`: another address, such as a proxy in front of several servers. */
export async function callApi<T>(
  who: { token: string },
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  base = baseUrl(),
): Promise<T> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${who.token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as T;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

/** One browser for the calling test file, launched before its tests and closed after them: read it with the returned function. */
export function browserPerFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched in beforeAll');
    return browser;
  };
}

export interface PageOptions {
  width: number;
  height?: number;
  /**
   * The decorative animations on (the system asks for no reduced motion). Off by default: Chromium's software renderer
   * spends ~3 s of CPU a page load with them and ~1.8 s without, and a page left open on the gate ~0.7 of a core.
   */
  motion?: boolean;
}

/** A fresh context (its own cookies and storage: another player) and a page in it. */
export async function newPage(browser: Browser, options: PageOptions = { width: 1280 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: options.width, height: options.height ?? (options.width < 768 ? 844 : 800) },
    reducedMotion: options.motion ? 'no-preference' : 'reduce',
    isMobile: options.width < 768,
    hasTouch: options.width < 768,
  });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return { context, page };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(screenshotsDir, { recursive: true });
  const file = path.join(screenshotsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

let counter = 0;
/** A unique, valid new player for a registration form. */
export function newPlayer(prefix = 'player') {
  counter += 1;
  const tag = `${prefix}${Date.now().toString(36)}${counter}`.slice(0, 20);
  return {
    fullName: 'Test Player',
    username: tag,
    email: `${tag}@example.test`,
    phone: '+1 555 0100',
    dateOfBirth: '1990-05-17',
    password: 'secret123',
  };
}

/** Signs the demo admin in inside the page's context and opens the dispute queue: their queue item for the two players. */
export async function adminDisputeItem(page: Page, players: [string, string]) {
  const signIn = await page.request.post('/api/auth/signin', {
    data: { email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' },
  });
  expect(signIn.status()).toBe(200);
  await page.goto('/admin/disputes');
  await afterSplash(page);
  const item = page.locator('[data-testid="admin-dispute"]').filter({ hasText: players[0] }).filter({ hasText: players[1] });
  await item.waitFor();
  return item;
}

/** The splash screen is gone (it covers the page for its first two seconds). */
export async function afterSplash(page: Page): Promise<void> {
  await page.locator('#splash').waitFor({ state: 'hidden' });
}

/** Closes every toast on the page (they may cover a control a test clicks next) and waits until they are gone. */
export async function dismissToasts(page: Page): Promise<void> {
  const open = page.locator('[data-sonner-toast]:not([data-removed="true"])');
  // Only the front (newest, first) toast can be clicked; one that leaves by itself meanwhile is not waited for.
  for (let tries = 0; tries < 20 && (await open.count()) > 0; tries += 1) {
    await open
      .first()
      .locator('[data-close-button]')
      .click({ timeout: 1_000 })
      .catch(() => undefined);
  }
  // A toast that arrives meanwhile is left for the caller's next step to meet.
  await page
    .locator('[data-sonner-toast]')
    .first()
    .waitFor({ state: 'detached', timeout: 5_000 })
    .catch(() => undefined);
}

export interface SignedUpPlayer extends ReturnType<typeof newPlayer> {
  id: string;
  token: string;
}

/** Registers through the API inside the page's context, so the refresh cookie signs the page in. */
export async function signUpInContext(
  page: Page,
  options: { prefix?: string; accountType?: 'real' | 'virtual' } = {},
): Promise<SignedUpPlayer> {
  const player = newPlayer(options.prefix);
  const response = await page.request.post('/api/auth/signup', {
    data: {
      email: player.email,
      password: player.password,
      options: {
        data: {
          account_type: options.accountType ?? 'real',
          username: player.username,
          full_name: player.fullName,
          phone: player.phone,
          date_of_birth: player.dateOfBirth,
          age_verified: true,
        },
      },
    },
  });
  if (response.status() !== 201) throw new Error(`sign-up answered ${response.status()}: ${await response.text()}`);
  const body = (await response.json()) as { session: { access_token: string }; user: { id: string } };
  return { ...player, id: body.user.id, token: body.session.access_token };
}

/** Waits until `read` returns `expected` (realtime updates arrive a moment later), then asserts it. */
export async function eventually<T>(read: () => Promise<T>, expected: T, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: T = await read();
  while (last !== expected && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    last = await read();
  }
  expect(last).toBe(expected);
}

/** A player signed up in a browser context of their own, its page signed in. */
export interface PagePlayer extends SignedUpPlayer {
  page: Page;
  context: BrowserContext;
}

/** A fresh real player signed up in a new context of `browser` (see newPage and signUpInContext). */
export async function signedUpPage(browser: Browser, prefix: string, options: PageOptions = { width: 1280 }): Promise<PagePlayer> {
  const { context, page } = await newPage(browser, options);
  return { ...(await signUpInContext(page, { prefix })), page, context };
}

/** Waits until the match screen shows `status`. */
export const waitStatus = (page: Page, status: string) =>
  page.locator(`[data-testid="match-screen"][data-status="${status}"]`).waitFor({ timeout: 15_000 });

/** Waits until the series score on `page` shows game `n` (1-based). */
export const waitForGame = (page: Page, n: number) =>
  page
    .getByTestId('series-score')
    .filter({ hasText: LIVE_ARENA.gameNumber(n) })
    .waitFor();

/** Which of the two pages shows "Your turn" first. */
export async function whoseTurn<P extends { page: Page }>(players: [P, P]): Promise<P> {
  const deadline = Date.now() + 10_000;
  while (Date.now() < deadline) {
    for (const p of players) {
      const turn = p.page.getByTestId('turn-status');
      if ((await turn.count()) > 0 && ((await turn.textContent()) ?? '').trim() === LIVE_ARENA.yourTurn) return p;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('Neither player got the turn');
}

/** Marks the empty tic-tac-toe `cell` ("a1" … "c3") as `who`. */
export const playCell = (who: { page: Page }, cell: string) =>
  who.page.getByRole('button', { name: `${cell}, empty`, exact: true }).click();
