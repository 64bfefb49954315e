// Pure helpers of /auth-debug: what the access token says, how long is left, one health check.
import { GENERIC, NETWORK } from '@versus/domain';

export interface TokenClaims {
  subject: string | null;
  role: string | null;
  accountType: string | null;
  /** ms since the epoch */
  issuedAt: number | null;
  expiresAt: number | null;
}

/** The readable claims of a JWT (not verified: the server does that); null when it is not one. */
export function readTokenClaims(token: string | null): TokenClaims | null {
  if (!token) return null;
  const [, body] = token.split('.');
  if (!body) return null;
  try {
    const json = atob(body.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(body.length / 4) * 4, '='));
    const claims = JSON.parse(json) as Record<string, unknown>;
    const seconds = (v: unknown) => (typeof v === 'number' ? v * 1000 : null);
    const text = (v: unknown) => (typeof v === 'string' ? v : null);
    return {
      subject: text(claims.sub),
      role: text(claims.role),
      accountType: text(claims.accountType ?? claims.account_type),
      issuedAt: seconds(claims.iat),
      expiresAt: seconds(claims.exp),
    };
  } catch (error) {
    // Not base64 JSON: show the token as unreadable rather than fail the page.
    if (error instanceof SyntaxError || (error instanceof DOMException && error.name === 'InvalidCharacterError')) return null;
    throw error;
  }
}

/** "54m 07s", "1h 02m", "Expired". */
export function formatRemaining(ms: number): string {
  if (ms <= 0) return 'Expired';
  const total = Math.floor(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}h ${two(m)}m` : `${m}m ${two(s)}s`;
}

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
    return { at, ok: response.ok, latencyMs, status: response.status, detail: response.ok ? 'Backend connected' : `HTTP ${response.status}` };
  } catch (error) {
    const timeout = error instanceof DOMException && error.name === 'TimeoutError';
    return { at, ok: false, latencyMs: null, status: null, detail: timeout ? GENERIC.connectionTimeout : GENERIC.network };
  }
}
