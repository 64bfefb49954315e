import type { LucideIcon } from 'lucide-react';
import { Gift, Radio, Trophy, Users } from 'lucide-react';

export type HighlightTone = 'accent' | 'accent-2' | 'warning' | 'success';

export interface GateHighlight {
  id: string;
  title: string;
  tagline: string;
  description: string;
  icon: LucideIcon;
  tone: HighlightTone;
  chips: string[];
}

/** The four carousel slides of the gate page (SPEC §1). */
export const GATE_HIGHLIGHTS: GateHighlight[] = [
  {
    id: 'multiplayer',
    title: 'Multiplayer',
    tagline: 'Head-to-head, skill on skill',
    description: 'Challenge real players one-on-one in chess, checkers, ludo, tic-tac-toe and your favourite console titles.',
    icon: Users,
    tone: 'accent',
    chips: ['1v1 matches', 'Best of 3', 'PC · Console · Mobile'],
  },
  {
    id: 'tournaments',
    title: 'Tournaments',
    tagline: 'Climb the ranks',
    description: 'Take on the best, stack wins and streaks, and rise up the leaderboards to prove who is on top.',
    icon: Trophy,
    tone: 'warning',
    chips: ['Leaderboards', 'Win streaks', 'Global rank'],
  },
  {
    id: 'live-arena',
    title: 'Live Arena',
    tagline: 'Play in real time',
    description: 'Jump into live matches the moment an opponent joins, or spectate the action as it happens.',
    icon: Radio,
    tone: 'accent-2',
    chips: ['Real-time moves', 'Spectator mode', 'Instant results'],
  },
  {
    id: 'rewards',
    title: 'Rewards',
    tagline: 'Winner takes the stake',
    description: 'Stakes are locked in escrow before play starts, and the winner takes the full pot — no platform fee.',
    icon: Gift,
    tone: 'success',
    chips: ['Secure escrow', '2× payout', 'Fee: FREE'],
  },
];

export const GATE_TEXT = {
  eyebrow: 'Now in beta',
  intro: 'Stake credits on head-to-head challenges, play the match, and the winner takes it all.',
  highlightsLabel: 'Platform highlights',
  getStarted: 'Get Started',
  getStartedText: 'Create your free account in under a minute, or sign in to pick up where you left off.',
  createAccount: 'Create Account',
  signIn: 'Sign In',
  adults: 'For players aged 18 and over.',
  pause: 'Pause highlights',
  play: 'Play highlights',
  showSlide: (n: number, title: string) => `Show slide ${n}: ${title}`,
  slideOf: (n: number, count: number) => `${n} of ${count}`,
} as const;
