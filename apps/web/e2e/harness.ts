import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { inject } from 'vitest';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const screenshotsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');

export function baseUrl(): string {
  return inject('baseUrl');
}

export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
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
