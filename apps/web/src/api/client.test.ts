import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AUTH, GENERIC } from '@versus/domain';
import { api, authedSend, setAuthHooks } from './client.ts';
import { ApiError } from './http.ts';

// The authenticated fetch helper against a scripted fetch: which token each call carried, and
// what happens on 401/403 (SPEC §7: refresh once and retry, otherwise the session is over).

interface Call {
  url: string;
  authorization: string | null;
}

let calls: Call[];
let answers: Response[];
let refreshes: number;
let expired: number;
let nextToken: string | null;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

beforeEach(() => {
  calls = [];
  answers = [];
  refreshes = 0;
  expired = 0;
  nextToken = 'fresh-token';
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, authorization: new Headers(init.headers).get('authorization') });
    const answer = answers.shift();
    if (!answer) throw new TypeError('Failed to fetch');
    return answer;
  });
  setAuthHooks({
    getToken: () => 'old-token',
    refresh: async () => {
      refreshes += 1;
      return nextToken;
    },
    onExpired: () => {
      expired += 1;
    },
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('authedSend', () => {
  it('adds the bearer token', async () => {
    answers.push(json(200, { ok: true }));
    const response = await authedSend('/api/thing');
    expect(response.status).toBe(200);
    expect(calls).toEqual([{ url: '/api/thing', authorization: 'Bearer old-token' }]);
    expect(refreshes).toBe(0);
  });

  it('on 401 refreshes once and retries with the new token', async () => {
    answers.push(json(401, { error: { code: 'token_expired', message: 'expired' } }), json(200, { ok: true }));
    const response = await authedSend('/api/thing');
    expect(response.status).toBe(200);
    expect(calls.map((c) => c.authorization)).toEqual(['Bearer old-token', 'Bearer fresh-token']);
    expect(refreshes).toBe(1);
    expect(expired).toBe(0);
  });

  it('on 403 also refreshes and retries; a second 403 is a real refusal, not an expired session', async () => {
    answers.push(json(403, { error: { code: 'forbidden', message: 'no' } }), json(403, { error: { code: 'forbidden', message: 'no' } }));
    const response = await authedSend('/api/admin');
    expect(response.status).toBe(403);
    expect(refreshes).toBe(1);
    expect(expired).toBe(0);
  });

  it('ends the session when the refresh fails', async () => {
    nextToken = null;
    answers.push(json(401, { error: { code: 'token_expired', message: 'expired' } }));
    await expect(authedSend('/api/thing')).rejects.toMatchObject({ status: 401, message: AUTH.authFailedExpired });
    expect(calls).toHaveLength(1);
    expect(expired).toBe(1);
  });

  it('ends the session when the retry is refused again with 401', async () => {
    answers.push(json(401, { error: { code: 'a', message: 'a' } }), json(401, { error: { code: 'b', message: 'b' } }));
    await expect(authedSend('/api/thing')).rejects.toBeInstanceOf(ApiError);
    expect(refreshes).toBe(1);
    expect(expired).toBe(1);
  });
});

describe('api', () => {
  const schema = {
    safeParse: (data: unknown) =>
      typeof data === 'object' && data !== null && 'n' in data
        ? { success: true as const, data: data as { n: number } }
        : { success: false as const, error: { issues: ['no n'] } },
  };

  it('parses a good answer with its schema', async () => {
    answers.push(json(200, { n: 7 }));
    expect(await api.get('/api/n', schema)).toEqual({ n: 7 });
  });

  it('turns an error answer into an ApiError with the server code, message and field', async () => {
    answers.push(json(400, { error: { code: 'invalid_input', message: 'Stake must be between $1 and $1000.', field: 'stake' } }));
    await expect(api.post('/api/challenges', {}, schema)).rejects.toMatchObject({
      status: 400,
      code: 'invalid_input',
      message: 'Stake must be between $1 and $1000.',
      field: 'stake',
    });
  });

  it('refuses an answer of the wrong shape', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    answers.push(json(200, { m: 1 }));
    await expect(api.get('/api/n', schema)).rejects.toMatchObject({ code: 'bad_response', message: GENERIC.other });
  });

  it('reports a network failure with the SPEC text', async () => {
    await expect(api.get('/api/n', schema)).rejects.toMatchObject({ status: 0, code: 'network', message: GENERIC.network });
  });

  it('reads a non-JSON error page as a plain HTTP error', async () => {
    answers.push(new Response('<html>Bad gateway</html>', { status: 502, statusText: 'Bad Gateway' }));
    await expect(api.get('/api/n', schema)).rejects.toMatchObject({ status: 502, code: 'http_502', message: 'Bad Gateway' });
  });
});
