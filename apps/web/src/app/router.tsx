import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { AppLayout } from './AppLayout.tsx';
import { RouteError } from './RouteError.tsx';
import { RequireAuth } from './RequireAuth.tsx';
import { pages } from './pages.ts';

/** /live-arena/match/:matchId is the legacy address of /live-arena?match=:matchId. */
function LegacyArenaRedirect() {
  const { matchId = '' } = useParams();
  return <Navigate replace to={`/live-arena?match=${encodeURIComponent(matchId)}`} />;
}

/** Every route of SPEC §2. */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    errorElement: <RouteError />,
    children: [
      // Public: no sign-in.
      { path: 'join-room', element: <pages.join kind="room" /> },
      { path: 'join-room/:roomCode', element: <pages.join kind="room" /> },
      { path: 'join-challenge/:code', element: <pages.join kind="challenge" /> },
      { path: 'share', element: <pages.share mode="share" /> },
      { path: 'handle-protocol', element: <pages.share mode="protocol" /> },
      // Gated: the sign-in gate until signed in.
      {
        element: <RequireAuth />,
        children: [
          { index: true, element: <pages.landing /> },
          { path: 'marketplace', element: <pages.marketplace /> },
          { path: 'marketplace/create', element: <pages.createChallenge /> },
          { path: 'create-challenge', element: <pages.createChallenge /> },
          { path: 'matches', element: <pages.matches /> },
          { path: 'live-arena', element: <pages.liveArena /> },
          { path: 'live-arena/match/:matchId', element: <LegacyArenaRedirect /> },
          { path: 'leaderboards', element: <pages.leaderboards /> },
          { path: 'tournaments', element: <pages.tournaments /> },
          { path: 'tournaments/create', element: <pages.createTournament /> },
          { path: 'tournaments/:id', element: <pages.tournament /> },
          { path: 'spectate/:matchId', element: <pages.spectate /> },
          { path: 'wallet', element: <pages.wallet /> },
          { path: 'settings/notifications', element: <pages.notificationPreferences /> },
          { path: 'profile', element: <pages.profile /> },
          { path: 'social', element: <pages.social /> },
          { path: 'verification', element: <pages.verification /> },
          { path: 'admin', element: <pages.admin /> },
          { path: 'admin/disputes', element: <pages.adminDisputes /> },
          { path: 'admin/disputes/enhanced', element: <pages.adminDisputes enhanced /> },
          { path: 'admin/beta-feedback', element: <pages.adminBetaFeedback /> },
          { path: 'auth-debug', element: <pages.authDebug /> },
        ],
      },
      { path: '*', element: <pages.notFound /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
