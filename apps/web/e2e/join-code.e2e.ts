// Joining a private room with only its code, through each of the app's code boxes, and the refusals
// they answer with.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator } from 'playwright-core';
import { ROOMS, ROOM_SCREENS } from '@versus/domain';
import { LIMITS } from '@versus/domain/messages';
import { ABUSE_LIMITS } from '@versus/domain/constants';
import { afterSplash, baseUrl, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** Clicks in the middle of the screen: on a phone the fixed bottom bar covers the page's last line. */
async function tap(locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await locator.click();
}

describe('joining a room by its code', () => {
  it('B, holding only A’s code, types it and lands in the same match', { timeout: 120_000 }, async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 360 });
    try {
      await signUpInContext(a.page, { prefix: 'codeA' });
      const playerB = await signUpInContext(b.page, { prefix: 'codeB' });
      await a.page.goto('/live-arena');
      await afterSplash(a.page);
      const panelA = a.page.getByTestId('private-room-panel');
      await panelA.getByRole('button', { name: ROOM_SCREENS.create }).click();
      const code = (await panelA.getByTestId('room-code').textContent())?.trim() ?? '';
      expect(code).toMatch(/^[A-Z0-9]{6}$/);

      // /join-room with no code: the field, not a 404; a short code gets SPEC's message.
      await b.page.goto('/join-room');
      await afterSplash(b.page);
      const page = b.page.getByTestId('join-page');
      const field = page.getByTestId('join-code-form');
      await field.getByLabel(ROOM_SCREENS.joinWithCode).fill('ab1');
      expect(await field.getByRole('textbox').inputValue()).toBe('AB1');
      await tap(field.getByRole('button', { name: ROOM_SCREENS.joinByCode }));
      expect(await field.getByRole('alert').textContent()).toBe(ROOMS.codeLength);
      expect(await field.getByRole('textbox').getAttribute('aria-invalid')).toBe('true');
      await screenshot(b.page, 'join-code-empty-360');

      // The marketplace's code box: a code nobody holds, then A's room code, which leads to its join screen.
      await b.page.goto('/marketplace');
      const box = b.page.getByTestId('code-search');
      await box.getByRole('textbox').fill('ZZZ99Z');
      await tap(box.getByRole('button', { name: 'Find' }));
      await box.getByRole('alert').getByText(ROOM_SCREENS.codeNotFound).waitFor();
      await box.getByRole('textbox').fill(code.toLowerCase());
      await tap(box.getByRole('button', { name: 'Find' }));
      await b.page.waitForURL((url) => url.pathname === `/join-room/${code}`);
      expect(await b.page.getByTestId('join-code').textContent()).toBe(code);

      // The Live Arena's Private Room panel: the code, typed in lower case, and Join.
      await b.page.goto('/live-arena');
      await afterSplash(b.page);
      const panelB = b.page.getByTestId('private-room-panel');
      const join = panelB.getByTestId('join-code-form');
      await join.getByLabel(ROOM_SCREENS.joinWithCode).fill(code.toLowerCase());
      await join.evaluate((element) => element.scrollIntoView({ block: 'center' }));
      await screenshot(b.page, 'join-code-panel-360');
      await tap(join.getByRole('button', { name: ROOM_SCREENS.joinByCode }));
      await b.page.waitForURL((url) => url.pathname === `/join-room/${code}`);
      await tap(page.getByRole('button', { name: ROOM_SCREENS.joinRoom }));

      await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'), { timeout: 20_000 });
      await a.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'), { timeout: 20_000 });
      const matchId = new URL(b.page.url()).searchParams.get('match');
      expect(matchId).toBeTruthy();
      expect(new URL(a.page.url()).searchParams.get('match')).toBe(matchId);
      await b.page.getByTestId('live-arena').waitFor();

      // Past the per-account limit on code lookups, the box says so in the server's words.
      const { perAccount } = ABUSE_LIMITS.codeLookups;
      for (let i = 0; i < perAccount; i++) {
        await fetch(`${baseUrl()}/api/challenges/code/QQQ22${i % 10}`, { headers: { authorization: `Bearer ${playerB.token}` } });
      }
      await b.page.goto('/marketplace');
      await box.getByRole('textbox').fill(code);
      await tap(box.getByRole('button', { name: 'Find' }));
      const refusal = (await box.getByRole('alert').textContent()) ?? '';
      expect(refusal).toMatch(/^Too many code attempts/);
      expect(LIMITS.codeLookups(60).startsWith(refusal.slice(0, 22))).toBe(true);
      await screenshot(b.page, 'join-code-limited-360');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
