// /spectate/:matchId: a live, read-only view of a match (SPEC §2), holding no secret.
import { useParams } from 'react-router';
import { Eye } from 'lucide-react';
import { LIVE_ARENA } from '@versus/domain';
import { useDocumentTitle } from '../../app/document-title.ts';
import { MatchScreen } from '../arena/MatchScreen.tsx';

export default function SpectatePage() {
  const { matchId = '' } = useParams();
  useDocumentTitle(LIVE_ARENA.spectating);
  return (
    <div className="mx-auto w-full max-w-6xl px-3 py-5 sm:px-6 sm:py-8 lg:px-8" data-testid="spectate-page">
      <div className="mb-4 flex flex-wrap items-center gap-3 sm:mb-6">
        <Eye className="size-7 text-accent-2" aria-hidden />
        <h1 className="text-2xl font-black tracking-tight sm:text-3xl">{LIVE_ARENA.spectating}</h1>
        <p className="w-full text-sm text-muted sm:w-auto">{LIVE_ARENA.watchLive}</p>
      </div>
      <MatchScreen key={matchId} matchId={matchId} mode="spectator" />
    </div>
  );
}
