import { useQuery } from '@tanstack/react-query';
import { LandingPage, type LandingPageProps } from '../landing/LandingPage.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { challengeKeys, fetchOpenChallenges } from '../challenges/challenges.api.ts';
import { featuredFrom } from './featured.ts';

/** The landing page with real open challenges as its featured ones when there are any (SPEC §1). */
function FeaturedLanding({ featured, ...props }: LandingPageProps) {
  const { isVirtual } = useAuth();
  // The marketplace's unfiltered list: one cache entry for both screens. Virtual accounts do not
  // use the marketplace (SPEC §6), so they keep the samples.
  const open = useQuery({
    queryKey: challengeKeys.open({}),
    queryFn: ({ signal }) => fetchOpenChallenges({}, signal),
    enabled: !isVirtual && featured === undefined,
    staleTime: 15_000,
  });
  return <LandingPage {...props} featured={featured ?? (isVirtual ? undefined : featuredFrom(open.data))} />;
}

export default FeaturedLanding;
