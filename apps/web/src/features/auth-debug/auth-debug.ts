// Pure helpers of /auth-debug: what the access token says, how long is left.

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
    const json = atob(
      body
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(body.length / 4) * 4, '='),
    );
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
