// /auth-debug shows the app's one backend poll (app/connectivity.ts) instead of polling again.
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { checkBackend } from '../../app/connectivity.ts';
import AuthDebugPage from './AuthDebugPage.tsx';

vi.mock('../auth/use-auth.ts', () => ({ useAuth: () => ({ status: 'unauthenticated', user: null, error: null }) }));
vi.mock('../auth/session-store.ts', () => ({ authStore: { getToken: () => null }, refreshSession: async () => null }));
vi.mock('../../realtime/react.tsx', () => ({ useRealtimeStatus: () => 'idle' }));

let calls = 0;
let answer: () => Promise<Response>;

beforeEach(() => {
  calls = 0;
  answer = async () => new Response('{}', { status: 200 });
  vi.stubGlobal('navigator', { onLine: true });
  vi.stubGlobal('fetch', (url: string) => {
    expect(url).toBe('/api/health');
    calls++;
    return answer();
  });
});
afterEach(() => vi.unstubAllGlobals());

describe('AuthDebugPage backend check', () => {
  it('shows the result of the app poll', async () => {
    await checkBackend();
    expect(calls).toBe(1);
    const html = renderToString(<AuthDebugPage />);
    expect(html).toMatch(/data-testid="health-result"[^>]*>Backend connected/);
    expect(html).toContain('Check now');
    expect(html).toMatch(/Backend \(app\)<\/dt><dd[^>]*>up</);
  });

  it('shows a failed check from the same poll', async () => {
    answer = async () => new Response('{}', { status: 503 });
    await checkBackend();
    const html = renderToString(<AuthDebugPage />);
    expect(html).toMatch(/data-testid="health-result"[^>]*>HTTP 503/);
  });

  it('sends one request when "Check now" meets a poll under way', async () => {
    let release = () => {};
    answer = () => new Promise((resolve) => (release = () => resolve(new Response('{}', { status: 200 }))));
    const poll = checkBackend();
    const checkNow = checkBackend();
    expect(renderToString(<AuthDebugPage />)).toContain('aria-busy="true"');
    release();
    expect(await Promise.all([poll, checkNow])).toEqual(['up', 'up']);
    expect(calls).toBe(1);
  });
});
