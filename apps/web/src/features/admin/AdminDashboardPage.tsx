import { Link, Navigate } from 'react-router';
import { ADMIN_SCREEN as T } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Card, Spinner } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useAdminLive, useDashboard } from './admin-api.ts';
import { VerificationQueue } from '../verification/VerificationQueue.tsx';

/** /admin: live counts and the ledger audit (admins only; others go home). */
export default function AdminDashboardPage() {
  useDocumentTitle(T.dashboardTitle);
  const { isAdmin } = useAuth();
  const dashboard = useDashboard(isAdmin);
  useAdminLive(isAdmin);
  if (!isAdmin) return <Navigate to="/" replace />;
  const d = dashboard.data;
  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12" data-testid="admin-dashboard">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-3xl font-black sm:text-4xl">{T.dashboardTitle}</h1>
        <div className="flex gap-3 text-sm font-bold">
          <Link className="text-accent hover:underline" to="/admin/disputes">
            {T.disputesTitle}
          </Link>
          <Link className="text-accent hover:underline" to="/admin/disputes/enhanced">
            {T.disputesEnhancedTitle}
          </Link>
          <Link className="text-accent hover:underline" to="/admin/beta-feedback">
            Beta Feedback
          </Link>
        </div>
      </div>
      {dashboard.isError && (
        <p role="alert" className="mt-4 font-bold text-danger">
          {dashboard.error.message}
        </p>
      )}
      {!d ? (
        !dashboard.isError && <Spinner className="mt-8 size-6" />
      ) : (
        <>
          <div className="mt-6 grid grid-cols-2 gap-3 sm:grid-cols-4">
            {[
              [T.users, d.users, 'users'],
              [T.openChallenges, d.openChallenges, 'open-challenges'],
              [T.activeMatches, d.activeMatches, 'active-matches'],
              [T.openDisputes, d.openDisputes, 'open-disputes'],
            ].map(([label, value, id]) => (
              <Card key={String(id)} className="p-4" data-testid={`count-${String(id)}`}>
                <p className="text-xs text-muted uppercase">{label}</p>
                <p className="mt-1 text-2xl font-black tabular-nums">{value}</p>
              </Card>
            ))}
          </div>
          <Card className="mt-4 p-4">
            <p className="text-xs text-muted uppercase">{T.escrowHeld}</p>
            <ul className="mt-1 flex flex-wrap gap-4 font-bold tabular-nums">
              {Object.entries(d.escrowHeld).map(([currency, amount]) => (
                <li key={currency}>
                  {amount} {currency}
                </li>
              ))}
            </ul>
          </Card>
          <Card className="mt-4 p-4" data-testid="ledger-audit">
            <div className="flex items-center gap-2">
              <p className="text-xs text-muted uppercase">{T.audit}</p>
              <Badge tone={d.audit.ok ? 'success' : 'danger'}>{d.audit.ok ? 'OK' : T.auditProblems(d.audit.problems.length)}</Badge>
            </div>
            {d.audit.ok ? (
              <p className="mt-1 text-sm">{T.auditClean}</p>
            ) : (
              <ul className="mt-2 space-y-1 text-sm text-danger">
                {d.audit.problems.map((p, i) => (
                  <li key={i} className="break-words">
                    <span className="font-bold">{p.check}</span>: {p.detail}
                  </li>
                ))}
              </ul>
            )}
          </Card>
        </>
      )}
      <VerificationQueue />
    </div>
  );
}
