import type { ReactNode } from 'react';
import { useParams, useSearchParams } from 'react-router';
import {
  BadgeCheck,
  Bug,
  Eye,
  Flag,
  Gamepad2,
  KeyRound,
  Link2,
  MessageSquareText,
  PlusCircle,
  Scale,
  Share2,
  ShieldCheck,
  Store,
  Swords,
  Trophy,
  UserCog,
  Users,
  Wallet,
} from 'lucide-react';
import PlaceholderPage from './PlaceholderPage.tsx';

interface Screen {
  title: string;
  description: string;
  icon: ReactNode;
}

export const SCREENS = {
  join: { title: 'Join a Game', description: 'Enter a private room or accept a challenge from its code.', icon: <KeyRound aria-hidden /> },
  share: { title: 'Share', description: 'Share challenges and results with your friends.', icon: <Share2 aria-hidden /> },
  handleProtocol: { title: 'Open Link', description: 'Open Versus links from other apps.', icon: <Link2 aria-hidden /> },
  marketplace: { title: 'Marketplace', description: 'Browse open challenges and accept one to play.', icon: <Store aria-hidden /> },
  marketplaceCreate: { title: 'Create a Challenge', description: 'Set the game and stake and post it to the marketplace.', icon: <PlusCircle aria-hidden /> },
  createChallenge: { title: 'Create a Challenge', description: 'Choose a game, set the stakes, schedule and launch.', icon: <PlusCircle aria-hidden /> },
  matches: { title: 'My Matches', description: 'Your upcoming, live and past matches, results and disputes.', icon: <Swords aria-hidden /> },
  liveArena: { title: 'Live Arena', description: 'Play your matches live in the browser.', icon: <Gamepad2 aria-hidden /> },
  leaderboards: { title: 'Leaderboards', description: 'The top players by wins, streak and rank.', icon: <Trophy aria-hidden /> },
  spectate: { title: 'Spectate', description: 'Watch a live match move by move.', icon: <Eye aria-hidden /> },
  wallet: { title: 'Wallet', description: 'Your balance, escrow and every transaction.', icon: <Wallet aria-hidden /> },
  profile: { title: 'Profile Settings', description: 'Your player card, avatar, stats and preferences.', icon: <UserCog aria-hidden /> },
  social: { title: 'Social', description: 'Friends, followers and who is online.', icon: <Users aria-hidden /> },
  verification: { title: 'Verification', description: 'Link your gaming accounts and verify your identity.', icon: <BadgeCheck aria-hidden /> },
  admin: { title: 'Admin Dashboard', description: 'Players, challenges, matches and platform health.', icon: <ShieldCheck aria-hidden /> },
  adminDisputes: { title: 'Disputes', description: 'Review disputed matches and settle them.', icon: <Flag aria-hidden /> },
  adminDisputesEnhanced: { title: 'Dispute Center', description: 'Evidence, both reports and a decision for each dispute.', icon: <Scale aria-hidden /> },
  adminBetaFeedback: { title: 'Beta Feedback', description: 'What beta players are telling us.', icon: <MessageSquareText aria-hidden /> },
  authDebug: { title: 'Auth Debug', description: 'Session and token diagnostics.', icon: <Bug aria-hidden /> },
} satisfies Record<string, Screen>;

export type ScreenId = keyof typeof SCREENS;

/** The placeholder for one route, with what its URL carries (codes, ids, query). */
export default function PlaceholderScreen({ screen }: { screen: ScreenId }) {
  const params = useParams();
  const [search] = useSearchParams();
  const { title, description, icon } = SCREENS[screen];
  const details: { label: string; value: string }[] = [];
  if (params.roomCode) details.push({ label: 'Room code', value: params.roomCode.toUpperCase() });
  if (params.code) details.push({ label: 'Challenge code', value: params.code.toUpperCase() });
  if (params.matchId) details.push({ label: 'Match', value: params.matchId });
  const match = search.get('match');
  if (screen === 'liveArena' && match) details.push({ label: 'Match', value: match });
  return <PlaceholderPage title={title} description={description} icon={icon} details={details} />;
}
