// Every route, read from the app's own table so a new one is covered: 401 for a visitor unless on
// PUBLIC, 403 for a player on admin routes, and a refusal changes nothing.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as domain from '@versus/domain';
import * as messages from '@versus/domain/messages';
import { ARENA, RESULTS } from '@versus/domain';
import { createResultsKit, multipartBody, pngOf, type ResultsKit, type TestPlayer } from '../results/results.test-kit.ts';

/** What a visitor may call, each with why; keep it short, as SPEC §6 gives visitors only the join, share and handler screens. */
const PUBLIC: Record<string, string> = {
  'GET /api/health': 'liveness probe (process up, database answering)',
  'GET /api/ready': 'readiness probe for the load balancer (no data: which checks pass)',
  'GET /api/openapi.json': 'the API description (no data)',
  // A visitor has no token yet; refresh and session read the httpOnly cookie instead.
  'POST /api/auth/signup': 'registration',
  'POST /api/auth/signin': 'sign-in',
  'POST /api/auth/refresh': 'authenticated by the refresh cookie, not a bearer token',
  'POST /api/auth/signout': 'ends the session of the refresh cookie, if any',
  'GET /api/auth/session': 'tells a visitor they are signed out',
  // SPEC §7 proxy fallback: the same handlers under /auth/*.
  'POST /auth/signup': 'proxy of POST /api/auth/signup',
  'POST /auth/signin': 'proxy of POST /api/auth/signin',
  'POST /auth/refresh': 'proxy of POST /api/auth/refresh',
  'POST /auth/signout': 'proxy of POST /api/auth/signout',
  'GET /auth/session': 'proxy of GET /api/auth/session',
  // SPEC §2's public join screens preview before sign-in; joining needs a session.
  'GET /api/challenges/code/:code': 'the public join-challenge screen',
  'GET /api/rooms/:code': 'the public join-room screen',
  // docs/decisions.md: avatars are served publicly (an <img> sends no token).
  'GET /api/avatars/:userId/:file': 'avatar images',
  // A socket signs in with its first message; a plain GET only answers 426.
  'GET /realtime': 'WebSocket upgrade; authenticated inside the protocol',
  // NOTE (reported): a visitor sees a public challenge and counts a view, though SPEC §6 gives visitors only the join screens.
  'GET /api/challenges/:id': 'optionalUser: public challenges to anyone (see NOTE)',
};

interface Route {
  method: string;
  url: string;
}
const key = (r: Route) => `${r.method} ${r.url}`;

/** Every route the app answers, from its own route table (HEAD is GET's twin and is left out). */
function enumerateRoutes(kit: ResultsKit): Route[] {
  const app = kit.t.app;
  const tree = app.printRoutes({ commonPrefix: false });
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split('\n')) {
    const m = /^((?:│ {3}| {4})*)(?:├── |└── )(\S+)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m) {
      if (line.trim()) throw new Error(`unexpected printRoutes line: ${line}`);
      continue;
    }
    const depth = m[1]!.length / 4;
    const url = (depth > 0 ? stack[depth - 1]! : '') + m[2]!;
    stack[depth] = url;
    stack.length = depth + 1;
    for (const method of (m[3] ?? '').split(', ').filter(Boolean)) {
      if (method === 'HEAD') continue;
      routes.push({ method, url });
    }
  }
  // The parse is only trusted if the app confirms every route it found.
  for (const r of routes) expect(app.hasRoute({ method: r.method, url: r.url }), key(r)).toBe(true);
  return routes;
}

/** Every user-facing text of the domain catalogues (a refusal must read one of them). */
function catalogueTexts(): Set<string> {
  const texts = new Set<string>();
  const walk = (value: unknown, depth: number) => {
    if (typeof value === 'string') texts.add(value);
    else if (value && typeof value === 'object' && depth < 3) for (const v of Object.values(value)) walk(v, depth + 1);
  };
  walk(domain, 0);
  walk(messages, 0);
  return texts;
}

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  format?: string;
  minLength?: number;
  minimum?: number;
  pattern?: string;
  nullable?: boolean;
};

/** A minimal value that passes a route's documented body schema, so validation does not answer first. */
function sample(s: JsonSchema | undefined): unknown {
  if (!s) return {};
  const options = s.anyOf ?? s.oneOf;
  if (options) return sample(options.find((o) => o.type !== 'null') ?? options[0]);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((part) => sample(part) as object));
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((name) => [name, sample(s.properties?.[name])]));
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
    case 'string':
      if (s.format === 'uuid') return crypto.randomUUID();
      if (s.format === 'email') return 'someone@example.test';
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return '1990-01-01';
      if (s.pattern?.includes('[01]\\d|2[0-3]')) return '22:00';
      return 'x'.repeat(Math.max(s.minLength ?? 1, 8));
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 1, 1);
    case 'boolean':
      return true;
    case undefined: // No type: any value is accepted.
    default:
      return {};
  }
}

/** Real resources of player A, so a visitor asks about something that exists. */
interface Fixtures {
  a: TestPlayer;
  b: TestPlayer;
  /** Neither A nor B: signed in, not an admin. */
  c: TestPlayer;
  aCookie: string;
  matchId: string;
  challengeId: string;
  roomCode: string;
  notificationId: string;
  feedbackId: string;
  requestId: string;
}

function pathFor(route: Route, f: Fixtures): string {
  return route.url.replace(/:(\w+)/g, (_all, name: string) => {
    const url = route.url;
    switch (name) {
      case 'id':
        if (url.startsWith('/api/matches/') || url.startsWith('/api/spectate/')) return f.matchId;
        if (url.startsWith('/api/challenges/')) return f.challengeId;
        if (url.startsWith('/api/notifications/')) return f.notificationId;
        if (url.includes('/feedback/')) return f.feedbackId;
        if (url.startsWith('/api/social/requests/')) return f.requestId;
        if (url.startsWith('/api/profiles/')) return f.a.id;
        return crypto.randomUUID();
      case 'code':
        return url.startsWith('/api/rooms/') ? f.roomCode : 'ABC234';
      case 'userId':
        return f.a.id;
      case 'platform':
        return 'xbox';
      case 'file':
        return 'avatar.png';
      case 'evidenceId':
        return crypto.randomUUID();
      default:
        throw new Error(`No sample value for :${name} in ${url}: add one to pathFor`);
    }
  });
}

let kit: ResultsKit;
let routes: Route[];
let openapi: {
  paths: Record<
    string,
    Record<
      string,
      {
        security?: Record<string, unknown>[];
        parameters?: { in: string; name: string; required?: boolean; schema: JsonSchema }[];
        requestBody?: { content: Record<string, { schema: JsonSchema }> };
      }
    >
  >;
};
let f: Fixtures;
const texts = catalogueTexts();

const openapiOf = (route: Route) => openapi.paths[route.url.replace(/:(\w+)/g, '{$1}')]?.[route.method.toLowerCase()];

function bodyFor(route: Route): unknown {
  if (!['POST', 'PUT', 'PATCH', 'DELETE'].includes(route.method)) return undefined;
  const schema = openapiOf(route)?.requestBody?.content['application/json']?.schema;
  return schema ? sample(schema) : undefined;
}

/** The documented required query parameters, sampled (e.g. GET /api/matches needs status=history). */
function queryFor(route: Route): string {
  const required = (openapiOf(route)?.parameters ?? []).filter((p) => p.in === 'query' && p.required);
  return required.length
    ? `?${new URLSearchParams(required.map((p): [string, string] => [p.name, String(sample(p.schema))])).toString()}`
    : '';
}

async function send(route: Route, options: { as?: TestPlayer; headers?: Record<string, string> } = {}) {
  const body = bodyFor(route);
  const raw = await kit.t.app.inject({
    method: route.method as 'GET',
    url: pathFor(route, f) + queryFor(route),
    headers: { 'x-forwarded-for': '10.99.0.1', ...(options.as?.headers ?? {}), ...(options.headers ?? {}) },
    ...(body === undefined ? {} : { payload: body as object }),
  });
  const json = String(raw.headers['content-type'] ?? '').includes('json') ? raw.json<{ error?: { code: string; message: string } }>() : {};
  return { status: raw.statusCode, body: json, text: raw.body };
}

/** Every row of every table, hashed: a refused request must leave it as it was. */
async function snapshot(): Promise<string> {
  const db = kit.t.database.db;
  const tables = await db.query<{ name: string }>(
    `SELECT quote_ident(table_schema) || '.' || quote_ident(table_name) AS name FROM information_schema.tables
      WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
  );
  const hashes: string[] = [];
  for (const { name } of tables) {
    const [row] = await db.query<{ h: string }>(`SELECT md5(coalesce(string_agg(t::text, ',' ORDER BY t::text), '')) AS h FROM ${name} t`);
    hashes.push(`${name}:${row!.h}`);
  }
  return hashes.join('\n');
}

/** The snapshot once the set-up's own after-commit work (notification delivery claims) is done: two alike 100 ms apart. */
async function settledSnapshot(): Promise<string> {
  let last = await snapshot();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = await snapshot();
    if (now === last) return now;
    last = now;
  }
}

beforeAll(async () => {
  kit = await createResultsKit();
  routes = enumerateRoutes(kit);
  openapi = (await kit.t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();

  const { matchId, p1: a, p2: b } = await kit.externalMatch();
  const c = await kit.signUp();
  const signIn = await kit.t.app.inject({
    method: 'POST',
    url: '/api/auth/signin',
    headers: { 'x-forwarded-for': '10.99.0.2' },
    payload: { email: `${a.username}@results.test`, password: 'secret123', account_type: 'real' },
  });
  expect(signIn.statusCode).toBe(200);
  const refresh = signIn.cookies.find((cookie) => cookie.name === 'versus_refresh');
  expect(refresh).toBeDefined();

  const api = (method: 'POST', url: string, as: TestPlayer, body: unknown) => kit.api(method, url, { as, body });
  const challenge = await api('POST', '/api/challenges', a, { game: 'fifa-24', platform: 'pc', gamertag: 'Ace', stake: 5, duration: 30 });
  expect(challenge.status, JSON.stringify(challenge.body)).toBe(201);
  const room = await api('POST', '/api/rooms', a, {});
  expect(room.status, JSON.stringify(room.body)).toBe(201);
  const feedback = await api('POST', '/api/feedback', a, { message: 'Mine', pageUrl: '/', appVersion: '1' });
  expect(feedback.status, JSON.stringify(feedback.body)).toBe(201);
  const friend = await api('POST', '/api/social/friends', a, { userId: c.id });
  expect(friend.status, JSON.stringify(friend.body)).toBe(201);
  const [notification] = await kit.t.database.db.query<{ id: string }>('SELECT id FROM notifications WHERE user_id = $1 LIMIT 1', [a.id]);
  expect(notification, 'player A has a notification').toBeDefined();

  f = {
    a,
    b,
    c,
    aCookie: `${refresh!.name}=${refresh!.value}`,
    matchId,
    challengeId: (challenge.body.challenge as { id: string }).id,
    roomCode: (room.body.room as { roomCode: string }).roomCode,
    notificationId: notification!.id,
    feedbackId: (feedback.body.feedback as { id: string }).id,
    requestId: (friend.body.link as { id: string }).id,
  };
});
afterAll(async () => kit?.close());

describe('the route table', () => {
  it('is enumerated from the app and agrees with the OpenAPI document', () => {
    expect(routes.length).toBeGreaterThan(80);
    const found = new Set(routes.map(key));
    for (const [path, operations] of Object.entries(openapi.paths)) {
      for (const method of Object.keys(operations)) {
        const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        expect(found.has(route), `${route} is documented but was not enumerated`).toBe(true);
      }
    }
  });

  it('lists only real routes as public, and documents which ones need a bearer token', () => {
    const found = new Set(routes.map(key));
    for (const route of Object.keys(PUBLIC)) expect(found.has(route), `stale PUBLIC entry: ${route}`).toBe(true);
    for (const route of routes) {
      const documented = openapiOf(route);
      if (!documented) continue;
      const needsBearer =
        (documented.security ?? []).some((s) => 'bearer' in s) && !(documented.security ?? []).some((s) => Object.keys(s).length === 0);
      if (!(key(route) in PUBLIC))
        expect(needsBearer, `${key(route)} is not public but its OpenAPI entry does not require a bearer token`).toBe(true);
      else expect(needsBearer, `${key(route)} is public but documented as needing a bearer token`).toBe(false);
    }
  });
});

describe('a visitor', () => {
  it('gets 401 (with a catalogue message, no 5xx) from every route not on the public list, and changes nothing', async () => {
    const before = await settledSnapshot();
    const wrong: string[] = [];
    const guarded = routes.filter((r) => !(key(r) in PUBLIC));
    for (const route of guarded) {
      for (const headers of [{}, { authorization: 'Bearer forged.token.value' }, { cookie: f.aCookie }] as Record<string, string>[]) {
        const reply = await send(route, { headers });
        const how = Object.keys(headers)[0] ?? 'nothing';
        if (reply.status !== 401 || reply.body.error?.code !== 'unauthorized') {
          wrong.push(`${key(route)} with ${how}: ${reply.status} ${reply.text.slice(0, 160)}`);
        } else if (!texts.has(reply.body.error.message)) {
          wrong.push(`${key(route)} with ${how}: message not in the catalogue: ${reply.body.error.message}`);
        }
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toBe(before);
  });

  it('gets no 5xx from the public routes', async () => {
    for (const route of routes.filter((r) => key(r) in PUBLIC)) {
      const reply = await send(route);
      expect(reply.status, `${key(route)}: ${reply.text.slice(0, 200)}`).toBeLessThan(500);
    }
  });
});

describe('a signed-in player who is not an admin', () => {
  it('gets 403 from every admin route, and changes nothing', async () => {
    const admin = routes.filter((r) => r.url.startsWith('/api/admin/'));
    expect(admin.length).toBeGreaterThan(5);
    const before = await settledSnapshot();
    const wrong: string[] = [];
    for (const route of admin) {
      const reply = await send(route, { as: f.c });
      if (reply.status !== 403 || reply.body.error?.code !== 'forbidden' || reply.body.error.message !== domain.AUTH.forbidden) {
        wrong.push(`${key(route)}: ${reply.status} ${reply.text.slice(0, 160)}`);
      }
    }
    expect(wrong).toEqual([]);
    expect(await snapshot()).toBe(before);
  });
});

// Only the strangers' cases no feature's own tests cover.
describe('another player', () => {
  it("cannot reach player A's data by naming A in the query of a 'my …' list", async () => {
    // A GET without path parameters answers for the caller alone, whoever the query names (D is linked to nobody).
    const d = await kit.signUp();
    const lists = routes.filter(
      (r) => r.method === 'GET' && !r.url.includes(':') && !(key(r) in PUBLIC) && !r.url.startsWith('/api/admin/'),
    );
    expect(lists.length).toBeGreaterThan(15);
    for (const route of lists) {
      const base = pathFor(route, f) + queryFor(route);
      const sep = base.includes('?') ? '&' : '?';
      const plain = await kit.api('GET', base, { as: d });
      const naming = await kit.api('GET', `${base}${sep}userId=${f.a.id}&user_id=${f.a.id}&playerId=${f.a.id}&creatorId=${f.a.id}`, {
        as: d,
      });
      expect(plain.status, key(route)).toBeLessThan(500);
      if (naming.status === 400) continue; // the query names are refused outright: nothing leaks
      expect(naming.status, key(route)).toBe(plain.status);
      expect(JSON.stringify(naming.body), key(route)).toBe(JSON.stringify(plain.body));
    }
  });

  it("cannot read an external match's result state, claim or answer a no-show on it", async () => {
    const { matchId } = await kit.externalMatch({ startedAgoMs: 11 * 60_000 });
    const stranger = f.c;
    const before = await settledSnapshot();
    for (const [method, url] of [
      ['GET', `/api/matches/${matchId}/result`],
      ['POST', `/api/matches/${matchId}/no-show`],
      ['POST', `/api/matches/${matchId}/no-show/answer`],
    ] as const) {
      const reply = await kit.api(method, url, { as: stranger });
      expect(reply.status, `${method} ${url}`).toBe(403);
      expect(reply.body.error?.message, `${method} ${url}`).toBe(RESULTS.notPlayer);
    }
    expect(await snapshot()).toBe(before);
  });

  it("cannot fetch another match's evidence through a match of their own", async () => {
    const theirs = await kit.externalMatch();
    const form = multipartBody({ outcome: 'win' }, { type: 'image/png', data: pngOf(300) });
    const reported = await kit.api('POST', `/api/matches/${theirs.matchId}/report`, {
      as: theirs.p1,
      payload: form.payload,
      headers: form.headers,
    });
    expect(reported.status, JSON.stringify(reported.body)).toBe(200);
    const state = await kit.api('GET', `/api/matches/${theirs.matchId}/result`, { as: theirs.p1 });
    const url = (state.body.reports as { evidence: { url: string } | null }[])[0]!.evidence!.url;
    const evidenceId = url.split('/').at(-1)!;
    const mine = await kit.externalMatch();
    const crossed = await kit.api('GET', `/api/matches/${mine.matchId}/evidence/${evidenceId}`, { as: mine.p1 });
    expect(crossed.status).toBe(404);
    expect(crossed.body.error?.message).toBe(RESULTS.evidenceNotFound);
  });

  it('cannot replay a private match (refused as not theirs, before whether it is finished)', async () => {
    const [host, guest] = [await kit.signUp(), await kit.signUp()];
    const created = await kit.api('POST', '/api/challenges', {
      as: host,
      body: { game: 'tic-tac-toe', stake: 5, duration: 10, isPrivate: true },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const { id, code } = created.body.challenge as { id: string; code: string };
    const accepted = await kit.api('POST', `/api/challenges/${id}/accept`, { as: guest, body: { code } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const matchId = (accepted.body.match as { id: string }).id;
    const byStranger = await kit.api('GET', `/api/matches/${matchId}/replay`, { as: f.c });
    expect(byStranger.status).toBe(403);
    expect(byStranger.body.error?.message).toBe(ARENA.privateMatch);
    expect((await kit.api('GET', `/api/matches/${matchId}/replay`, { as: host })).status).toBe(409);
  });

  it("cannot cancel someone else's friend request (404, as for accept and decline)", async () => {
    const before = await settledSnapshot();
    const reply = await kit.api('POST', `/api/social/requests/${f.requestId}/cancel`, { as: f.b });
    expect(reply.status).toBe(404);
    expect(await snapshot()).toBe(before);
  });
});
