// No call to action for what is already over: a late "Join Match" for a finished match, or a notice
// from a catch-up, goes to the bell without a toast; a fresh one still toasts.
import crypto from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import {
  NOTIFICATION_EVENTS,
  buildNotification,
  type Notification,
  type NotificationMetadata,
  type NotificationType,
} from '@versus/domain/notifications';
import {
  afterSplash,
  callApi as call,
  dismissToasts,
  launchBrowser,
  newPage,
  screenshot,
  signUpInContext,
  type SignedUpPlayer,
} from './harness.ts';

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** The realtime hub's NOTIFY channel (apps/server/src/realtime/process-protocol.ts). */
const REALTIME_CHANNEL = 'versus_realtime';

/** A notification as the server builds it (notifications/notify.ts), made at `at`. */
const notification = (userId: string, type: NotificationType, metadata: NotificationMetadata, at: Date): Notification =>
  buildNotification({ id: crypto.randomUUID(), userId, type, metadata, now: at });

/** Publishes `notification.created` on user:{id} as publish.ts does: the event (its trigger stores the row), then its NOTIFY. */
async function deliver(db: pg.Client, n: Notification): Promise<void> {
  const topic = `user:${n.userId}`;
  const payload = JSON.stringify(n);
  const [row] = (
    await db.query<{ version: number }>(
      `WITH t AS (
         INSERT INTO realtime_topics (topic, version) VALUES ($1, 1)
         ON CONFLICT (topic) DO UPDATE SET version = realtime_topics.version + 1
         RETURNING version)
       INSERT INTO realtime_events (topic, version, type, payload) SELECT $1, t.version, $2, $3::jsonb FROM t RETURNING version`,
      [topic, NOTIFICATION_EVENTS.created, payload],
    )
  ).rows;
  // The process protocol's `event` message, version 1 (apps/server/src/realtime/process-protocol.ts).
  const note = JSON.stringify({ p: 1, t: 'event', d: { topic, v: Number(row!.version), type: NOTIFICATION_EVENTS.created, payload: n } });
  await db.query('SELECT pg_notify($1, $2)', [REALTIME_CHANNEL, note]);
}

const toasts = (page: Page) => page.locator('[data-sonner-toast]');
const bellItem = (page: Page, id: string) => page.locator(`[data-testid="notification-item"][data-notification-id="${id}"]`);

describe('no call to action for what is already over', () => {
  it('"Opponent Ready" delivered after the finish: no toast action, the bell item opens the result', { timeout: 120_000 }, async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 360 });
    const db = new pg.Client({ connectionString: inject('databaseUrl') });
    await db.connect();
    try {
      const playerA: SignedUpPlayer = await signUpInContext(a.page, { prefix: 'overA' });
      const playerB: SignedUpPlayer = await signUpInContext(b.page, { prefix: 'overB' });
      const created = await call<{ challenge: { id: string } }>(playerA, 'POST', '/api/challenges', {
        game: 'tic-tac-toe',
        stake: 5,
        duration: 5,
      });
      const { match } = await call<{ match: { id: string } }>(playerB, 'POST', `/api/challenges/${created.challenge.id}/accept`, {});
      const matchId = match.id;

      // Both get ready, B resigns: the match is over.
      await call(playerA, 'POST', `/api/matches/${matchId}/ready`, {});
      await call(playerB, 'POST', `/api/matches/${matchId}/ready`, {});
      const { match: view } = await call<{ match: { version: number } }>(playerB, 'GET', `/api/matches/${matchId}`);
      const { match: over } = await call<{ match: { status: string } }>(playerB, 'POST', `/api/matches/${matchId}/resign`, {
        version: view.version,
      });
      expect(over.status).toBe('completed');

      await b.page.goto('/');
      await b.page.getByTestId('landing-page').waitFor();
      await afterSplash(b.page);
      await dismissToasts(b.page);

      // The "Opponent Ready … Join Match" of the ready moment, delivered now (after the finish).
      const late = notification(playerB.id, 'match_ready', { matchId, gameType: 'tic-tac-toe', opponentId: playerA.id }, new Date());
      expect(late.actions.map((x) => x.label)).toEqual(['Join Match']);
      await deliver(db, late);
      // A notice from two minutes ago, caught up late.
      const stale = notification(
        playerB.id,
        'system_announcement',
        { title: 'Old news', message: 'Made two minutes ago.' },
        new Date(Date.now() - 120_000),
      );
      await deliver(db, stale);
      // A fresh notice still toasts: once it shows, the two before it have been handled.
      const fresh = notification(playerB.id, 'system_announcement', { title: 'Fresh news', message: 'Made just now.' }, new Date());
      await deliver(db, fresh);
      await toasts(b.page).filter({ hasText: 'Fresh news' }).waitFor();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(await toasts(b.page).filter({ hasText: 'Opponent Ready' }).count()).toBe(0);
      expect(await toasts(b.page).filter({ hasText: 'Old news' }).count()).toBe(0);
      expect(await b.page.locator('[data-sonner-toast] button', { hasText: 'Join Match' }).count()).toBe(0);

      // Both are in the bell; the "Opponent Ready" item opens the match, which shows its result.
      await b.page.getByTestId('notification-bell').click();
      const popover = b.page.getByTestId('notification-popover');
      await popover.waitFor();
      await bellItem(b.page, late.id).waitFor();
      await bellItem(b.page, stale.id).waitFor();
      expect(await bellItem(b.page, late.id).getByRole('button', { name: 'Join Match' }).count()).toBe(0);
      await screenshot(b.page, 'stale-actions-bell-360');
      await bellItem(b.page, late.id)
        .getByRole('button', { name: /^Opponent Ready/ })
        .click();
      await b.page.waitForURL((url) => url.pathname === '/live-arena' && url.searchParams.get('match') === matchId);
      await b.page.locator('[data-testid="match-screen"][data-status="completed"]').waitFor();
      await b.page.getByTestId('result-title').waitFor();
      expect(await b.page.getByTestId('ready-button').count()).toBe(0);
      await screenshot(b.page, 'stale-actions-result-360');
    } finally {
      await db.end();
      await a.context.close();
      await b.context.close();
    }
  });
});
