// Two browser players through HAProxy in front of three server processes (deploy/haproxy.cfg), each
// socket on a different process, a tic-tac-toe best of 3 to its payout.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { LIVE_ARENA } from '@versus/domain';
import { startChildServer, type ChildServer } from '../../server/src/test/child-server.ts';
import { haproxyUnavailable, startHaproxy, type Proxy } from '../../server/src/test/haproxy.ts';
import {
  callApi,
  launchBrowser,
  playCell,
  screenshot,
  signUpInContext,
  waitForGame,
  waitStatus,
  whoseTurn,
  type PagePlayer,
} from './harness.ts';

const unavailable = haproxyUnavailable();

interface Player extends PagePlayer {
  /** The process behind each realtime socket the page opened, in order. */
  sockets: string[];
}

describe.skipIf(unavailable !== null)(`behind HAProxy${unavailable ? ` (skipped: ${unavailable})` : ''}`, () => {
  let browser: Browser;
  let servers: ChildServer[] = [];
  let proxy: Proxy;

  beforeAll(async () => {
    const env = {
      WEB_DIR: 'apps/web/dist',
      TRUST_PROXY: '1',
      SIGNUP_LIMIT_PER_ADDRESS: '1000000',
      SIGNUP_LIMIT_GLOBAL: '1000000',
      CODE_LIMIT_PER_ADDRESS: '1000000',
    };
    // The build global-setup made, three times, on its database (already migrated and seeded).
    servers = await Promise.all([0, 1, 2].map(() => startChildServer(inject('databaseUrl'), env, { built: true, until: '/api/ready' })));
    proxy = await startHaproxy({ backends: servers.map((s) => s.port) as [number, number, number] });
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await proxy?.stop();
    for (const server of servers) server.kill();
    await Promise.all(servers.map((s) => s.exited));
  });

  const call = <T>(who: { token: string }, method: 'GET' | 'POST', path: string, body?: unknown) =>
    callApi<T>(who, method, path, body, proxy.http);

  /** A fresh player signed up through the proxy in a context of its own, its sockets watched. */
  async function player(prefix: string, width: number): Promise<Player> {
    const context = await browser.newContext({
      baseURL: proxy.http,
      viewport: { width, height: width < 768 ? 844 : 800 },
      isMobile: width < 768,
      hasTouch: width < 768,
    });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const sockets: string[] = [];
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    cdp.on('Network.webSocketHandshakeResponseReceived', (event) => {
      const headers = Object.fromEntries(Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), value]));
      sockets.push(String(headers['x-served-by'] ?? '?'));
    });
    return { ...(await signUpInContext(page, { prefix })), page, context, sockets };
  }

  const balance = (who: Player) => call<{ available_balance: number; escrow_balance: number }>(who, 'GET', '/api/wallet/balance');

  async function openArena(who: Player, matchId: string): Promise<string> {
    const before = who.sockets.length;
    await who.page.goto(`/live-arena?match=${matchId}&auto_ready=true`);
    await who.page.locator('#splash').waitFor({ state: 'hidden' });
    await expect.poll(() => who.sockets.length, { timeout: 10_000 }).toBeGreaterThan(before);
    return who.sockets.at(-1)!;
  }

  it('plays a tic-tac-toe best of 3 with each player on another process, and pays the winner', async () => {
    const a = await player('clua', 1280);
    const b = await player('club', 390);
    try {
      const stake = 10;
      const created = await call<{ challenge: { id: string } }>(a, 'POST', '/api/challenges', { game: 'tic-tac-toe', stake, duration: 5 });
      const matchId = (await call<{ match: { id: string } }>(b, 'POST', `/api/challenges/${created.challenge.id}/accept`, {})).match.id;

      const serverA = await openArena(a, matchId);
      let serverB = await openArena(b, matchId);
      // Round robin puts the next socket on another process: B comes again until it is not A's.
      for (let tries = 0; serverB === serverA && tries < 8; tries++) serverB = await openArena(b, matchId);
      expect(proxy.servers).toContain(serverA);
      expect(proxy.servers).toContain(serverB);
      expect(serverB).not.toBe(serverA);
      const socketsBefore = [a.sockets.length, b.sockets.length];
      await Promise.all([waitStatus(a.page, 'in_progress'), waitStatus(b.page, 'in_progress')]);

      // X takes the top row against the middle one each game; X alternates, so game 3 decides.
      const firstX = await whoseTurn([a, b]);
      const firstO = firstX === a ? b : a;
      for (let game = 0; game < 3; game++) {
        const x = game % 2 === 0 ? firstX : firstO;
        const o = x === a ? b : a;
        await waitForGame(x.page, game + 1);
        for (const [who, cell] of [
          [x, 'a1'],
          [o, 'a2'],
          [x, 'b1'],
          [o, 'b2'],
          [x, 'c1'],
        ] as const)
          await playCell(who, cell);
      }

      await Promise.all([waitStatus(a.page, 'completed'), waitStatus(b.page, 'completed')]);
      expect(await firstX.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.won);
      expect(await firstX.page.getByTestId('result-payout').textContent()).toBe(LIVE_ARENA.paid('$20.00'));
      expect(await firstO.page.getByTestId('result-title').textContent()).toBe(LIVE_ARENA.lost);
      const [won, lost] = await Promise.all([balance(firstX), balance(firstO)]);
      expect(won).toMatchObject({ available_balance: 1000 + stake, escrow_balance: 0 });
      expect(lost).toMatchObject({ available_balance: 1000 - stake, escrow_balance: 0 });

      // Each played the whole match on its own process: no socket was opened again meanwhile.
      expect([a.sockets.length, b.sockets.length]).toEqual(socketsBefore);
      await screenshot(firstX.page, 'cluster-result');
      console.info(
        `cluster e2e: A's socket on ${serverA}, B's on ${serverB} (B's page opened ${b.sockets.length} socket(s) to get there), the match paid ${stake * 2} to the winner`,
      );
    } finally {
      await a.context.close();
      await b.context.close();
    }
  });
});
