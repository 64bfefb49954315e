import { useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { ArrowLeft, Repeat } from 'lucide-react';
import { WIZARD } from '@versus/domain';
import { profileResponseSchema } from '@versus/domain/auth';
import { GAMES } from '@versus/domain/catalogue';
import type { CreateChallengeResponse } from '@versus/domain/challenges';
import { currencyFor } from '@versus/domain/money';
import { api } from '../../api/index.ts';
import { useDocumentTitle } from '../../app/document-title.ts';
import { useAuth } from '../auth/use-auth.ts';
import { ChallengeWizard } from './ChallengeWizard.tsx';
import { draftFromPrefill, parsePrefill } from './wizard.ts';

/** The opponent of a rematch, by id (GET /api/profiles/:id). */
export function useOpponent(opponentId: string | null) {
  return useQuery({
    queryKey: ['profiles', opponentId],
    queryFn: ({ signal }) => api.get(`/api/profiles/${opponentId}`, profileResponseSchema, { signal }).then((r) => r.profile),
    enabled: opponentId !== null,
    staleTime: 60_000,
  });
}

/** /create-challenge and /marketplace/create?game=&amount= (SPEC §2), also a rematch's &opponent=. */
function CreateChallengePage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { user, isVirtual } = useAuth();
  useDocumentTitle('Create a Challenge');
  const prefill = useMemo(() => parsePrefill(params), [params]);
  const start = useMemo(() => draftFromPrefill(prefill, { virtual: isVirtual }), [prefill, isVirtual]);
  const opponent = useOpponent(prefill.opponentId);
  const opponentName = opponent.data ? opponent.data.display_name || opponent.data.username : null;

  if (!user) return null;
  const currency = currencyFor(user.role, user.accountType);
  const home = isVirtual ? '/' : '/marketplace';

  const onCreated = (created: CreateChallengeResponse) => {
    // A public one is in the marketplace now: show it there. A private one shows its code first.
    if (!created.challenge.isPrivate) navigate(`/marketplace?highlight=${created.challenge.id}`);
  };
  const onDone = () => void navigate(home);

  return (
    <div className="mx-auto w-full max-w-3xl px-3 pt-6 pb-16 sm:px-6 sm:pt-10" data-testid="create-challenge-page">
      <Link to={home} className="inline-flex items-center gap-1.5 rounded-lg px-1 text-sm font-semibold text-muted hover:text-fg">
        <ArrowLeft className="size-4" aria-hidden />
        {isVirtual ? 'Home' : 'Marketplace'}
      </Link>
      <h1 className="mt-3 text-3xl font-black sm:text-4xl">Create a Challenge</h1>
      <p className="mt-1 text-sm text-muted sm:text-base">
        Pick a game, set your stake, choose a time. Your stake waits in escrow until the match ends.
      </p>

      {prefill.opponentId && (
        <p
          data-testid="rematch-banner"
          className="mt-5 flex items-center gap-3 rounded-2xl border border-accent/40 bg-accent/10 px-4 py-3 text-sm font-semibold"
        >
          <Repeat className="size-5 shrink-0 text-accent" aria-hidden />
          <span>
            {opponent.isError ? 'Rematch: the opponent could not be loaded.' : WIZARD.rematchAgainst(opponentName ?? '…')}
            {prefill.game && <span className="font-normal text-muted"> · {GAMES[prefill.game].name}</span>}
          </span>
        </p>
      )}

      <div className="mt-6">
        <ChallengeWizard
          key={params.toString()}
          initialDraft={start.draft}
          initialStep={start.step}
          currency={currency}
          virtual={isVirtual}
          rematchName={opponentName}
          onCreated={onCreated}
          onDone={onDone}
        />
      </div>
    </div>
  );
}

export default CreateChallengePage;
