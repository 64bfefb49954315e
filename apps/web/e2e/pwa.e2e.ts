// The installable app (SPEC §4 PWA): the manifest and icons, the offline shell, and the install
// prompt on phones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PWA, SHELL } from '@versus/domain';
import { afterSplash, baseUrl, launchBrowser, newPage, screenshot } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

interface Manifest {
  name: string;
  short_name: string;
  description: string;
  display: string;
  orientation: string;
  start_url: string;
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: string; purpose?: string }[];
  share_target: { action: string; method: string; params: Record<string, string> };
  protocol_handlers: { protocol: string; url: string }[];
}

/** Headless Chromium never offers installation, so the test plays the browser's beforeinstallprompt. */
async function offerInstall(page: Page, outcome: 'accepted' | 'dismissed') {
  await page.evaluate((answer) => {
    const event = new Event('beforeinstallprompt', { cancelable: true });
    const record = window as unknown as { promptCalls: number };
    record.promptCalls = 0;
    Object.assign(event, {
      prompt: () => {
        record.promptCalls += 1;
        return Promise.resolve();
      },
      userChoice: Promise.resolve({ outcome: answer, platform: 'web' }),
    });
    window.dispatchEvent(event);
  }, outcome);
}

const sinceLoad = (page: Page) => page.evaluate(() => performance.now());

describe('installable app', () => {
  it('serves the manifest with icons, the share target and the protocol handler', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await page.goto('/');
      const href = await page.locator('link[rel="manifest"]').getAttribute('href');
      expect(href).toBe('/manifest.webmanifest');
      const response = await page.request.get('/manifest.webmanifest');
      expect(response.status()).toBe(200);
      const manifest = (await response.json()) as Manifest;
      expect(manifest.name).toBe('Versus');
      expect(manifest.short_name).toBe('Versus');
      expect(manifest.description).toContain('Compete. Win. Earn.');
      expect(manifest).toMatchObject({
        display: 'standalone',
        orientation: 'portrait',
        start_url: '/',
        theme_color: '#09080f',
        background_color: '#09080f',
      });
      expect(manifest.share_target).toEqual({ action: '/share', method: 'GET', params: { title: 'title', text: 'text', url: 'url' } });
      expect(manifest.protocol_handlers).toEqual([{ protocol: 'web+versus', url: '/handle-protocol?url=%s' }]);
      expect(manifest.icons.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
      expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
      for (const icon of manifest.icons) {
        const image = await page.request.get(icon.src);
        expect(image.status(), icon.src).toBe(200);
        expect(image.headers()['content-type']).toBe('image/png');
        expect((await image.body()).subarray(1, 4).toString()).toBe('PNG');
      }
      // The share target and the protocol handler land on the app's own screens.
      await page.goto('/handle-protocol?url=' + encodeURIComponent('web+versus://join/ABC123'));
      await page.locator('[data-testid=join-page], [data-testid=share-page]').first().waitFor();
      await page.goto('/share?title=Versus&text=Join&url=' + encodeURIComponent('https://versus.example/join-room/ABC123'));
      await page.locator('[data-testid=join-page], [data-testid=share-page]').first().waitFor();
    } finally {
      await context.close();
    }
  });

  it('registers a service worker that controls the page and keeps the app shell available offline', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      // The worker installs (precaching the shell), activates and claims this page.
      const scope = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        if (!navigator.serviceWorker.controller) {
          await new Promise<void>((resolve) =>
            navigator.serviceWorker.addEventListener('controllerchange', () => resolve(), { once: true }),
          );
        }
        return registration.scope;
      });
      expect(scope).toBe(`${baseUrl()}/`);
      expect(await page.evaluate(() => navigator.serviceWorker.controller?.scriptURL)).toBe(`${baseUrl()}/sw.js`);

      await context.setOffline(true);
      await page.reload();
      await page.getByTestId('gate-page').waitFor();
      await page.getByTestId('offline-badge').waitFor();
      // A client route the server never saw offline still gets the shell from the worker.
      await page.goto('/wallet');
      await page.getByTestId('gate-page').waitFor();
      // The API is never answered from a cache.
      const api = await page.evaluate(() =>
        fetch('/api/health').then(
          (response) => `status ${response.status}`,
          () => 'network error',
        ),
      );
      expect(api).toBe('network error');
      await afterSplash(page);
      await screenshot(page, 'pwa-offline-shell-390');

      await context.setOffline(false);
      await page.reload();
      await page.getByTestId('gate-page').waitFor();
      expect(await page.evaluate(() => fetch('/api/health').then((response) => response.status))).toBe(200);
    } finally {
      await context.close();
    }
  });

  it('shows a push message as a notification (the worker imports sw-push.js)', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      await context.grantPermissions(['notifications'], { origin: baseUrl() });
      const script = await page.request.get('/sw.js');
      expect(await script.text()).toContain('sw-push.js');
      await page.goto('/');
      await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
      const cdp = await context.newCDPSession(page);
      const registrationId = new Promise<string>((resolve) => {
        cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
          const ours = registrations.find((registration) => registration.scopeURL === `${baseUrl()}/` && !registration.isDeleted);
          if (ours) resolve(ours.registrationId);
        });
      });
      await cdp.send('ServiceWorker.enable');
      await cdp.send('ServiceWorker.deliverPushMessage', {
        origin: baseUrl(),
        registrationId: await registrationId,
        data: JSON.stringify({ title: 'Your match is ready', body: 'Opponent joined', url: '/live-arena', tag: 'match-1' }),
      });
      const shown = await page.evaluate(async () => {
        const registration = await navigator.serviceWorker.ready;
        for (let attempt = 0; attempt < 50; attempt += 1) {
          const notifications = await registration.getNotifications();
          if (notifications.length > 0)
            return notifications.map((n) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data as unknown }));
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        return [];
      });
      expect(shown).toEqual([
        { title: 'Your match is ready', body: 'Opponent joined', tag: 'match-1', data: { url: '/live-arena', id: null, type: null } },
      ]);
    } finally {
      await context.close();
    }
  });

  it('on a 390 px phone, offers installing after 3 s, and not again this session after "Not now"', async () => {
    const { context, page } = await newPage(browser, { width: 390 });
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      await offerInstall(page, 'accepted');
      const prompt = page.getByTestId('pwa-install-prompt');
      expect(await sinceLoad(page)).toBeLessThan(SHELL.pwaPromptDelayMs);
      expect(await prompt.isVisible()).toBe(false);
      await prompt.waitFor({ timeout: 8000 });
      expect(await sinceLoad(page)).toBeGreaterThanOrEqual(SHELL.pwaPromptDelayMs);
      expect(await prompt.getByRole('heading').textContent()).toBe(PWA.promptTitle);
      await screenshot(page, 'pwa-install-prompt-390');

      await prompt.getByRole('button', { name: PWA.notNow, exact: true }).last().click();
      await prompt.waitFor({ state: 'detached' });
      expect(await page.evaluate(() => (window as unknown as { promptCalls: number }).promptCalls)).toBe(0);

      // Same session: a reload with a fresh offer shows nothing.
      await page.reload();
      await page.getByTestId('gate-page').waitFor();
      await offerInstall(page, 'accepted');
      await page.waitForTimeout(SHELL.pwaPromptDelayMs + 1500);
      expect(await prompt.count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  it('Install opens the browser dialog; wide screens get no prompt', async () => {
    const phone = await newPage(browser, { width: 390 });
    const desktop = await newPage(browser, { width: 1280 });
    try {
      await Promise.all([phone.page.goto('/'), desktop.page.goto('/')]);
      await Promise.all([phone.page.getByTestId('gate-page').waitFor(), desktop.page.getByTestId('gate-page').waitFor()]);
      await Promise.all([offerInstall(phone.page, 'accepted'), offerInstall(desktop.page, 'accepted')]);
      const prompt = phone.page.getByTestId('pwa-install-prompt');
      await prompt.getByRole('button', { name: PWA.install, exact: true }).click({ timeout: 8000 });
      await prompt.waitFor({ state: 'detached' });
      expect(await phone.page.evaluate(() => (window as unknown as { promptCalls: number }).promptCalls)).toBe(1);

      await desktop.page.waitForTimeout(500);
      expect(await desktop.page.getByTestId('pwa-install-prompt').count()).toBe(0);
    } finally {
      await phone.context.close();
      await desktop.context.close();
    }
  });

  it('iOS Safari gets the install-to-home-screen guide', async () => {
    const context = await browser.newContext({
      baseURL: baseUrl(),
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
      userAgent:
        'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
    });
    const page = await context.newPage();
    try {
      await page.goto('/');
      await page.getByTestId('gate-page').waitFor();
      const prompt = page.getByTestId('pwa-install-prompt');
      await prompt.getByRole('button', { name: PWA.howToInstall }).click({ timeout: 8000 });
      const guide = page.getByTestId('pwa-install-guide');
      await guide.waitFor();
      expect(await guide.getByRole('heading').first().textContent()).toBe(PWA.guideTitle);
      expect(await guide.locator('li [data-step]').allTextContents()).toEqual([...PWA.guideStepsIos]);
      await screenshot(page, 'pwa-install-guide-ios');
      await guide.getByRole('button', { name: PWA.gotIt }).click();
      await guide.waitFor({ state: 'detached' });
    } finally {
      await context.close();
    }
  });
});
