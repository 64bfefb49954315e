// /profile and /leaderboards against the real server: avatar upload and refusal, names, and a winner
// on the board; a virtual account is told the boards are not for it.
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { PROFILE } from '@versus/domain';
import { afterSplash, launchBrowser, newPage, screenshot, signUpInContext, callApi as call } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A real 96×96 PNG (a diagonal gradient), so the browser can decode and draw it. */
function gradientPng(size = 96): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc = (data: Buffer) => {
    let c = 0xffffffff;
    for (const byte of data) c = crcTable[(c ^ byte) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const sum = Buffer.alloc(4);
    sum.writeUInt32BE(crc(body));
    return Buffer.concat([length, body, sum]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const rows: Buffer[] = [];
  for (let y = 0; y < size; y++) {
    const row = Buffer.alloc(1 + size * 3);
    for (let x = 0; x < size; x++) row.set([Math.round((255 * x) / size), 80, Math.round((255 * y) / size)], 1 + x * 3);
    rows.push(row);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('profile', () => {
  it('uploads an avatar that the header then shows, refuses a non-image, and edits the names', async () => {
    const { context, page } = await newPage(browser, { width: 1280 });
    try {
      const me = await signUpInContext(page, { prefix: 'avatar' });
      await page.goto('/profile');
      await afterSplash(page);
      await page.getByTestId('profile-page').waitFor();
      await expect(page.getByTestId('stat-rank').textContent()).resolves.toBe(PROFILE.unranked);

      // Not an image: SPEC's message, nothing sent.
      await page.getByTestId('avatar-input').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') });
      await expect(page.getByTestId('avatar-error').textContent()).resolves.toBe(PROFILE.fileNotImage);

      await page.getByTestId('avatar-input').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: gradientPng() });
      const headerImage = page.getByTestId('user-menu').locator('img');
      await headerImage.waitFor();
      const src = await headerImage.getAttribute('src');
      expect(src).toMatch(new RegExp(`^/api/avatars/${me.id}/${me.id}-\\d+\\.png$`));
      // The browser fetched and decoded it from the server.
      await page.waitForFunction(() => {
        const img = document.querySelector<HTMLImageElement>('[data-testid="user-menu"] img');
        return Boolean(img?.complete && img.naturalWidth === 96);
      });
      const served = await page.request.get(src!);
      expect(served.headers()['cache-control']).toBe('public, max-age=3600, immutable');
      expect(await page.getByTestId('profile-avatar').getAttribute('src')).toBe(src);

      // Names: a bad username is refused with the domain's rule; a good one is saved.
      await page.getByTestId('username-input').fill('no spaces allowed');
      await page.getByTestId('save-names').click();
      await expect(page.getByTestId('username-error').textContent()).resolves.toContain('Username must be 3 to 24');
      const fresh = `neo${Date.now().toString(36)}`.slice(0, 20);
      await page.getByTestId('username-input').fill(fresh);
      await page.getByTestId('display-name-input').fill('Neo Avatar');
      await page.getByTestId('save-names').click();
      await page.getByTestId('profile-name').filter({ hasText: 'Neo Avatar' }).waitFor();
      await page.getByTestId('user-menu').getByText('Neo Avatar').waitFor();

      await screenshot(page, 'profile-1280');
      // The light theme, chosen here, applies at once.
      await page.getByRole('radio', { name: /Light/ }).click();
      await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
      await page.waitForTimeout(800); // the theme's colour transition
      await screenshot(page, 'profile-light-1280');
      await page.setViewportSize({ width: 360, height: 800 });
      await page.getByTestId('profile-page').waitFor();
      await screenshot(page, 'profile-360');
      // The rest of the account is one tap away: friends, verification, notification settings.
      const links = page.getByTestId('account-links');
      for (const [name, path] of [
        [PROFILE.accountLinks.verification.label, '/verification'],
        [PROFILE.accountLinks.notifications.label, '/settings/notifications'],
        [PROFILE.accountLinks.social.label, '/social'],
      ] as const) {
        await page.goto('/profile');
        await links.getByRole('link', { name: new RegExp(`^${name}`) }).click();
        await page.waitForURL((url) => url.pathname === path);
      }
    } finally {
      await context.close();
    }
  });
});

describe('leaderboards', () => {
  it('shows the winner of a match with the win, pinned as their own row; virtual accounts are told the boards are not for them', async () => {
    const winner = await newPage(browser, { width: 1280 });
    const loser = await newPage(browser, { width: 360 });
    try {
      const a = await signUpInContext(winner.page, { prefix: 'champ' });
      const b = await signUpInContext(loser.page, { prefix: 'rival' });
      const created = await call<{ challenge: { id: string } }>(a, 'POST', '/api/challenges', {
        game: 'tic-tac-toe',
        stake: 10,
        duration: 5,
      });
      const accepted = await call<{ match: { id: string } }>(b, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
      const matchId = accepted.match.id;
      await call(a, 'POST', `/api/matches/${matchId}/ready`, {});
      await call(b, 'POST', `/api/matches/${matchId}/ready`, {});
      // Two moves, so the replay has positions to step through.
      for (const cell of [4, 0]) {
        const { match } = await call<{ match: { version: number; toMove: number[]; players: { id: string }[] } }>(
          a,
          'GET',
          `/api/matches/${matchId}`,
        );
        const mover = match.players[match.toMove[0]!]!.id === a.id ? a : b;
        await call(mover, 'POST', `/api/matches/${matchId}/moves`, { move: cell, version: match.version });
      }
      const resigned = await call<{ match: { status: string; winnerId: string } }>(b, 'POST', `/api/matches/${matchId}/resign`, {});
      expect(resigned.match).toMatchObject({ status: 'completed', winnerId: a.id });

      const page = winner.page;
      await page.goto('/leaderboards?game=tic-tac-toe');
      await afterSplash(page);
      const mine = page.getByTestId('my-row');
      await mine.waitFor();
      expect(await mine.getAttribute('data-user-id')).toBe(a.id);
      expect(await mine.textContent()).toContain(a.username);
      // On the board itself, above the loser, with the win.
      const row = page.locator(`[data-testid="leaderboard-row"][data-user-id="${a.id}"]`);
      await row.waitFor();
      expect(await row.textContent()).toMatch(/Wins\s*1/);
      const ids = await page.getByTestId('leaderboard-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-user-id')));
      if (ids.includes(b.id)) expect(ids.indexOf(a.id)).toBeLessThan(ids.indexOf(b.id));
      await screenshot(page, 'leaderboards-1280');

      // Global too; and the loser at 360 px sees their own (lower) row pinned.
      await page.getByTestId('board-select').selectOption('global');
      await page.locator(`[data-testid="leaderboard-row"][data-user-id="${a.id}"]`).waitFor();
      await loser.page.goto('/leaderboards');
      await afterSplash(loser.page);
      await loser.page.locator(`[data-testid="my-row"][data-user-id="${b.id}"]`).waitFor();
      await screenshot(loser.page, 'leaderboards-360');

      // The profile shows the win, the rank and a replay of the match.
      await page.goto('/profile');
      await page.getByTestId('stat-wins').filter({ hasText: '1' }).waitFor();
      expect(await page.getByTestId('stat-rank').textContent()).toMatch(/^#\d+$/);
      await page
        .locator(`[data-testid="recent-match"][data-match-id="${matchId}"]`)
        .getByRole('button', { name: /Replay/ })
        .click();
      await page
        .getByTestId('replay-result')
        .filter({ hasText: `${a.username} won the match` })
        .waitFor();
      // The board steps through the game: the start, then each move (buttons and arrow keys).
      const board = page.getByTestId('replay-board');
      await board.waitFor();
      expect(await board.getAttribute('data-ply')).toBe('0');
      expect(await page.getByTestId('replay-position').textContent()).toBe(PROFILE.replayPosition(0, 2));
      await page.getByRole('button', { name: PROFILE.replayNext }).click();
      expect(await board.getAttribute('data-ply')).toBe('1');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByTestId('replay-position').textContent()).toBe(PROFILE.replayPosition(2, 2));
      expect(await page.getByRole('button', { name: PROFILE.replayNext }).isDisabled()).toBe(true);
      await screenshot(page, 'profile-replay-1280');
      await page.keyboard.press('Escape');
      await page.getByTestId('recent-matches').scrollIntoViewIfNeeded();
      await screenshot(page, 'profile-stats-1280');
    } finally {
      await winner.context.close();
      await loser.context.close();
    }

    const { context, page } = await newPage(browser, { width: 360 });
    try {
      await signUpInContext(page, { prefix: 'vt', accountType: 'virtual' });
      await page.goto('/leaderboards');
      await afterSplash(page);
      await page.getByTestId('leaderboards-virtual').getByText(PROFILE.leaderboardsVirtual).waitFor();
      await screenshot(page, 'leaderboards-virtual-360');
      // Virtual mode: the theme is locked to retro; the profile says so.
      await page.goto('/profile');
      await afterSplash(page);
      await page.getByTestId('theme-locked').waitFor();
      expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('retro');
      await screenshot(page, 'profile-virtual-360');
    } finally {
      await context.close();
    }
  });
});
