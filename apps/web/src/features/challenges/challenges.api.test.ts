import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/index.ts';
import { acceptChallenge } from './challenges.api.ts';

// Which Idempotency-Key each accept carried: one per attempt in doubt, kept across a retry that
// follows a lost answer, new once an answer (any answer) came back.
let keys: (string | null)[];
let answers: (Response | 'lost')[];

beforeEach(() => {
  keys = [];
  answers = [];
  vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
    keys.push(new Headers(init.headers).get('idempotency-key'));
    const answer = answers.shift() ?? 'lost';
    if (answer === 'lost') throw new TypeError('Failed to fetch');
    return answer;
  });
});
afterEach(() => vi.unstubAllGlobals());

const refusal = () =>
  new Response(JSON.stringify({ error: { code: 'already_joined', message: 'You have already joined this challenge.' } }), {
    status: 409,
    headers: { 'content-type': 'application/json' },
  });

describe('acceptChallenge', () => {
  it('retries an accept whose answer was lost with the same key, and starts a new key after an answer', async () => {
    answers = ['lost', refusal(), 'lost'];
    await expect(acceptChallenge('c1', {})).rejects.toMatchObject({ status: 0 });
    await expect(acceptChallenge('c1', {})).rejects.toBeInstanceOf(ApiError);
    await expect(acceptChallenge('c1', {})).rejects.toMatchObject({ status: 0 });
    expect(keys.every((key) => key !== null && key.length > 0)).toBe(true);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('keeps the key after a gateway error (the server may have taken the join), drops it after a refusal', async () => {
    const gateway = () => new Response('<html>Bad gateway</html>', { status: 502 });
    answers = [gateway(), refusal(), 'lost'];
    await expect(acceptChallenge('c4', {})).rejects.toMatchObject({ status: 502 });
    await expect(acceptChallenge('c4', {})).rejects.toMatchObject({ status: 409 });
    await expect(acceptChallenge('c4', {})).rejects.toMatchObject({ status: 0 });
    expect(keys[1]).toBe(keys[0]);
    expect(keys[2]).not.toBe(keys[1]);
  });

  it('keeps each challenge’s key apart', async () => {
    answers = ['lost', 'lost'];
    await expect(acceptChallenge('c2', {})).rejects.toMatchObject({ status: 0 });
    await expect(acceptChallenge('c3', {})).rejects.toMatchObject({ status: 0 });
    expect(keys[0]).not.toBe(keys[1]);
  });
});
