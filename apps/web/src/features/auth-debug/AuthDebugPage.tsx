import { useEffect, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { RefreshCw } from 'lucide-react';
import { AUTH, NETWORK } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useTickingClock } from '../../app/clock.ts';
import { checkBackend, useBackendCheck, useConnectivity } from '../../app/connectivity.ts';
import { useRealtimeStatus } from '../../realtime/react.tsx';
import { Badge, Button, Card, cn, type BadgeTone } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { authStore, refreshSession } from '../auth/session-store.ts';
import { formatRemaining, readTokenClaims } from './auth-debug.ts';

const TITLE = 'Auth Debug';
const REALTIME_TONE: Record<string, BadgeTone> = { connected: 'success', connecting: 'warning', reconnecting: 'warning', idle: 'neutral' };

/** /auth-debug, for support: the session, the token's expiry, roles, the realtime socket and the backend. */
export default function AuthDebugPage() {
  useDocumentTitle(TITLE);
  const { status, user, error } = useAuth();
  const now = useTickingClock();
  const token = authStore.getToken();
  const claims = readTokenClaims(token);
  const realtime = useRealtimeStatus();
  const connectivity = useConnectivity();
  const health = useBackendCheck();
  // A fresh result on opening; after that the app's own poll (every 30 s) keeps it current.
  useEffect(() => void checkBackend(), []);
  const [refreshing, setRefreshing] = useState(false);

  const refresh = async () => {
    setRefreshing(true);
    const fresh = await refreshSession();
    setRefreshing(false);
    if (fresh) toast.success('Session refreshed');
    else toast.error(AUTH.refreshFailed);
  };

  const row = (label: string, value: ReactNode) => (
    <div key={label} className="contents">
      <dt className="text-muted">{label}</dt>
      <dd className="min-w-0 font-medium break-words">{value}</dd>
    </div>
  );
  const when = (ms: number | null | undefined) => (ms ? new Date(ms).toLocaleString() : '—');

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="auth-debug">
      <h1 className="text-3xl font-black sm:text-4xl">{TITLE}</h1>
      <p className="mt-1 text-muted">Session and connection details for support. Nothing here is sent anywhere.</p>
      <div className="mt-6 grid gap-4 md:grid-cols-2">
        <Section title="Session">
          {row('Status', <Badge tone={status === 'authenticated' ? 'success' : 'warning'}>{status}</Badge>)}
          {row('User id', <code className="text-xs">{user?.id ?? '—'}</code>)}
          {row('Username', user?.username ?? '—')}
          {row('Email', user?.email ?? '—')}
          {row('Account type', user?.accountType ?? '—')}
          {row('Last sign-in', user?.lastLogin ? new Date(user.lastLogin).toLocaleString() : '—')}
          {row('Auth error', error ?? 'None')}
        </Section>
        <Section
          title="Access token"
          aside={
            <Button size="sm" variant="outline" loading={refreshing} onClick={() => void refresh()}>
              <RefreshCw className="size-4" aria-hidden />
              Refresh session
            </Button>
          }
        >
          {row('Present', token ? `Yes (${token.slice(0, 10)}…)` : 'No')}
          {row('Issued', when(claims?.issuedAt))}
          {row('Expires', when(claims?.expiresAt))}
          {row(
            'Time left',
            claims?.expiresAt ? (
              <span data-testid="token-time-left" className={cn('tabular-nums', claims.expiresAt - now < 5 * 60_000 && 'text-warning')}>
                {formatRemaining(claims.expiresAt - now)}
              </span>
            ) : (
              '—'
            ),
          )}
          {row('Refresh token', 'httpOnly cookie (not readable by the page)')}
        </Section>
        <Section title="Roles">
          {row(
            'Role',
            <Badge tone={user?.role === 'admin' ? 'danger' : user?.role === 'promoter' ? 'cyan' : 'neutral'}>{user?.role ?? '—'}</Badge>,
          )}
          {row('Role in token', claims?.role ?? '—')}
          {row('Promoter status', user ? (user.role === 'promoter' || user.role === 'admin' ? 'Yes (pcredits)' : 'No (credits)') : '—')}
          {row(
            'Verified',
            user ? (
              <span className="flex flex-wrap gap-1">
                {(['xbox', 'playstation', 'steam', 'identity', 'all'] as const).map((k) => (
                  <Badge key={k} tone={user.verified[k] ? 'success' : 'neutral'}>
                    {k}
                  </Badge>
                ))}
              </span>
            ) : (
              '—'
            ),
          )}
        </Section>
        <Section title="Connections">
          {row('Browser', <Badge tone={connectivity.online ? 'success' : 'danger'}>{connectivity.online ? 'Online' : 'Offline'}</Badge>)}
          {row(
            'Realtime socket',
            <Badge tone={REALTIME_TONE[realtime] ?? 'neutral'} data-testid="realtime-status">
              {realtime}
            </Badge>,
          )}
          {row('Backend (app)', connectivity.backend)}
          {row(
            'Backend check',
            health.last ? (
              <span data-testid="health-result" className={health.last.ok ? 'text-success' : 'text-danger'}>
                {health.last.detail}
                {health.last.latencyMs !== null && ` · ${health.last.latencyMs} ms`}
              </span>
            ) : (
              'Checking…'
            ),
          )}
          {row(
            'Last checked',
            health.last
              ? `${new Date(health.last.at).toLocaleTimeString()} (every ${NETWORK.backendCheckMs / 1000} s, ${NETWORK.backendCheckTimeoutMs / 1000} s timeout)`
              : '—',
          )}
          <div className="col-span-2 mt-2">
            <Button size="sm" variant="outline" loading={health.checking} onClick={() => void checkBackend()}>
              Check now
            </Button>
          </div>
        </Section>
      </div>
    </div>
  );
}

function Section({ title, aside, children }: { title: string; aside?: ReactNode; children: ReactNode }) {
  return (
    <Card className="p-4 sm:p-5">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-extrabold">{title}</h2>
        {aside}
      </div>
      <dl className="mt-3 grid grid-cols-[minmax(7rem,auto)_1fr] gap-x-3 gap-y-1.5 text-sm">{children}</dl>
    </Card>
  );
}
