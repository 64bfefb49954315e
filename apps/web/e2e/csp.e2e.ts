// The app under its Content-Security-Policy in real Chromium: the main screens report no violation,
// and a deliberate inline script proves the listener hears one.
import http from 'node:http';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { afterSplash, baseUrl, callApi, launchBrowser, newPage, signUpInContext } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

interface Violation {
  directive: string;
  blocked: string;
  sample: string;
}

/** Records every CSP violation `page` sees, from the DOM event and from the console. */
async function watchViolations(page: Page): Promise<{ events: () => Promise<Violation[]>; console: string[] }> {
  const console: string[] = [];
  page.on('console', (message) => {
    if (/Content[- ]Security[- ]Policy/i.test(message.text())) console.push(message.text());
  });
  await page.context().addInitScript(() => {
    const seen: Violation[] = [];
    (window as unknown as { cspViolations: Violation[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({ directive: event.violatedDirective, blocked: event.blockedURI, sample: event.sample }),
    );
  });
  return { console, events: () => page.evaluate(() => (window as unknown as { cspViolations: Violation[] }).cspViolations ?? []) };
}

/** A raw GET (no automatic decompression): status, headers and the bytes as sent. */
function rawGet(path: string, acceptEncoding: string): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(`${baseUrl()}${path}`, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

describe('the Content-Security-Policy', () => {
  it('lets every main screen, the service worker and the realtime socket work without a violation', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    const opponent = await newPage(browser, { width: 1280 });
    try {
      const violations = await watchViolations(page);
      const sockets: string[] = [];
      page.on('websocket', (socket) => sockets.push(new URL(socket.url()).pathname));

      // Landing, signed out, with a saved light theme: theme.js (no longer inline) applies it.
      await page.goto('/');
      await page.evaluate(() => localStorage.setItem('versus:theme', 'light'));
      const landing = await page.goto('/');
      const csp = landing!.headers()['content-security-policy'] ?? '';
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
      await page.getByTestId('gate-page').waitFor();
      await afterSplash(page);

      // The service worker installs and takes control under the policy (its own script, workbox, sw-push.js).
      await page.evaluate(async () => {
        await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise<void>((resolve) =>
            navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
          );
        }
      });
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseUrl()}/sw.js`);

      // Sign in through the dialog (a player registered in another context).
      const player = await signUpInContext(opponent.page, { prefix: 'csp' });
      await opponent.context.clearCookies();
      await page.getByRole('banner').getByRole('button', { name: 'Sign In' }).click();
      const signIn = page.getByTestId('signin-dialog');
      await signIn.getByRole('radio', { name: /Real/ }).click();
      await signIn.getByLabel('Email').fill(player.email);
      await signIn.getByLabel('Password', { exact: true }).fill(player.password);
      await signIn.getByRole('button', { name: 'Sign In', exact: true }).click();
      await page.getByTestId('landing-page').waitFor();
      await page.getByTestId('user-menu').waitFor();

      // A reload restores the session from the refresh cookie (same-origin: no CSRF refusal).
      await page.reload();
      await page.getByTestId('user-menu').waitFor();

      await page.goto('/marketplace');
      await page.getByTestId('challenge-grid').waitFor();
      await page.goto('/wallet');
      await page.getByTestId('wallet-page').waitFor();
      await page.getByTestId('wallet-available').waitFor();

      // A live match: the arena screen and its realtime socket.
      const rival = await signUpInContext(opponent.page, { prefix: 'csprival' });
      const created = await callApi<{ challenge: { id: string } }>(player, 'POST', '/api/challenges', {
        game: 'tic-tac-toe',
        stake: 5,
        duration: 5,
      });
      const accepted = await callApi<{ match: { id: string } }>(rival, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
      await page.goto(`/live-arena?match=${accepted.match.id}`);
      await page.getByTestId('match-screen').waitFor();
      await afterSplash(page);
      await page.waitForFunction(() => document.querySelector('[data-testid="match-screen"]') !== null);
      expect(sockets).toContain('/realtime');

      // Sign out (a same-origin POST with the cookie).
      await page.getByTestId('user-menu').click();
      await page.getByRole('menuitem', { name: 'Sign Out' }).click();
      await page.getByTestId('gate-page').waitFor();

      expect(await violations.events()).toEqual([]);
      expect(violations.console).toEqual([]);

      // The watch is live: an inline script is refused and reported.
      await page.evaluate(() => {
        const script = document.createElement('script');
        script.textContent = 'window.inlineRan = true';
        document.head.append(script);
      });
      await page.waitForFunction(() => (window as unknown as { cspViolations: unknown[] }).cspViolations.length > 0);
      expect(await page.evaluate(() => (window as unknown as { inlineRan?: boolean }).inlineRan)).toBeUndefined();
      expect((await violations.events())[0]?.directive).toMatch(/^script-src/);
      await expect.poll(() => violations.console.length).toBeGreaterThan(0);
    } finally {
      await context.close();
      await opponent.context.close();
    }
  });
});

describe('the built assets', () => {
  it('send the main script as its brotli copy, the same bytes once decoded', async () => {
    const page = await rawGet('/', 'identity');
    const main = /<script type="module" crossorigin src="([^"]+)"/.exec(page.body.toString())?.[1];
    expect(main, 'the main script in index.html').toMatch(/^\/assets\/index-.*\.js$/);
    const plain = await rawGet(main!, 'identity');
    const br = await rawGet(main!, 'gzip, deflate, br');
    expect(plain.status).toBe(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.body.length).toBeLessThan(plain.body.length / 3);
    expect(zlib.brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
    const gz = await rawGet(main!, 'gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.body).equals(plain.body)).toBe(true);
  });
});
