import type { GatePageProps } from '../features/gate/GatePage.tsx';
import type { LandingPageProps } from '../features/landing/LandingPage.tsx';
import { lazyPage } from './lazy-page.tsx';

// Every screen is its own chunk, so the first page a visitor sees carries only its own code.

export const pages = {
  gate: lazyPage<GatePageProps>(() => import('../features/gate/GatePage.tsx').then((m) => ({ default: m.GatePage }))),
  landing: lazyPage<LandingPageProps>(() => import('../features/marketplace/FeaturedLanding.tsx')),
  wallet: lazyPage(() => import('../features/wallet/WalletPage.tsx')),
  marketplace: lazyPage(() => import('../features/marketplace/MarketplacePage.tsx')),
  createChallenge: lazyPage(() => import('../features/challenges/CreateChallengePage.tsx')),
  liveArena: lazyPage(() => import('../features/arena/LiveArenaPage.tsx')),
  spectate: lazyPage(() => import('../features/spectate/SpectatePage.tsx')),
  join: lazyPage<{ kind: 'room' | 'challenge' }>(() => import('../features/join/JoinPage.tsx')),
  share: lazyPage<{ mode: 'share' | 'protocol' }>(() => import('../features/join/SharePage.tsx')),
  matches: lazyPage(() => import('../features/matches/MatchesPage.tsx')),
  admin: lazyPage(() => import('../features/admin/AdminDashboardPage.tsx')),
  adminDisputes: lazyPage<{ enhanced?: boolean }>(() => import('../features/admin/AdminDisputesPage.tsx')),
  notificationPreferences: lazyPage(() => import('../features/notifications/NotificationPreferencesPage.tsx')),
  profile: lazyPage(() => import('../features/profile/ProfilePage.tsx')),
  leaderboards: lazyPage(() => import('../features/leaderboards/LeaderboardsPage.tsx')),
  tournaments: lazyPage(() => import('../features/tournaments/TournamentsPage.tsx')),
  tournament: lazyPage(() => import('../features/tournaments/TournamentPage.tsx')),
  createTournament: lazyPage(() => import('../features/tournaments/CreateTournamentPage.tsx')),
  social: lazyPage(() => import('../features/social/SocialPage.tsx')),
  verification: lazyPage(() => import('../features/verification/VerificationPage.tsx')),
  adminBetaFeedback: lazyPage(() => import('../features/feedback/AdminBetaFeedbackPage.tsx')),
  authDebug: lazyPage(() => import('../features/auth-debug/AuthDebugPage.tsx')),
  notFound: lazyPage(() => import('./NotFoundPage.tsx')),
};

export type PageId = keyof typeof pages;

/** Where a signed-in player usually goes next from each screen (first match of the path wins). */
const NEXT: [prefix: string, next: PageId[]][] = [
  ['/marketplace/create', ['marketplace', 'liveArena']],
  ['/create-challenge', ['marketplace', 'liveArena']],
  ['/marketplace', ['createChallenge', 'liveArena']],
  ['/live-arena', ['matches', 'marketplace']],
  ['/spectate', ['liveArena']],
  ['/matches', ['liveArena', 'leaderboards']],
  ['/leaderboards', ['profile', 'matches']],
  ['/tournaments', ['tournament', 'liveArena']],
  ['/profile', ['leaderboards', 'matches']],
  ['/social', ['createChallenge', 'profile']],
  ['/verification', ['profile', 'createChallenge']],
  ['/settings', ['profile']],
  ['/admin/disputes', ['admin']],
  ['/admin', ['adminDisputes', 'adminBetaFeedback']],
];

/** SPEC §2: after 2 s, the screens a visitor is likely to open next from the current route. */
export function likelyNext(pathname: string, signedIn: boolean): PageId[] {
  if (!signedIn) return ['gate'];
  if (pathname === '/') return ['marketplace', 'liveArena', 'matches'];
  return NEXT.find(([prefix]) => pathname === prefix || pathname.startsWith(`${prefix}/`))?.[1] ?? ['landing', 'marketplace'];
}
