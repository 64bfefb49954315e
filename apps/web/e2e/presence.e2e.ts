// Presence ("Here" / "Away") and readiness ("Ready" / "Not ready") shown apart and live for both
// seats of a match.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { LIVE_ARENA } from '@versus/domain';
import { MATCH_PRESENCE } from '@versus/domain/realtime-constants';
import {
  afterSplash,
  callApi as call,
  eventually,
  browserPerFile,
  newPage,
  screenshot,
  signUpInContext,
  type SignedUpPlayer,
} from './harness.ts';

const browser = browserPerFile();

/** A creates a tic-tac-toe challenge, B accepts it: the match id. */
async function makeMatch(a: SignedUpPlayer, b: SignedUpPlayer): Promise<string> {
  const created = await call<{ challenge: { id: string } }>(a, 'POST', '/api/challenges', { game: 'tic-tac-toe', stake: 5, duration: 5 });
  const accepted = await call<{ match: { id: string } }>(b, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
  return accepted.match.id;
}

const seatOf = (page: Page, name: string) => page.getByTestId('ready-room').locator('li', { hasText: name });
const presence = (page: Page, name: string) => async () =>
  ((await seatOf(page, name).locator('[data-testid^="seat-presence-"]').textContent()) ?? '').trim();
const readiness = (page: Page, name: string) => async () =>
  ((await seatOf(page, name).locator('[data-testid^="seat-ready-"]').textContent()) ?? '').trim();

describe('presence on the match screen', () => {
  it('shows Here / Away and Ready / Not ready apart, live, for both seats', { timeout: 120_000 }, async () => {
    const a = await newPage(browser(), { width: 1280 });
    const b = await newPage(browser(), { width: 360 });
    try {
      const playerA = await signUpInContext(a.page, { prefix: 'presA' });
      const playerB = await signUpInContext(b.page, { prefix: 'presB' });
      const matchId = await makeMatch(playerA, playerB);

      // A opens the match: A's own seat is Here at once, B's Away; nobody is ready.
      await a.page.goto(`/live-arena?match=${matchId}`);
      await afterSplash(a.page);
      await a.page.getByTestId('ready-room').waitFor();
      await eventually(presence(a.page, playerA.username), LIVE_ARENA.here);
      expect(await presence(a.page, playerB.username)()).toBe(LIVE_ARENA.away);
      expect(await readiness(a.page, playerA.username)()).toBe(LIVE_ARENA.notReady);

      // B opens it: B sees A Here (A's answer), A sees B Here; both still Not ready.
      await b.page.goto(`/live-arena?match=${matchId}`);
      await afterSplash(b.page);
      await b.page.getByTestId('ready-room').waitFor();
      await eventually(presence(b.page, playerA.username), LIVE_ARENA.here, 5000);
      await eventually(presence(b.page, playerB.username), LIVE_ARENA.here, 5000);
      await eventually(presence(a.page, playerB.username), LIVE_ARENA.here, 5000);
      expect(await readiness(b.page, playerA.username)()).toBe(LIVE_ARENA.notReady);
      expect(await readiness(b.page, playerB.username)()).toBe(LIVE_ARENA.notReady);
      // The player bars say it too.
      expect(await b.page.getByTestId('presence-0').textContent()).toBe(LIVE_ARENA.here);
      expect(await b.page.getByTestId('presence-1').textContent()).toBe(LIVE_ARENA.here);
      await screenshot(b.page, 'presence-both-here-360');

      // A gets ready: B sees A Ready, B still Not ready.
      await a.page.getByTestId('ready-button').click();
      await eventually(readiness(b.page, playerA.username), LIVE_ARENA.readyState);
      expect(await readiness(b.page, playerB.username)()).toBe(LIVE_ARENA.notReady);
      await screenshot(a.page, 'presence-a-ready-1280');

      // B closes the tab: A sees B Away within the presence timeout; B stays Not ready.
      const closedAt = Date.now();
      await b.page.close();
      await eventually(presence(a.page, playerB.username), LIVE_ARENA.away, MATCH_PRESENCE.timeoutMs);
      expect(Date.now() - closedAt).toBeLessThan(MATCH_PRESENCE.timeoutMs);
      expect(await readiness(a.page, playerB.username)()).toBe(LIVE_ARENA.notReady);
      expect(await presence(a.page, playerA.username)()).toBe(LIVE_ARENA.here);
      await screenshot(a.page, 'presence-b-away-1280');
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
