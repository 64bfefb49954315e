// Disputes end to end, three browser contexts: conflicting reports, the admin's resolution, and the
// winner's balance.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_SCREEN, MATCHES_SCREEN, RESULTS } from '@versus/domain';
import { adminDisputeItem, afterSplash, baseUrl, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

// A 1×1 transparent PNG.
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64');

async function call(token: string, method: string, url: string, body?: unknown): Promise<Record<string, unknown>> {
  const response = await fetch(`${baseUrl()}${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${url} answered ${response.status}: ${JSON.stringify(json)}`);
  return json;
}

const available = async (token: string) => Number((await call(token, 'GET', '/api/wallet/balance')).available_balance);

async function reportOnMatches(page: Page, matchId: string, outcome: 'win' | 'loss', evidence?: string) {
  await page.goto(`/matches?highlight=${matchId}`);
  await afterSplash(page);
  const card = page.locator(`[data-testid="match-card"][data-match-id="${matchId}"]`);
  await card.waitFor();
  expect(await card.getAttribute('data-highlighted')).toBe('true');
  expect(await card.getByTestId('match-countdown').textContent()).toMatch(/^Started /);
  if (evidence) await card.getByTestId('evidence-input').setInputFiles(evidence);
  await card.getByRole('button', { name: outcome === 'win' ? MATCHES_SCREEN.reportWin : MATCHES_SCREEN.reportLoss }).click();
}

describe('disputes', () => {
  it('conflicting reports go to the admin, who resolves for one player; both see it and the winner is paid', async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 390 });
    const admin = await newPage(browser, { width: 1280 });
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    const shot = path.join(os.tmpdir(), `versus-evidence-${Date.now()}.png`);
    fs.writeFileSync(shot, PNG);
    try {
      const playerA = await signUpInContext(a.page, { prefix: 'dispA' });
      const playerB = await signUpInContext(b.page, { prefix: 'dispB' });
      const before = await available(playerA.token);
      const stake = 40;
      const created = (await call(playerA.token, 'POST', '/api/challenges', {
        game: 'fifa-24',
        platform: 'playstation',
        gamertag: 'AlphaPad',
        stake,
        duration: 30,
      })) as {
        challenge: { id: string };
      };
      const accepted = (await call(playerB.token, 'POST', `/api/challenges/${created.challenge.id}/accept`, { gamertag: 'BravoPad' })) as {
        match: { id: string };
      };
      const matchId = accepted.match.id;
      // Reports open after the scheduled start: move it two minutes into the past.
      await db.query('UPDATE matches SET scheduled_time = $2 WHERE id = $1', [matchId, new Date(Date.now() - 120_000)]);

      // A reports a win with a screenshot; B (on a phone) also claims the win.
      await reportOnMatches(a.page, matchId, 'win', shot);
      await a.page.getByText(RESULTS.reportRecorded).waitFor();
      await a.page.getByTestId('my-report').waitFor();
      await screenshot(a.page, 'matches-1280');
      await reportOnMatches(b.page, matchId, 'win');
      await b.page.getByText(RESULTS.underReview).waitFor();
      await screenshot(b.page, 'matches-390');

      // Both find it under Disputes, under review.
      for (const { page } of [a, b]) {
        await page.goto(`/matches?tab=disputes&highlight=${matchId}`);
        await afterSplash(page);
        const card = page.locator(`[data-testid="dispute-card"][data-match-id="${matchId}"]`);
        await card.waitFor();
        expect(await card.getByTestId('dispute-status').textContent()).toBe(MATCHES_SCREEN.status.disputed);
        expect(await card.getByTestId('dispute-report').count()).toBe(2);
      }
      await a.page.locator('[data-testid="dispute-card"] [data-testid="evidence-thumb"] img').first().waitFor();
      await screenshot(b.page, 'matches-disputes-390');

      // The admin, signed in inside their own context, resolves it for A with a reason.
      const item = await adminDisputeItem(admin.page, [playerA.username, playerB.username]);
      await item.locator('[data-testid="evidence-thumb"] img').waitFor();
      expect(await item.getByTestId('dispute-record').count()).toBe(2);
      await screenshot(admin.page, 'admin-disputes-1280');
      await admin.page.setViewportSize({ width: 390, height: 844 });
      await screenshot(admin.page, 'admin-disputes-390');
      await admin.page.setViewportSize({ width: 1280, height: 800 });
      const resolve = item.getByRole('button', { name: ADMIN_SCREEN.resolve });
      await item.getByRole('button', { name: ADMIN_SCREEN.winner(playerA.username) }).click();
      expect(await resolve.isDisabled()).toBe(true); // a written reason is required
      await item.getByLabel(ADMIN_SCREEN.reason).fill('A’s screenshot shows the final score 3-1.');
      await resolve.click();
      await admin.page.getByText(ADMIN_SCREEN.resolvedToast).waitFor();
      await item.waitFor({ state: 'detached' });

      // Both players see the outcome live on the Disputes tab.
      for (const [{ page }, text] of [
        [a, MATCHES_SCREEN.won],
        [b, MATCHES_SCREEN.lost],
      ] as const) {
        const resolution = page.locator(`[data-testid="dispute-card"][data-match-id="${matchId}"] [data-testid="dispute-resolution"]`);
        await resolution.waitFor();
        expect(await resolution.textContent()).toContain(text);
      }
      expect(await available(playerA.token)).toBe(before + stake);
    } finally {
      fs.rmSync(shot, { force: true });
      await db.end();
      for (const c of [a, b, admin]) await c.context.close();
    }
  });
});
