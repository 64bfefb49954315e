// Every route of the social, verification and feedback features refuses a visitor (401) and
// changes nothing; the admin routes also refuse a signed-in player (403).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSocialKit, type SocialKit } from './social.test-kit.ts';

let kit: SocialKit;
beforeAll(async () => {
  kit = await createSocialKit();
});
afterAll(async () => kit?.close());

const ID = '00000000-0000-4000-8000-000000000000';
const ROUTES: ['GET' | 'POST' | 'PUT' | 'DELETE', string, unknown?][] = [
  ['GET', '/api/social'],
  ['GET', '/api/social/search?q=abc'],
  ['POST', '/api/social/friends', { userId: ID }],
  ['POST', '/api/social/follows', { userId: ID }],
  ['POST', `/api/social/requests/${ID}/accept`],
  ['POST', `/api/social/requests/${ID}/decline`],
  ['POST', `/api/social/requests/${ID}/cancel`],
  ['DELETE', `/api/social/friends/${ID}`],
  ['DELETE', `/api/social/follows/${ID}`],
  ['DELETE', `/api/social/followers/${ID}`],
  ['GET', '/api/verification'],
  ['PUT', '/api/verification/gamertags/xbox', { gamertag: 'x' }],
  ['DELETE', '/api/verification/gamertags/xbox'],
  ['POST', '/api/verification/identity', { fullName: 'A', dateOfBirth: '1990-01-01', documentType: 'passport', documentLast4: '1234' }],
  ['GET', '/api/admin/verification'],
  ['POST', `/api/admin/verification/${ID}/approve`, {}],
  ['POST', `/api/admin/verification/${ID}/reject`, { reason: 'x' }],
  ['POST', '/api/feedback', { message: 'hi', pageUrl: '/', appVersion: '1' }],
  ['GET', '/api/feedback'],
  ['GET', `/api/feedback/${ID}`],
  ['GET', `/api/feedback/${ID}/screenshot`],
  ['GET', '/api/admin/feedback'],
  ['POST', `/api/admin/feedback/${ID}/answer`, { answer: 'x' }],
];

it('refuses visitors everywhere and players on the admin routes', async () => {
  const player = await kit.signUp();
  const count = async () =>
    JSON.stringify(
      await kit.t.database.db.query(
        `SELECT (SELECT count(*) FROM social_links) AS links, (SELECT count(*) FROM gamertags) AS tags,
                (SELECT count(*) FROM verification_requests) AS requests, (SELECT count(*) FROM beta_feedback) AS feedback`,
      ),
    );
  const before = await count();
  for (const [method, url, body] of ROUTES) {
    const r = await kit.api(method, url, body === undefined ? {} : { body });
    expect(r.status, `${method} ${url}`).toBe(401);
    expect(r.body.error?.code, `${method} ${url}`).toBe('unauthorized');
    if (url.startsWith('/api/admin/')) {
      const plain = await kit.api(method, url, { as: player, ...(body === undefined ? {} : { body }) });
      expect(plain.status, `${method} ${url} as a player`).toBe(403);
    }
  }
  expect(await count()).toBe(before);
});
