import { Link } from 'react-router';
import { PlusCircle, Store } from 'lucide-react';
import { LIVE_ARENA } from '@versus/domain';
import { Button } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';

/** An empty list's next step: the marketplace, or for a virtual account (no marketplace) the wizard. */
export function FindAMatchButton() {
  const { isVirtual } = useAuth();
  return (
    <Button size="sm" asChild data-testid="find-a-match">
      {isVirtual ? (
        <Link to="/create-challenge">
          <PlusCircle className="size-4" aria-hidden />
          {LIVE_ARENA.createChallenge}
        </Link>
      ) : (
        <Link to="/marketplace">
          <Store className="size-4" aria-hidden />
          {LIVE_ARENA.browseChallenges}
        </Link>
      )}
    </Button>
  );
}
