// Uploads on PGlite: its one connection means evidence must be written inside the report's transaction.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openMigratedPglite } from '../test/pglite-app.ts';
import { createResultsKit, multipartBody, pngOf, type ResultsKit } from '../results/results.test-kit.ts';
import { relaxedLimits, type TestApp } from '../test/app.ts';

let kit: ResultsKit;
beforeAll(async () => {
  kit = await createResultsKit(async (): Promise<TestApp> => {
    const db = await openMigratedPglite();
    const base = loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false', TRUST_PROXY: 'true' });
    const config = { ...base, limits: relaxedLimits(base.limits) };
    expect(config.files).toEqual({ kind: 'postgres' });
    const app = await buildApp({ config, db, logger: false });
    await app.ready();
    const database = { db, name: 'pglite', url: 'memory://', drop: () => db.close() };
    return { app, database, config, close: async () => (await app.close(), await database.drop()) };
  });
}, 60_000);
afterAll(async () => kit?.close());

/** A form with one image under `field`. */
function form(field: string, fields: Record<string, string>, data: Buffer) {
  const built = multipartBody(fields, { type: 'image/png', data });
  return {
    payload: Buffer.from(built.payload.toString('latin1').replace('name="evidence"', `name="${field}"`), 'latin1'),
    headers: built.headers,
  };
}

async function fetched(url: string, headers: Record<string, string> = {}) {
  const res = await kit.t.app.inject({ method: 'GET', url, headers });
  return { status: res.statusCode, type: res.headers['content-type'], data: res.rawPayload };
}

it('stores and serves an avatar, a feedback screenshot and match evidence in the embedded database', async () => {
  const { matchId, p1 } = await kit.externalMatch();
  const [avatar, screenshot, evidence] = [pngOf(3000), pngOf(4000), pngOf(5000)];

  const up = form('avatar', {}, avatar);
  const uploaded = await kit.t.app.inject({
    method: 'PUT',
    url: `/api/profiles/${p1.id}/avatar`,
    headers: { ...p1.headers, ...up.headers },
    payload: up.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  expect(await fetched(uploaded.json().user.avatar)).toEqual({ status: 200, type: 'image/png', data: avatar });

  const shot = form('screenshot', { message: 'Looks off', pageUrl: '/wallet', appVersion: '0.1.0' }, screenshot);
  const sent = await kit.api('POST', '/api/feedback', { as: p1, payload: shot.payload, headers: shot.headers });
  expect(sent.status, JSON.stringify(sent.body)).toBe(201);
  expect(await fetched((sent.body.feedback as { screenshotUrl: string }).screenshotUrl, p1.headers)).toEqual({
    status: 200,
    type: 'image/png',
    data: screenshot,
  });

  const proof = form('evidence', { outcome: 'win' }, evidence);
  const reported = await kit.api('POST', `/api/matches/${matchId}/report`, { as: p1, payload: proof.payload, headers: proof.headers });
  expect(reported.status, JSON.stringify(reported.body)).toBe(200);
  const state = await kit.api('GET', `/api/matches/${matchId}/result`, { as: p1 });
  const url = (state.body.reports as { evidence: { url: string } | null }[])[0]!.evidence!.url;
  expect(await fetched(url, p1.headers)).toEqual({ status: 200, type: 'image/png', data: evidence });

  const [files] = await kit.t.database.db.query<{ n: number }>('SELECT count(*)::int AS n FROM stored_files');
  expect(files!.n).toBe(3);
});
