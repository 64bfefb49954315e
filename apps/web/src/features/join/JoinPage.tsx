// /join-room/{roomCode} and /join-challenge/{code} (SPEC §2): one public join screen; the code stays
// in the address so it survives the sign-in modal.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { AlertTriangle, Home, KeyRound, LogIn, UserPlus } from 'lucide-react';
import { CHALLENGE, ROOMS, ROOM_SCREENS, type Currency } from '@versus/domain';
import { isWebGame } from '@versus/domain/catalogue';
import { findChallengeByCode, acceptChallenge } from '../challenges/challenges.api.ts';
import { normalizeRoomCode } from '@versus/domain/rooms';
import { formatMoney, toMinor } from '@versus/domain/money';
import { requestJson } from '../../api/index.ts';
import { challengeResponseSchema } from '@versus/domain/challenges';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Button, Card, Spinner, cn } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useAuthDialogs } from '../auth/auth-dialogs.tsx';
import { joinRoom, previewRoom, roomKeys } from '../rooms/rooms.api.ts';
import { roomErrorMessage } from '../rooms/room-errors.ts';
import { JoinCodeForm } from '../rooms/JoinCodeForm.tsx';
import type { JoinKind } from './join-target.ts';

const WALLET_KEY = ['wallet'] as const;

/** What the screen shows, the same for a room and a challenge. */
interface Invite {
  code: string;
  gameName: string;
  amount: string;
  amountLabel: string;
  creator: string;
  message: string | null;
  status: string;
  open: boolean;
  /** The challenge's id (accept needs it). */
  challengeId: string | null;
}

const money = (units: number, currency: Currency) => formatMoney(toMinor(units), currency).replace(/\.00( VT)?$/, '$1');

async function loadInvite(kind: JoinKind, code: string, signal: AbortSignal): Promise<Invite> {
  if (kind === 'room') {
    const room = await previewRoom(code, signal);
    return {
      code: room.roomCode,
      gameName: room.gameName,
      amount: money(room.betTier, room.currency),
      amountLabel: ROOM_SCREENS.bet,
      creator: room.creator.displayName || room.creator.username,
      message: room.message,
      status: room.status === 'waiting_for_player' ? ROOM_SCREENS.statusWaiting : ROOM_SCREENS.statusClosed,
      open: room.status === 'waiting_for_player',
      challengeId: null,
    };
  }
  // Public: no token, so a signed-out visitor's preview never touches the session.
  const { challenge } = await requestJson(`/api/challenges/code/${encodeURIComponent(code)}`, challengeResponseSchema, { signal });
  return {
    code: challenge.code ?? code,
    gameName: challenge.gameName,
    amount: money(challenge.stake, challenge.currency),
    amountLabel: ROOM_SCREENS.stake,
    creator: challenge.creator.displayName || challenge.creator.username,
    message: challenge.description,
    status: challenge.status === 'open' ? ROOM_SCREENS.statusOpen : ROOM_SCREENS.statusClosed,
    open: challenge.status === 'open',
    challengeId: challenge.id,
  };
}

export default function JoinPage({ kind }: { kind: JoinKind }) {
  const params = useParams();
  const raw = (kind === 'room' ? params.roomCode : params.code) ?? '';
  const checked = normalizeRoomCode(raw);
  const code = checked.ok ? checked.code : null;
  useDocumentTitle(ROOM_SCREENS.joinTitle);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { isAuthenticated, isLoading } = useAuth();
  const dialogs = useAuthDialogs();
  const [joinError, setJoinError] = useState<string | null>(null);

  const invite = useQuery({
    queryKey: [...roomKeys.preview(code ?? ''), kind],
    queryFn: ({ signal }) => loadInvite(kind, code ?? '', signal),
    enabled: code !== null,
    retry: false,
  });

  const join = useMutation({
    mutationFn: async (): Promise<string> => {
      if (kind === 'room') return (await joinRoom(code ?? '')).redirectTo;
      const found = invite.data?.challengeId ? invite.data : null;
      const id = found?.challengeId ?? (await findChallengeByCode(code ?? '')).id;
      const result = await acceptChallenge(id, { code: code ?? '' });
      toast.success(result.message);
      if (!result.match) return '/matches';
      return isWebGame(result.match.gameType)
        ? `/live-arena?match=${encodeURIComponent(result.match.id)}`
        : `/matches?highlight=${encodeURIComponent(result.match.id)}`;
    },
    onSuccess: (to) => {
      setJoinError(null);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
      void queryClient.invalidateQueries({ queryKey: ['arena'] });
      navigate(to, { replace: true });
    },
    onError: (failure) => {
      const text = roomErrorMessage(failure, kind === 'room' ? ROOMS.joinFailed : CHALLENGE.acceptFailed);
      setJoinError(text);
      toast.error(text);
    },
  });

  // Signed in through the modals on this screen: the join completes by itself, once.
  const wasSignedOut = useRef(false);
  const autoJoined = useRef(false);
  useEffect(() => {
    if (isLoading) return;
    if (!isAuthenticated) {
      wasSignedOut.current = true;
      return;
    }
    if (wasSignedOut.current && !autoJoined.current && invite.data?.open) {
      autoJoined.current = true;
      dialogs.close();
      join.mutate();
    }
  }, [isAuthenticated, isLoading, invite.data, join, dialogs]);

  let body: ReactNode;
  if (kind === 'room' && !raw) {
    // /join-room with no code in the address: ask for it.
    body = (
      <div className="grid gap-4">
        <JoinCodeForm />
        <BackHome />
      </div>
    );
  } else if (!code) {
    body = <Problem message={kind === 'room' ? ROOMS.codeLength : CHALLENGE.invalidCode} />;
  } else if (invite.isPending) {
    body = (
      <div className="flex justify-center py-12">
        <Spinner label={ROOM_SCREENS.joinTitle} />
      </div>
    );
  } else if (invite.error) {
    body = (
      <div className="grid gap-5">
        <Problem message={previewErrorMessage(kind, invite.error)} />
        {kind === 'room' && <JoinCodeForm hint={false} className="border-t border-border pt-4" />}
      </div>
    );
  } else {
    const data = invite.data;
    body = (
      <div className="grid gap-5">
        <div className="text-center">
          <p className="text-xs font-semibold tracking-wide text-muted uppercase">{ROOM_SCREENS.code}</p>
          <p className="font-mono text-3xl font-black tracking-[0.2em] sm:text-4xl" data-testid="join-code">
            {data.code}
          </p>
          <h2 className="mt-2 text-lg font-bold text-balance">
            {kind === 'room' ? ROOM_SCREENS.roomHeading(data.creator) : ROOM_SCREENS.challengeHeading(data.creator)}
          </h2>
        </div>
        <dl className="grid grid-cols-2 gap-3 text-sm">
          <Detail label={ROOM_SCREENS.game} value={data.gameName} />
          <Detail label={data.amountLabel} value={data.amount} />
          <Detail label={ROOM_SCREENS.creator} value={data.creator} />
          <Detail
            label={ROOM_SCREENS.status}
            value={
              <span className={cn('inline-flex items-center gap-1.5', data.open ? 'text-success' : 'text-muted')}>
                <span
                  className={cn('size-2 shrink-0 rounded-full', data.open ? 'animate-live-pulse bg-success' : 'bg-muted')}
                  aria-hidden
                />
                {data.status}
              </span>
            }
          />
        </dl>
        {data.message && (
          <blockquote className="rounded-xl border border-border bg-bg/40 px-4 py-3 text-sm break-words text-fg/90">
            “{data.message}”
          </blockquote>
        )}
        {joinError && (
          <div
            role="alert"
            className="grid gap-2 rounded-xl border border-danger/40 bg-danger/10 px-4 py-3 text-sm text-danger"
            data-testid="join-error"
          >
            <p className="flex items-start gap-2">
              <AlertTriangle className="mt-0.5 size-4 shrink-0" aria-hidden />
              {joinError}
            </p>
          </div>
        )}
        {isLoading ? (
          <div className="flex justify-center">
            <Spinner />
          </div>
        ) : !isAuthenticated ? (
          <div className="grid gap-3" data-testid="join-signed-out">
            <p className="text-center text-sm text-muted">{ROOM_SCREENS.signInToJoin}</p>
            <div className="grid gap-2 sm:grid-cols-2">
              <Button onClick={dialogs.openRegister}>
                <UserPlus className="size-4" aria-hidden />
                {ROOM_SCREENS.createAccount}
              </Button>
              <Button variant="outline" onClick={dialogs.openSignIn}>
                <LogIn className="size-4" aria-hidden />
                {ROOM_SCREENS.signIn}
              </Button>
            </div>
          </div>
        ) : (
          <Button size="lg" loading={join.isPending} disabled={!data.open} onClick={() => join.mutate()} data-testid="join-button">
            {join.isPending ? ROOM_SCREENS.joining : kind === 'room' ? ROOM_SCREENS.joinRoom : ROOM_SCREENS.acceptChallenge}
          </Button>
        )}
        <BackHome />
      </div>
    );
  }

  return (
    <div className="mx-auto grid w-full max-w-md gap-4 px-4 py-8 sm:py-14" data-testid="join-page">
      <div className="flex items-center justify-center gap-2">
        <KeyRound className="size-5 text-accent" aria-hidden />
        <h1 className="text-2xl font-black tracking-tight">{ROOM_SCREENS.joinTitle}</h1>
      </div>
      <Card className="p-5 sm:p-6">{body}</Card>
    </div>
  );
}

/** The server's words as they are ("Room not found", "This room has expired. …"). */
const previewErrorMessage = (kind: JoinKind, error: unknown): string =>
  roomErrorMessage(error, kind === 'room' ? ROOMS.notFoundJoin : ROOM_SCREENS.notFoundChallenge);

function Detail({ label, value }: { label: string; value: ReactNode }) {
  return (
    <div className="min-w-0 rounded-xl border border-border bg-bg/40 px-3 py-2">
      <dt className="text-[0.7rem] font-semibold tracking-wide text-muted uppercase">{label}</dt>
      <dd className="mt-0.5 font-semibold break-words">{value}</dd>
    </div>
  );
}

/** A refusal or a dead end, with the way back home (unless the caller places it itself). */
export function Problem({ message, home = true }: { message: string; home?: boolean }) {
  return (
    <div className="grid gap-4 text-center" data-testid="join-problem">
      <AlertTriangle className="mx-auto size-10 text-warning" aria-hidden />
      <p role="alert" className="text-base font-semibold">
        {message}
      </p>
      {home && <BackHome />}
    </div>
  );
}

export function BackHome() {
  return (
    <Button variant="ghost" asChild>
      <Link to="/">
        <Home className="size-4" aria-hidden />
        {ROOM_SCREENS.backHome}
      </Link>
    </Button>
  );
}
