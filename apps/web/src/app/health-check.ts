// One backend health check (GET /api/health): the app's connectivity poll and /auth-debug show it.
import { GENERIC, NETWORK } from '@versus/domain';

export interface HealthResult {
  at: number;
  ok: boolean;
  latencyMs: number | null;
  status: number | null;
  detail: string;
}

/** GET /api/health with SPEC §9's 5 s timeout. */
export async function checkHealth(fetchFn: typeof fetch = fetch, now: () => number = () => performance.now()): Promise<HealthResult> {
  const started = now();
  const at = Date.now();
  try {
    const response = await fetchFn('/api/health', { cache: 'no-store', signal: AbortSignal.timeout(NETWORK.backendCheckTimeoutMs) });
    const latencyMs = Math.round(now() - started);
    return {
      at,
      ok: response.ok,
      latencyMs,
      status: response.status,
      detail: response.ok ? 'Backend connected' : `HTTP ${response.status}`,
    };
  } catch (error) {
    const timeout = error instanceof DOMException && error.name === 'TimeoutError';
    return { at, ok: false, latencyMs: null, status: null, detail: timeout ? GENERIC.connectionTimeout : GENERIC.network };
  }
}
