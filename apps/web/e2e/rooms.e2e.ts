// Private rooms with two players: B opens A's room link signed out, registers, joins, and both land in
// the same match.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { ROOMS, ROOM_SCREENS } from '@versus/domain';
import { gameDurationPresets } from '@versus/domain/catalogue';
import { afterSplash, baseUrl, launchBrowser, newPage, newPlayer, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const matchOf = (page: Page): string | null => new URL(page.url()).searchParams.get('match');

/** Clicks in the middle of the screen: on a phone the fixed bottom bar covers the page's last line. */
async function tap(locator: Locator): Promise<void> {
  await locator.evaluate((element) => element.scrollIntoView({ block: 'center' }));
  await locator.click();
}

describe('private rooms', () => {
  it('A opens a room, B opens the link signed out, registers, joins, and both land in the same match', async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 390 });
    try {
      await a.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl() });
      await signUpInContext(a.page, { prefix: 'roomA' });
      await a.page.goto('/live-arena');
      await afterSplash(a.page);
      const panel = a.page.getByTestId('private-room-panel');
      await panel.waitFor();
      await panel.getByLabel(ROOM_SCREENS.game).selectOption('tic-tac-toe');
      // The default tier is 20.
      expect(await panel.getByRole('radio', { name: '$20', exact: true }).getAttribute('aria-checked')).toBe('true');
      await panel.getByRole('radio', { name: '$10', exact: true }).click();
      await panel.getByLabel(ROOM_SCREENS.message).fill('Best of luck!');
      expect(await panel.getByText('13/200').isVisible()).toBe(true);
      await screenshot(a.page, 'rooms-panel-create-1280');
      await panel.getByRole('button', { name: ROOM_SCREENS.create }).click();

      const code = (await panel.getByTestId('room-code').textContent())?.trim() ?? '';
      expect(code).toMatch(/^[A-Z0-9]{6}$/);
      await panel.getByRole('button', { name: ROOM_SCREENS.copyLink }).click();
      const link = await a.page.evaluate(() => navigator.clipboard.readText());
      expect(link).toBe(`${baseUrl()}/join-room/${code}`);
      await screenshot(a.page, 'rooms-panel-active-1280');

      // B, signed out, opens the link.
      await b.page.goto(link);
      await afterSplash(b.page);
      const join = b.page.getByTestId('join-page');
      await join.waitFor();
      expect(await join.getByTestId('join-code').textContent()).toBe(code);
      await join.getByText('Tic-Tac-Toe').waitFor();
      await join.getByText('Best of luck!', { exact: false }).waitFor();
      await join.getByTestId('join-signed-out').waitFor();
      await screenshot(b.page, 'rooms-join-signed-out-390');

      await tap(join.getByRole('button', { name: ROOM_SCREENS.createAccount }));
      const dialog = b.page.getByTestId('register-dialog');
      await dialog.waitFor();
      const player = newPlayer('roomB');
      await dialog.getByRole('radio', { name: /Real/ }).click();
      await dialog.getByLabel('Full name').fill(player.fullName);
      await dialog.getByLabel('Username').fill(player.username);
      await dialog.getByLabel('Email').fill(player.email);
      await dialog.getByLabel('Phone').fill(player.phone);
      await dialog.getByLabel('Date of birth').fill(player.dateOfBirth);
      await dialog.getByLabel('Password', { exact: true }).fill(player.password);
      await dialog.getByRole('button', { name: 'Create Account', exact: true }).click();

      // The join completes by itself once signed in; both go to the same match.
      await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'), { timeout: 20_000 });
      await a.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'), { timeout: 20_000 });
      const matchId = matchOf(b.page);
      expect(matchId).toBeTruthy();
      expect(matchOf(a.page)).toBe(matchId);
      await b.page.getByTestId('live-arena').waitFor();
      await a.page.getByText(ROOM_SCREENS.joined(player.username)).first().waitFor();

      // The room is used: the link now answers "Room not found" with a way home.
      await b.page.goto(`/join-room/${code}`);
      const problem = b.page.getByTestId('join-problem');
      await problem.waitFor();
      expect(await problem.getByRole('alert').textContent()).toBe(ROOMS.notFound);
      expect(await problem.getByRole('link', { name: ROOM_SCREENS.backHome }).isVisible()).toBe(true);
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });

  it('shows refusals in the panel and on the join screen, and cancels a room', async () => {
    const a = await newPage(browser, { width: 390 });
    try {
      await signUpInContext(a.page, { prefix: 'roomC' });
      await a.page.goto('/live-arena');
      await afterSplash(a.page);
      const panel = a.page.getByTestId('private-room-panel');
      await tap(panel.getByRole('button', { name: ROOM_SCREENS.create }));
      const code = (await panel.getByTestId('room-code').textContent())?.trim() ?? '';
      expect(code).toHaveLength(6);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(a.page, 'rooms-panel-active-390');

      // My own room: the join screen shows the server's refusal.
      await a.page.goto(`/join-room/${code}`);
      const join = a.page.getByTestId('join-page');
      await tap(join.getByTestId('join-button'));
      expect(await join.getByTestId('join-error').textContent()).toContain(ROOMS.ownRoom);
      await screenshot(a.page, 'rooms-join-own-390');

      // Cancel from the panel; the panel offers a new room again.
      await a.page.goto('/live-arena');
      await tap(panel.getByRole('button', { name: ROOM_SCREENS.cancel }));
      await panel.getByRole('button', { name: ROOM_SCREENS.create }).waitFor();

      // A link with a bad code, /share and /handle-protocol.
      await a.page.goto('/join-room/AB');
      expect(await a.page.getByTestId('join-problem').getByRole('alert').textContent()).toBe(ROOMS.codeLength);
      await a.page.goto(`/share?title=Play&text=${encodeURIComponent(`Join me: ${baseUrl()}/join-room/${code.toLowerCase()}`)}`);
      await a.page.waitForURL((url) => url.pathname === `/join-room/${code}`);
      await a.page.goto(`/handle-protocol?url=${encodeURIComponent('web+versus://join/ABC234')}`);
      await a.page.waitForURL((url) => url.pathname === '/join-room/ABC234');
      await a.page.goto('/share?text=hello');
      await a.page.getByText(ROOM_SCREENS.shareNothing).waitFor();
      await afterSplash(a.page);
      await screenshot(a.page, 'rooms-share-nothing-390');
    } finally {
      await a.context.close();
    }
  });

  it('B accepts a private challenge through /join-challenge/{code} and lands in its match', async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 1280 });
    try {
      const creator = await signUpInContext(a.page, { prefix: 'chalA' });
      const created = await a.page.request.post('/api/challenges', {
        headers: { authorization: `Bearer ${creator.token}` },
        data: { game: 'tic-tac-toe', stake: 5, duration: gameDurationPresets('tic-tac-toe')[0], isPrivate: true, message: 'Rematch?' },
      });
      expect(created.status()).toBe(201);
      const { challenge } = (await created.json()) as { challenge: { code: string } };
      expect(challenge.code).toMatch(/^[A-Z0-9]{6}$/);

      await signUpInContext(b.page, { prefix: 'chalB' });
      await b.page.goto(`/join-challenge/${challenge.code.toLowerCase()}`);
      await afterSplash(b.page);
      const join = b.page.getByTestId('join-page');
      expect(await join.getByTestId('join-code').textContent()).toBe(challenge.code);
      await join.getByText('Rematch?', { exact: false }).waitFor();
      await screenshot(b.page, 'rooms-join-challenge-1280');
      await join.getByRole('button', { name: ROOM_SCREENS.acceptChallenge }).click();
      await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.has('match'));
      await b.page.getByTestId('live-arena').waitFor();
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
