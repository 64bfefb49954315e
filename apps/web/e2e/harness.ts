import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect, inject } from 'vitest';

export { launchBrowser } from './chromium.ts';

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

export interface PageOptions {
  width: number;
  height?: number;
  reducedMotion?: boolean;
}

/** A fresh context (its own cookies and storage: another player) and a page in it. */
export async function newPage(browser: Browser, options: PageOptions = { width: 1280 }): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: options.width, height: options.height ?? (options.width < 768 ? 844 : 800) },
    reducedMotion: options.reducedMotion ? 'reduce' : 'no-preference',
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

/** Closes every toast on the page (they may cover a control a test clicks next). */
export async function dismissToasts(page: Page): Promise<void> {
  for (const close of await page.locator('[data-sonner-toast] [data-close-button]').all()) await close.click().catch(() => undefined);
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
