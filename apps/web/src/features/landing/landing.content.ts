import type { LucideIcon } from 'lucide-react';
import { Gamepad2, ShieldCheck, Zap } from 'lucide-react';
import { MINOR_UNITS } from '@versus/domain';

export type Tone = 'accent' | 'accent-2' | 'success' | 'warning';

export interface FeatureCard {
  title: string;
  description: string;
  icon: LucideIcon;
  tone: Tone;
}

/** The three selling points of SPEC §1, each with title, description, icon and colour. */
export const FEATURE_CARDS: FeatureCard[] = [
  {
    title: 'Competitive Gaming',
    description: 'Go head-to-head in chess, checkers, ludo, FIFA, Valorant and more. Every match is skill against skill.',
    icon: Gamepad2,
    tone: 'accent',
  },
  {
    title: 'Secure Escrow',
    description: "Both stakes are locked in escrow before play starts, so the pot is always there when it's won.",
    icon: ShieldCheck,
    tone: 'accent-2',
  },
  {
    title: 'Instant Payouts',
    description: 'The winner takes the full stake the moment the result is in. No platform fee, ever.',
    icon: Zap,
    tone: 'warning',
  },
];

export interface GuideStep {
  number: string;
  title: string;
  description: string;
}

/** The three-step guide of SPEC §1. */
export const GUIDE_STEPS: GuideStep[] = [
  {
    number: '01',
    title: 'Create or Accept',
    description: 'Post a challenge with your game and stake, or accept an open one from the marketplace.',
  },
  {
    number: '02',
    title: 'Compete & Play',
    description: 'Both stakes lock in escrow and the match begins. Play your best — it’s one on one.',
  },
  {
    number: '03',
    title: 'Win & Earn',
    description: 'The winner takes the full stake, with rewards claimed on match completion.',
  },
];

/** A card in the Featured Challenges list; SPEC keeps this list static and local. */
export interface FeaturedChallenge {
  id: string;
  game: string;
  title: string;
  platform: string;
  /** Stake in minor units (cents), like every amount in the domain; the payout is twice this. */
  stake: number;
}

/** The two hard-coded samples of SPEC §1. */
export const SAMPLE_FEATURED_CHALLENGES: FeaturedChallenge[] = [
  { id: 'featured-fortnite', game: 'Fortnite', title: 'Zone Wars 1v1', platform: 'PC', stake: 500 * MINOR_UNITS },
  { id: 'featured-valorant', game: 'Valorant', title: 'Aim Duel 1v1', platform: 'PC', stake: 300 * MINOR_UNITS },
];

export const LANDING_TEXT = {
  eyebrow: 'Head-to-head · Staked · Live',
  intro: 'Stake credits on head-to-head challenges. Your stake is locked in escrow, you play the match, and the winner takes it all.',
  browseChallenges: 'Browse Challenges',
  howItWorks: 'How It Works',
  tournaments: 'Tournaments',
  liveNow: 'Live now',
  statsLabel: 'Platform right now',
  onlinePlayers: 'Players Online',
  activeChallenges: 'Active Challenges',
  prizePool: 'Prize Pool',
  featuresTitle: 'Why players choose Versus',
  featuredTitle: 'Featured Challenges',
  featuredIntro: 'Hand-picked matches waiting for an opponent.',
  viewAll: 'View All Challenges',
  stake: 'Stake',
  payout: 'Payout',
  fee: 'Fee',
  free: 'FREE',
  guideTitle: 'How It Works',
  guideIntro: 'Three steps from challenge to payout.',
} as const;
