// The live arena's private-room panel (SPEC §3); follows `room:{code}` so the creator is taken into
// the match the moment a friend joins.
import { useEffect, useId, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { Copy, Link2, Lock, Share2, X } from 'lucide-react';
import { ERROR_BOUNDARY, ROOMS, ROOM_SCREENS } from '@versus/domain';
import { currencyFor, formatMoney, toMinor } from '@versus/domain/money';
import {
  ROOM_BET_TIERS,
  ROOM_GAMES,
  ROOM_LIMITS,
  gameName,
  liveArenaPath,
  type Room,
  type RoomBetTier,
  type RoomJoinedEvent,
} from '@versus/domain/rooms';
import type { GameId } from '@versus/domain/catalogue';
import type { Currency } from '@versus/domain';
import { Badge, Button, Card, Spinner, cn } from '../../ui/index.ts';
import { snapshotMayBeBehind, useRealtime, type RealtimeUpdate } from '../../realtime/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { ChipGroup } from '../challenges/ChipGroup.tsx';
import { cancelRoom, createRoom, fetchMyRoom, roomKeys, roomLink } from './rooms.api.ts';
import { roomErrorMessage } from './room-errors.ts';
import { JoinCodeForm } from './JoinCodeForm.tsx';
import { canShare, copyText, shareRoom } from './room-share.ts';

const WALLET_KEY = ['wallet'] as const;

export const betLabel = (tier: number, currency: Currency): string => formatMoney(toMinor(tier), currency).replace(/\.00( VT)?$/, '$1');

export function PrivateRoomPanel({ className }: { className?: string }) {
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const mineKey = roomKeys.mine(user?.id ?? '');
  const mine = useQuery({ queryKey: mineKey, queryFn: ({ signal }) => fetchMyRoom(signal), enabled: Boolean(user) });
  const room = mine.data ?? null;

  // Joined: toast once and go to the match (the event arrives on room:{code} and user:{id}).
  const handled = useRef<string | null>(null);
  const onUpdate = (update: RealtimeUpdate) => {
    if (snapshotMayBeBehind(update)) {
      void queryClient.invalidateQueries({ queryKey: mineKey });
      return;
    }
    if (update.kind !== 'event') return;
    if (update.type === 'room.joined') {
      const event = update.payload as RoomJoinedEvent;
      if (!event?.matchId || handled.current === event.matchId) return;
      if (room && event.roomCode !== room.roomCode) return;
      handled.current = event.matchId;
      toast.success(ROOM_SCREENS.joined(event.username));
      queryClient.setQueryData(mineKey, null);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
      void queryClient.invalidateQueries({ queryKey: ['arena'] });
      navigate(liveArenaPath(event.matchId));
    } else if (update.type === 'room.cancelled' || update.type === 'room.expired') {
      if (!room) return;
      if (update.type === 'room.expired') toast.info(ROOM_SCREENS.closedExpired);
      queryClient.setQueryData(mineKey, null);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
    }
  };
  useRealtime(room ? `room:${room.roomCode}` : null, onUpdate);
  useRealtime(room && user ? `user:${user.id}` : null, onUpdate);

  if (!user) return null;
  const currency = currencyFor(user.role, user.accountType);

  return (
    <Card className={cn('@container p-4', className)} data-testid="private-room-panel">
      <div className="mb-3 flex items-center gap-2">
        <Lock className="size-4 text-accent" aria-hidden />
        <h2 className="text-base font-bold">{ROOM_SCREENS.panelTitle}</h2>
      </div>
      {mine.isPending ? (
        <div className="flex justify-center py-6">
          <Spinner label={ROOM_SCREENS.panelTitle} />
        </div>
      ) : mine.error ? (
        <div className="grid gap-2 text-sm">
          <p role="alert" className="text-danger">
            {roomErrorMessage(mine.error, ROOMS.createFailed)}
          </p>
          <Button variant="outline" size="sm" onClick={() => void mine.refetch()}>
            {ERROR_BOUNDARY.tryAgain}
          </Button>
        </div>
      ) : room ? (
        <ActiveRoom room={room} onCancelled={() => queryClient.setQueryData(mineKey, null)} />
      ) : (
        <>
          <CreateRoomForm
            currency={currency}
            onCreated={(created) => {
              queryClient.setQueryData(mineKey, created);
              void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
            }}
          />
          <JoinCodeForm className="mt-4 border-t border-border pt-4" />
        </>
      )}
    </Card>
  );
}

function CreateRoomForm({ currency, onCreated }: { currency: Currency; onCreated: (room: Room) => void }) {
  const [game, setGame] = useState<GameId>(ROOM_LIMITS.defaultGame);
  const [bet, setBet] = useState<RoomBetTier>(ROOM_LIMITS.defaultBetTier);
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const ids = useId();
  const create = useMutation({
    mutationFn: () => createRoom({ gameType: game, betTier: bet, message: message.trim() || null }),
    onSuccess: (result) => {
      setError(null);
      toast.success(result.message);
      onCreated(result.room);
    },
    onError: (failure) => {
      const text = roomErrorMessage(failure, ROOMS.createFailed);
      setError(text);
      toast.error(text);
    },
  });
  const tooLong = message.length > ROOM_LIMITS.messageMax;

  return (
    <form
      className="grid gap-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (!tooLong) create.mutate();
      }}
    >
      <p className="text-sm text-muted">{ROOM_SCREENS.panelIntro}</p>
      <div className="grid gap-1.5">
        <label htmlFor={`${ids}-game`} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {ROOM_SCREENS.game}
        </label>
        <select
          id={`${ids}-game`}
          value={game}
          onChange={(event) => setGame(event.target.value as GameId)}
          className="h-11 w-full rounded-xl border border-border bg-bg/60 px-3 text-[0.95rem] text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20"
        >
          {ROOM_GAMES.map((id) => (
            <option key={id} value={id}>
              {gameName(id)}
            </option>
          ))}
        </select>
      </div>
      <div className="grid gap-1.5">
        <span id={`${ids}-bet`} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {ROOM_SCREENS.bet}
        </span>
        <ChipGroup
          label={ROOM_SCREENS.bet}
          labelledBy={`${ids}-bet`}
          value={String(bet)}
          onChange={(next) => setBet(Number(next) as RoomBetTier)}
          chips={ROOM_BET_TIERS.map((tier) => ({ value: String(tier), label: betLabel(tier, currency) }))}
          className="gap-1.5"
          chipClassName="min-h-9 px-2.5 py-1"
          data-testid="room-bet"
        />
      </div>
      <div className="grid gap-1.5">
        <label htmlFor={`${ids}-message`} className="text-xs font-semibold tracking-wide text-muted uppercase">
          {ROOM_SCREENS.message}
        </label>
        <textarea
          id={`${ids}-message`}
          value={message}
          onChange={(event) => setMessage(event.target.value)}
          rows={2}
          placeholder={ROOM_SCREENS.messagePlaceholder}
          aria-invalid={tooLong || undefined}
          aria-describedby={`${ids}-count`}
          className={cn(
            'w-full resize-none rounded-xl border bg-bg/60 px-3 py-2 text-sm text-fg outline-none placeholder:text-muted/70 focus:border-accent focus:ring-4 focus:ring-accent/20',
            tooLong ? 'border-danger' : 'border-border',
          )}
        />
        <p id={`${ids}-count`} className={cn('text-right text-xs tabular-nums', tooLong ? 'text-danger' : 'text-muted')}>
          {message.length}/{ROOM_LIMITS.messageMax}
        </p>
        {tooLong && <p className="text-xs text-danger">{ROOMS.messageTooLong(ROOM_LIMITS.messageMax)}</p>}
      </div>
      {error && (
        <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger" data-testid="room-error">
          {error}
        </p>
      )}
      <Button type="submit" loading={create.isPending} disabled={tooLong}>
        {ROOM_SCREENS.create}
      </Button>
    </form>
  );
}

function ActiveRoom({ room, onCancelled }: { room: Room; onCancelled: () => void }) {
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  const [shareable, setShareable] = useState(false);
  useEffect(() => setShareable(canShare()), []);
  const link = roomLink(window.location.origin, room.roomCode);
  const cancel = useMutation({
    mutationFn: () => cancelRoom(room.roomCode),
    onSuccess: () => {
      toast.success(ROOM_SCREENS.cancelled);
      void queryClient.invalidateQueries({ queryKey: WALLET_KEY });
      onCancelled();
    },
    onError: (failure) => {
      const text = roomErrorMessage(failure, ROOMS.cancelFailed);
      setError(text);
      toast.error(text);
    },
  });
  const expires = new Date(room.expiresAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });

  return (
    <div className="grid gap-4" data-testid="active-room">
      <div className="rounded-2xl border border-accent/40 bg-accent/10 p-3 text-center @[18rem]:p-4">
        <p className="text-xs font-semibold tracking-wide text-muted uppercase">{ROOM_SCREENS.yourRoom}</p>
        <p
          className="mt-1 font-mono text-2xl font-black tracking-[0.15em] text-fg select-all @[18rem]:text-4xl @[18rem]:tracking-[0.2em]"
          data-testid="room-code"
        >
          {room.roomCode}
        </p>
        <div className="mt-2 flex flex-wrap items-center justify-center gap-1.5">
          <Badge tone="cyan">{room.gameName}</Badge>
          <Badge tone={room.currency === 'vtokens' ? 'vt' : 'success'}>{betLabel(room.betTier, room.currency)}</Badge>
        </div>
        {room.message && <p className="mt-2 text-sm break-words text-muted">“{room.message}”</p>}
      </div>
      <div className="grid gap-2 @[18rem]:grid-cols-2">
        <Button variant="secondary" size="sm" onClick={() => void copyText(room.roomCode, ROOM_SCREENS.codeCopied)}>
          <Copy className="size-4" aria-hidden />
          {ROOM_SCREENS.copyCode}
        </Button>
        <Button variant="secondary" size="sm" onClick={() => void copyText(link, ROOM_SCREENS.linkCopied)} data-link={link}>
          <Link2 className="size-4" aria-hidden />
          {ROOM_SCREENS.copyLink}
        </Button>
        {shareable && (
          <Button
            variant="cyan"
            size="sm"
            className="@[18rem]:col-span-2"
            onClick={() =>
              void shareRoom({ title: ROOM_SCREENS.shareTitle, text: ROOM_SCREENS.shareText(room.gameName, room.roomCode), url: link })
            }
          >
            <Share2 className="size-4" aria-hidden />
            {ROOM_SCREENS.share}
          </Button>
        )}
      </div>
      <p className="break-all text-center text-xs text-muted" data-testid="room-link">
        {link}
      </p>
      <div role="status" className="flex items-center justify-center gap-2 text-sm text-fg">
        <span className="size-2 animate-live-pulse rounded-full bg-warning" aria-hidden />
        {ROOM_SCREENS.waiting}
      </div>
      <p className="-mt-2 text-center text-xs text-muted">{ROOM_SCREENS.expiresAt(expires)}</p>
      {error && (
        <p role="alert" className="rounded-xl border border-danger/40 bg-danger/10 px-3 py-2 text-sm text-danger">
          {error}
        </p>
      )}
      <Button variant="outline" size="sm" loading={cancel.isPending} onClick={() => cancel.mutate()}>
        <X className="size-4" aria-hidden />
        {ROOM_SCREENS.cancel}
      </Button>
    </div>
  );
}
