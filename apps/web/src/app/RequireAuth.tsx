import { Outlet } from 'react-router';
import { useAuth } from '../features/auth/use-auth.ts';
import { useAuthDialogs } from '../features/auth/auth-dialogs.tsx';
import { CheckingAuth } from './Loading.tsx';
import { pages } from './pages.ts';

/** The sign-in gate in front of every gated route (SPEC §2 Gate behaviour). */
export function RequireAuth() {
  const { status } = useAuth();
  const dialogs = useAuthDialogs();
  if (status === 'loading') return <CheckingAuth />;
  if (status === 'unauthenticated') return <pages.gate onSignIn={dialogs.openSignIn} onCreateAccount={dialogs.openRegister} />;
  return <Outlet />;
}
