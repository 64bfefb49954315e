// Beta feedback on real PostgreSQL: seen by its author and admins only, answered once, by admins.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FEEDBACK_LIMITS, FEEDBACK_TEXT } from '@versus/domain/feedback';
import { RESULTS } from '@versus/domain/messages';
import { multipartBody, pngOf } from '../results/results.test-kit.ts';
import { createSocialKit, type Player, type SocialKit } from '../social/social.test-kit.ts';

let kit: SocialKit;
let admin: Player;
beforeAll(async () => {
  kit = await createSocialKit();
  admin = await kit.admin();
});
afterAll(async () => kit?.close());

const message = { message: 'The wallet total looks off', pageUrl: '/wallet?tab=history', appVersion: '0.1.0-beta' };
const count = async () => Number((await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM beta_feedback'))[0]!.n);

/** multipartBody names its file part `evidence`; the widget's is `screenshot`. */
function screenshotForm(fields: Record<string, string>, file: { type: string; data: Buffer }) {
  const form = multipartBody(fields, file);
  return {
    payload: Buffer.from(form.payload.toString('latin1').replace('name="evidence"', 'name="screenshot"'), 'latin1'),
    headers: form.headers,
  };
}

describe('sending', () => {
  it('stores the message with page, version and browser; refuses empty and anonymous messages', async () => {
    const p = await kit.signUp();
    const sent = await kit.api('POST', '/api/feedback', { as: p, body: message, headers: { 'user-agent': 'VersusTest/1.0' } });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.feedback).toMatchObject({
      ...message,
      userId: p.id,
      userAgent: 'VersusTest/1.0',
      status: 'open',
      screenshotUrl: null,
      answer: null,
    });
    const before = await count();
    const empty = await kit.api('POST', '/api/feedback', { as: p, body: { ...message, message: '   ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error).toMatchObject({ message: FEEDBACK_TEXT.messageRequired, field: 'message' });
    expect((await kit.api('POST', '/api/feedback', { as: p, body: { ...message, message: 'x'.repeat(2001) } })).status).toBe(400);
    expect((await kit.api('POST', '/api/feedback', { as: p, body: { ...message, pageUrl: 'javascript:alert(1)' } })).status).toBe(400);
    expect((await kit.api('POST', '/api/feedback', { body: message })).status).toBe(401);
    expect(await count()).toBe(before);
  });

  it('takes at most 20 messages a player in 24 hours; others can still write', async () => {
    const busy = await kit.signUp();
    for (let i = 0; i < FEEDBACK_LIMITS.perDay; i++) {
      expect((await kit.api('POST', '/api/feedback', { as: busy, body: { ...message, message: `note ${i}` } })).status).toBe(201);
    }
    const before = await count();
    const refused = await kit.api('POST', '/api/feedback', { as: busy, body: message });
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toBe(FEEDBACK_TEXT.tooMany);
    expect(await count()).toBe(before);
    expect((await kit.api('POST', '/api/feedback', { as: await kit.signUp(), body: message })).status).toBe(201);
  });

  it('holds the daily cap when a player sends many messages at once', async () => {
    const eager = await kit.signUp();
    const sent = await Promise.all(
      Array.from({ length: FEEDBACK_LIMITS.perDay + 10 }, (_, i) =>
        kit.api('POST', '/api/feedback', { as: eager, body: { ...message, message: `burst ${i}` } }),
      ),
    );
    expect(sent.filter((r) => r.status === 201)).toHaveLength(FEEDBACK_LIMITS.perDay);
    expect(sent.filter((r) => r.status === 429)).toHaveLength(10);
    const [stored] = await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM beta_feedback WHERE user_id = $1', [
      eager.id,
    ]);
    expect(stored!.n).toBe(FEEDBACK_LIMITS.perDay);
  });

  it('takes a screenshot image and serves it to the author and admins only; a non-image is refused', async () => {
    const [p, other] = [await kit.signUp(), await kit.signUp()];
    const form = screenshotForm(message, { type: 'image/png', data: pngOf(400) });
    const sent = await kit.api('POST', '/api/feedback', { as: p, payload: form.payload, headers: form.headers });
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    const url = sent.body.feedback.screenshotUrl as string;
    expect(url).toBe(`/api/feedback/${sent.body.feedback.id}/screenshot`);
    const own = await kit.t.app.inject({ method: 'GET', url, headers: p.headers });
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.rawPayload.length).toBe(400);
    expect((await kit.t.app.inject({ method: 'GET', url, headers: admin.headers })).statusCode).toBe(200);
    expect((await kit.t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(404);
    expect((await kit.t.app.inject({ method: 'GET', url })).statusCode).toBe(401);

    const before = await count();
    const fake = screenshotForm(message, { type: 'image/png', data: Buffer.from('not a png at all') });
    const refused = await kit.api('POST', '/api/feedback', { as: p, payload: fake.payload, headers: fake.headers });
    expect(refused.status).toBe(400);
    expect(refused.body.error.message).toBe(RESULTS.fileNotImage);
    const pdf = screenshotForm(message, { type: 'application/pdf', data: Buffer.from('%PDF-1.4') });
    expect((await kit.api('POST', '/api/feedback', { as: p, payload: pdf.payload, headers: pdf.headers })).body.error.message).toBe(
      RESULTS.fileNotImage,
    );
    expect(await count()).toBe(before);
  });
});

describe('visibility and answers', () => {
  it('only the author and admins see a message; only admins list and answer; the answer reaches the author once', async () => {
    const [author, other] = [await kit.signUp(), await kit.signUp()];
    const id = (await kit.api('POST', '/api/feedback', { as: author, body: message })).body.feedback.id as string;

    expect((await kit.api('GET', `/api/feedback/${id}`, { as: author })).status).toBe(200);
    expect((await kit.api('GET', `/api/feedback/${id}`, { as: admin })).status).toBe(200);
    const hidden = await kit.api('GET', `/api/feedback/${id}`, { as: other });
    expect(hidden.status).toBe(404);
    expect(hidden.body.error.message).toBe(FEEDBACK_TEXT.notFound);
    expect((await kit.api('GET', `/api/feedback/${id}`)).status).toBe(401);
    expect((await kit.api('GET', '/api/feedback', { as: other })).body.feedback).toEqual([]);
    expect((await kit.api('GET', '/api/feedback', { as: author })).body.feedback.map((f: { id: string }) => f.id)).toEqual([id]);

    // The admin list and answer: admins only.
    expect((await kit.api('GET', '/api/admin/feedback')).status).toBe(401);
    expect((await kit.api('GET', '/api/admin/feedback', { as: author })).status).toBe(403);
    expect((await kit.api('POST', `/api/admin/feedback/${id}/answer`, { body: { answer: 'hi' } })).status).toBe(401);
    expect((await kit.api('POST', `/api/admin/feedback/${id}/answer`, { as: author, body: { answer: 'I answer myself' } })).status).toBe(
      403,
    );
    const list = await kit.api('GET', '/api/admin/feedback', { as: admin });
    expect(list.status).toBe(200);
    expect(list.body.feedback.find((f: { id: string }) => f.id === id)).toMatchObject({
      author: { id: author.id },
      status: 'open',
      pageUrl: message.pageUrl,
    });

    expect((await kit.api('POST', `/api/admin/feedback/${id}/answer`, { as: admin, body: { answer: ' ' } })).status).toBe(400);
    const answered = await kit.api('POST', `/api/admin/feedback/${id}/answer`, {
      as: admin,
      body: { answer: 'Thanks, fixed in the next build.' },
    });
    expect(answered.status, JSON.stringify(answered.body)).toBe(200);
    expect(answered.body.feedback).toMatchObject({ status: 'answered', answer: 'Thanks, fixed in the next build.', answeredBy: admin.id });
    const twice = await kit.api('POST', `/api/admin/feedback/${id}/answer`, { as: admin, body: { answer: 'Again' } });
    expect(twice.status).toBe(409);
    expect(twice.body.error.message).toBe(FEEDBACK_TEXT.alreadyAnswered);
    expect(
      (await kit.api('POST', '/api/admin/feedback/00000000-0000-4000-8000-000000000000/answer', { as: admin, body: { answer: 'x' } }))
        .status,
    ).toBe(404);

    expect((await kit.api('GET', `/api/feedback/${id}`, { as: author })).body.feedback).toMatchObject({
      status: 'answered',
      answer: 'Thanks, fixed in the next build.',
    });
    expect((await kit.events(`user:${author.id}`)).map((e) => e.type)).toContain('feedback.answered');
    const notes = await kit.api('GET', '/api/notifications', { as: author });
    expect(notes.body.notifications).toMatchObject([
      { type: 'system_announcement', title: FEEDBACK_TEXT.notificationTitle, message: 'Thanks, fixed in the next build.' },
    ]);
    expect((await kit.api('GET', '/api/notifications', { as: other })).body.notifications).toEqual([]);
    expect((await kit.events(`user:${other.id}`)).map((e) => e.type)).not.toContain('feedback.answered');
    const open = await kit.api('GET', '/api/admin/feedback?status=open', { as: admin });
    expect(open.body.feedback.map((f: { id: string }) => f.id)).not.toContain(id);
  });
});
