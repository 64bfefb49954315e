// Social and beta feedback end to end: a friend request accepted and seen both ways, then feedback
// sent through the widget and answered by the demo admin.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { FEEDBACK_TEXT } from '@versus/domain/feedback';
import { SOCIAL_TEXT } from '@versus/domain/social';
import { VERIFY_TEXT } from '@versus/domain/verification';
import { afterSplash, launchBrowser, newPage, screenshot, signUpInContext } from './harness.ts';

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

async function openSocial(page: Page) {
  await page.goto('/social');
  await afterSplash(page);
  await page.getByTestId('social-page').waitFor();
}

describe('social', () => {
  it('a friend request is accepted and both players see each other as friends', async () => {
    const a = await newPage(browser, { width: 1280 });
    const b = await newPage(browser, { width: 360 });
    try {
      const playerA = await signUpInContext(a.page, { prefix: 'socA' });
      const playerB = await signUpInContext(b.page, { prefix: 'socB' });

      await openSocial(a.page);
      await a.page.getByTestId('social-search').fill(playerB.username);
      const result = a.page.getByTestId('search-results').locator('li').filter({ hasText: playerB.username });
      await result.getByRole('button', { name: `${SOCIAL_TEXT.addFriend} ${playerB.username}` }).click();
      await a.page.getByText(SOCIAL_TEXT.requestSent, { exact: true }).first().waitFor();
      await a.page.getByTestId('outgoing-requests').locator('li').filter({ hasText: playerB.username }).waitFor();
      await result.getByText(SOCIAL_TEXT.relation.requestSent).waitFor();

      // B (on a phone) sees the request, live or on arrival, and accepts it.
      await openSocial(b.page);
      const incoming = b.page.getByTestId('incoming-requests').locator('li').filter({ hasText: playerA.username });
      await incoming.waitFor();
      await screenshot(b.page, 'social-requests-360');
      await incoming.getByRole('button', { name: `${SOCIAL_TEXT.accept} ${playerA.username}` }).click();
      await b.page.getByTestId('friends-list').locator(`[data-user="${playerA.username}"]`).waitFor();
      await screenshot(b.page, 'social-friends-360');

      // A's screen follows by itself (social.changed on A's topic): B is a friend, with presence.
      const friend = a.page.getByTestId('friends-list').locator(`[data-user="${playerB.username}"]`);
      await friend.waitFor();
      expect(await a.page.getByTestId('outgoing-requests').count()).toBe(0);
      // Challenge opens the wizard for a private match against B.
      const challenge = friend.getByRole('link', { name: new RegExp(SOCIAL_TEXT.challenge) });
      expect(await challenge.getAttribute('href')).toBe(`/create-challenge?opponent=${playerB.id}`);
      // B's socket is seen within a heartbeat (10 s) and A's list refreshes within 30 s.
      await friend.getByText(SOCIAL_TEXT.online, { exact: true }).waitFor({ timeout: 45_000 });
      await screenshot(a.page, 'social-friends-1280');
      await a.page.setViewportSize({ width: 360, height: 780 });
      await screenshot(a.page, 'social-friends-a-360');
      await a.page.setViewportSize({ width: 1280, height: 800 });
      // The light theme reads the same tokens.
      await a.page.evaluate(() => localStorage.setItem('versus:theme', 'light'));
      await openSocial(a.page);
      await a.page.getByTestId('friends-list').locator(`[data-user="${playerB.username}"]`).waitFor();
      await screenshot(a.page, 'social-friends-light-1280');
      await a.page.evaluate(() => localStorage.removeItem('versus:theme'));

      // The verification screen says an admin reviews (no provider).
      await a.page.goto('/verification');
      await afterSplash(a.page);
      await a.page.getByTestId('manual-review-notice').getByText(VERIFY_TEXT.manualNotice).waitFor();
      await a.page.getByTestId('gamertag-xbox').getByRole('textbox').fill('SocialChief');
      await a.page
        .getByTestId('gamertag-xbox')
        .getByRole('button', { name: /Link and request review/ })
        .click();
      await a.page.getByTestId('gamertag-xbox').getByText(VERIFY_TEXT.status.pending).waitFor();
      await screenshot(a.page, 'verification-1280');
      // The linked gamertag fills in the wizard for Xbox; PlayStation (not linked) stays empty.
      await a.page.goto('/marketplace/create?game=fifa-24&amount=10');
      await afterSplash(a.page);
      const platforms = a.page.getByTestId('platforms');
      await platforms.getByRole('radio', { name: 'Xbox' }).click();
      await expect.poll(() => a.page.getByLabel('Your gamertag on Xbox').inputValue(), { timeout: 10_000 }).toBe('SocialChief');
      await platforms.getByRole('radio', { name: 'PlayStation' }).click();
      await expect.poll(() => a.page.getByLabel('Your gamertag on PlayStation').inputValue(), { timeout: 10_000 }).toBe('');
      await b.page.goto('/verification');
      await afterSplash(b.page);
      await b.page.getByTestId('verification-summary').waitFor();
      await screenshot(b.page, 'verification-360');
      await b.page.goto('/auth-debug');
      await afterSplash(b.page);
      await b.page.getByTestId('health-result').getByText('Backend connected').waitFor();
      await b.page.getByTestId('realtime-status').getByText('connected', { exact: true }).waitFor();
      await screenshot(b.page, 'auth-debug-360');
    } finally {
      for (const c of [a, b]) await c.context.close();
    }
  });

  it('feedback sent from the widget reaches the admin, whose answer comes back to the player', async () => {
    const player = await newPage(browser, { width: 360 });
    const admin = await newPage(browser, { width: 1280 });
    try {
      const p = await signUpInContext(player.page, { prefix: 'fb' });
      await player.page.goto('/matches?tab=history');
      await afterSplash(player.page);
      await player.page.getByTestId('feedback-open').click();
      const panel = player.page.getByTestId('feedback-panel');
      await panel.getByText(FEEDBACK_TEXT.noHistory).waitFor();
      const text = `The history tab is empty for ${p.username}`;
      await panel.getByTestId('feedback-message').fill(text);
      await panel.getByText(FEEDBACK_TEXT.attached('/matches?tab=history · v0.1.0-beta')).waitFor();
      await screenshot(player.page, 'feedback-widget-360');
      await panel.getByTestId('feedback-send').click();
      await player.page.getByText(FEEDBACK_TEXT.sent).waitFor();
      await panel.getByTestId('feedback-history').getByText(text).waitFor();

      const signIn = await admin.page.request.post('/api/auth/signin', {
        data: { email: 'admin@versus.test', password: 'versus-admin', account_type: 'real' },
      });
      expect(signIn.status()).toBe(200);
      await admin.page.goto('/admin');
      await afterSplash(admin.page);
      await admin.page.getByTestId('verification-queue').waitFor();
      await admin.page.getByTestId('verification-queue').scrollIntoViewIfNeeded();
      await screenshot(admin.page, 'admin-verification-queue-1280');
      await admin.page.getByRole('link', { name: 'Beta Feedback' }).click();
      const item = admin.page.getByTestId('feedback-item').filter({ hasText: text });
      await item.waitFor();
      await item.getByText('/matches?tab=history').waitFor();
      await screenshot(admin.page, 'admin-beta-feedback-1280');
      await admin.page.setViewportSize({ width: 360, height: 780 });
      await screenshot(admin.page, 'admin-beta-feedback-360');
      await admin.page.setViewportSize({ width: 1280, height: 800 });
      await item.getByTestId('feedback-answer').fill('Thanks! Fixed in the next build.');
      await item.getByTestId('feedback-answer-send').click();
      await admin.page.getByText(FEEDBACK_TEXT.answerSent).waitFor();

      // The answer arrives in the open widget (feedback.answered on the player's topic).
      await panel.getByText('Thanks! Fixed in the next build.').waitFor();
      await screenshot(player.page, 'feedback-answered-360');
    } finally {
      for (const c of [player, admin]) await c.context.close();
    }
  });
});
