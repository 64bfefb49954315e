// Featured challenges on the landing page come from real open challenges when there are any
// (SPEC §1 keeps two samples otherwise).
import { PLATFORM_LABELS } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';
import { toMinor } from '@versus/domain/money';
import type { FeaturedChallenge } from '../landing/LandingPage.tsx';

export const FEATURED_COUNT = 4;

/** The biggest stakes first (newest on a tie), at most four. */
export function pickFeatured(open: readonly Challenge[], count = FEATURED_COUNT): Challenge[] {
  return [...open]
    .filter((c) => c.status === 'open' && !c.isPrivate)
    .sort((a, b) => b.stake - a.stake || Date.parse(b.createdAt) - Date.parse(a.createdAt))
    .slice(0, count);
}

/** The landing card's shape (stake in minor units). */
export function toFeatured(challenge: Challenge): FeaturedChallenge {
  return {
    id: challenge.id,
    game: challenge.gameName,
    title: challenge.title,
    platform: PLATFORM_LABELS[challenge.platform],
    stake: toMinor(challenge.stake),
  };
}

/** Real ones when there are any; undefined lets the landing page keep its samples. */
export function featuredFrom(open: readonly Challenge[] | undefined): FeaturedChallenge[] | undefined {
  if (!open) return undefined;
  const picked = pickFeatured(open);
  return picked.length > 0 ? picked.map(toFeatured) : undefined;
}
