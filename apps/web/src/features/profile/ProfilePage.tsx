import { useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import {
  Bell,
  ChevronRight,
  Flame,
  Gamepad2,
  ShieldCheck,
  Users,
  ImagePlus,
  Medal,
  Trash2,
  TrendingUp,
  Trophy,
  XCircle,
} from 'lucide-react';
import { AUTH, AVATAR_RULES, PROFILE, type User } from '@versus/domain';
import type { ArenaMatchSummary } from '@versus/domain/arena';
import { isWebGame } from '@versus/domain/catalogue';
import { checkAvatarFile, type GameRating, type ProfileStats } from '@versus/domain/profile';
import { useDocumentTitle } from '../../app/document-title.ts';
import { AccountModePreference, ThemePreference } from '../../app/PreferenceSections.tsx';
import { ApiError } from '../../api/index.ts';
import { useTopicRefetch } from '../../realtime/index.ts';
import { Badge, Button, Card, Field, Input } from '../../ui/index.ts';
import { LoadFailed, LoadFailedText, Loading } from '../../ui/QueryState.tsx';
import { UserAvatar } from '../../ui/UserAvatar.tsx';
import { messageFor } from '../auth/session-store.ts';
import { useAuth } from '../auth/use-auth.ts';
import { useHistory } from '../matches/matches-api.ts';
import { ReplayDialog } from './ReplayDialog.tsx';
import { removeAvatar, uploadAvatar, useMyProfile } from './profile.api.ts';

const RECENT = 8;
const PROFILE_REFETCH = { types: /^(match|profile)\./ };
const PROFILE_KEYS = [['profile']];

/** /profile: avatar, names, account mode and theme, stats, ratings per game, recent matches (SPEC §2, §3, §5). */
export default function ProfilePage() {
  useDocumentTitle(PROFILE.title);
  const { user } = useAuth();
  const profile = useMyProfile(user?.id ?? null);
  // A finished match changes the stats and the history.
  useTopicRefetch(user ? `user:${user.id}` : null, PROFILE_REFETCH, PROFILE_KEYS);
  if (!user) return null;

  return (
    <div className="mx-auto w-full max-w-5xl px-4 py-8 sm:px-6 sm:py-12" data-testid="profile-page">
      <h1 className="text-3xl font-black sm:text-4xl">{PROFILE.title}</h1>
      <p className="mt-1 text-muted">Your player card, stats and preferences.</p>

      <div className="mt-6 grid gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] lg:items-start">
        <div className="min-w-0 space-y-6">
          <PlayerCard user={user} uploads={profile.data?.avatarUploads ?? null} />
          <StatsCard stats={profile.data?.stats ?? null} isError={profile.isError} onRetry={() => void profile.refetch()} />
          <RecentMatches meId={user.id} />
        </div>
        <div className="min-w-0 space-y-6">
          <NamesCard user={user} />
          <PreferencesCard user={user} />
          <AccountLinks />
        </div>
      </div>
    </div>
  );
}

/** Where the rest of a player's account lives (the header's menu lists only SPEC's items). */
function AccountLinks() {
  const links = [
    { to: '/social', icon: Users, ...PROFILE.accountLinks.social },
    { to: '/verification', icon: ShieldCheck, ...PROFILE.accountLinks.verification },
    { to: '/settings/notifications', icon: Bell, ...PROFILE.accountLinks.notifications },
  ];
  return (
    <Card className="p-2" data-testid="account-links">
      <h2 className="sr-only">{PROFILE.accountLinksTitle}</h2>
      <ul>
        {links.map(({ to, icon: Icon, label, detail }) => (
          <li key={to}>
            <Link
              to={to}
              className="flex items-center gap-3 rounded-xl p-3 transition hover:bg-surface-2 focus-visible:ring-2 focus-visible:ring-accent focus-visible:outline-none"
            >
              <Icon className="size-5 shrink-0 text-accent" aria-hidden />
              <span className="min-w-0 flex-1">
                <span className="block font-semibold">{label}</span>
                <span className="block truncate text-sm text-muted">{detail}</span>
              </span>
              <ChevronRight className="size-4 shrink-0 text-muted" aria-hidden />
            </Link>
          </li>
        ))}
      </ul>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------

function PlayerCard({ user, uploads }: { user: User; uploads: { enabled: boolean; message: string | null } | null }) {
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'upload' | 'remove' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const client = useQueryClient();
  const disabled = uploads !== null && !uploads.enabled;

  const onFile = async (file: File | undefined) => {
    if (input.current) input.current.value = '';
    if (!file) return;
    const problem = checkAvatarFile({ type: file.type || 'application/octet-stream', size: file.size });
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    setBusy('upload');
    try {
      await uploadAvatar(user.id, file);
      toast.success(PROFILE.avatarUpdated);
      void client.invalidateQueries({ queryKey: ['profile'] });
    } catch (failure) {
      const message = failure instanceof ApiError ? failure.message : messageFor(failure);
      setError(message);
      toast.error(PROFILE.avatarFailed, { description: message });
    } finally {
      setBusy(null);
    }
  };

  const onRemove = async () => {
    setBusy('remove');
    setError(null);
    try {
      await removeAvatar(user.id);
      toast.success(PROFILE.avatarRemoved);
    } catch (failure) {
      toast.error(PROFILE.avatarFailed, { description: messageFor(failure) });
    } finally {
      setBusy(null);
    }
  };

  const virtual = user.accountType === 'virtual';
  return (
    <Card className="relative overflow-hidden p-5 sm:p-6">
      <div aria-hidden className="pointer-events-none absolute -top-20 -right-16 size-48 rounded-full bg-accent/20 blur-3xl" />
      <div className="relative flex flex-col items-center gap-4 text-center sm:flex-row sm:items-center sm:text-left">
        <UserAvatar user={user} className="size-24 text-2xl sm:size-28" alt={`${user.displayName}'s avatar`} testId="profile-avatar" />
        <div className="min-w-0 flex-1">
          <p className="truncate text-2xl font-black" data-testid="profile-name">
            {user.displayName || user.username}
          </p>
          <p className="truncate text-sm text-muted">@{user.username}</p>
          <div className="mt-2 flex flex-wrap justify-center gap-1.5 sm:justify-start">
            {virtual ? <Badge tone="vt">Virtual</Badge> : <Badge tone="cyan">Real</Badge>}
            <Badge tone="accent">Level {user.level}</Badge>
            {user.role !== 'user' && <Badge tone="warning">{user.role}</Badge>}
          </div>
          <div className="mt-4 flex flex-wrap justify-center gap-2 sm:justify-start">
            <input
              ref={input}
              type="file"
              accept={AVATAR_RULES.types.join(',')}
              className="sr-only"
              tabIndex={-1}
              aria-hidden
              data-testid="avatar-input"
              onChange={(event) => void onFile(event.target.files?.[0])}
            />
            <Button
              size="sm"
              onClick={() => input.current?.click()}
              loading={busy === 'upload'}
              disabled={disabled || busy !== null}
              data-testid="avatar-upload"
            >
              <ImagePlus className="size-4" aria-hidden />
              {user.avatar ? 'Change avatar' : 'Upload avatar'}
            </Button>
            {user.avatar && (
              <Button size="sm" variant="ghost" onClick={() => void onRemove()} loading={busy === 'remove'} disabled={busy !== null}>
                <Trash2 className="size-4" aria-hidden />
                Remove
              </Button>
            )}
          </div>
          <p className="mt-2 text-xs text-muted">JPEG, PNG, GIF, WebP or AVIF, up to 5 MB.</p>
          {disabled && uploads?.message && (
            <p role="status" className="mt-2 text-sm font-semibold text-warning" data-testid="avatar-disabled">
              {uploads.message}
            </p>
          )}
          {error && (
            <p
              role="alert"
              className="mt-2 flex items-center justify-center gap-1.5 text-sm font-semibold text-danger sm:justify-start"
              data-testid="avatar-error"
            >
              <XCircle className="size-4 shrink-0" aria-hidden />
              {error}
            </p>
          )}
        </div>
      </div>
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------

function StatsCard({ stats, isError, onRetry }: { stats: ProfileStats | null; isError: boolean; onRetry: () => void }) {
  if (isError) {
    return <LoadFailed message={AUTH.profileFailed} retryLabel="Try again" onRetry={onRetry} />;
  }
  const figures: { label: string; value: ReactNode; icon: ReactNode; testId: string }[] = [
    { label: 'Level', value: stats?.level, icon: <Medal aria-hidden />, testId: 'stat-level' },
    { label: 'Wins', value: stats?.wins, icon: <Trophy aria-hidden />, testId: 'stat-wins' },
    { label: 'Losses', value: stats?.losses, icon: <XCircle aria-hidden />, testId: 'stat-losses' },
    { label: 'Streak', value: stats?.streak, icon: <Flame aria-hidden />, testId: 'stat-streak' },
    {
      label: 'Rank',
      value: stats ? (stats.rank === null ? PROFILE.unranked : `#${stats.rank}`) : undefined,
      icon: <TrendingUp aria-hidden />,
      testId: 'stat-rank',
    },
    { label: 'Rating', value: stats ? (stats.globalRating ?? '—') : undefined, icon: <Gamepad2 aria-hidden />, testId: 'stat-rating' },
  ];
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-black">Stats</h2>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3">
        {figures.map((f) => (
          <div key={f.label} className="rounded-xl border border-border bg-bg/40 p-3">
            <dt className="flex items-center gap-1.5 text-xs font-semibold tracking-wide text-muted uppercase [&>svg]:size-3.5">
              {f.icon}
              {f.label}
            </dt>
            <dd className="mt-1 font-mono text-xl font-black tabular-nums" data-testid={f.testId}>
              {f.value === undefined ? <span aria-hidden className="block h-6 w-12 animate-pulse rounded bg-surface-2" /> : f.value}
            </dd>
          </div>
        ))}
      </dl>
      <h3 className="mt-6 text-xs font-semibold tracking-wide text-muted uppercase">Rating per game</h3>
      {stats && stats.ratings.length === 0 ? (
        <p className="mt-2 text-sm text-muted">{PROFILE.noRatings}</p>
      ) : (
        <ul className="mt-2 divide-y divide-border" data-testid="ratings">
          {(stats?.ratings ?? []).map((r) => (
            <RatingRow key={r.game} rating={r} />
          ))}
        </ul>
      )}
    </Card>
  );
}

function RatingRow({ rating }: { rating: GameRating }) {
  return (
    <li className="flex items-center justify-between gap-3 py-2.5" data-testid="rating-row" data-game={rating.game}>
      <div className="min-w-0">
        <p className="truncate font-bold">{rating.gameName}</p>
        <p className="text-xs text-muted">
          {rating.wins}W · {rating.losses}L{rating.draws > 0 ? ` · ${rating.draws}D` : ''} · {rating.games}{' '}
          {rating.games === 1 ? 'match' : 'matches'}
          {rating.position !== null && ` · #${rating.position}`}
        </p>
      </div>
      <p
        className="font-mono text-lg font-black tabular-nums"
        title={rating.provisional ? 'Provisional: a few more matches settle it' : undefined}
      >
        {rating.rating}
        {rating.provisional && <span className="text-muted">?</span>}
      </p>
    </li>
  );
}

// ---------------------------------------------------------------------------------------------

function RecentMatches({ meId }: { meId: string }) {
  const history = useHistory(true);
  const [replay, setReplay] = useState<string | null>(null);
  const matches = (history.data ?? []).slice(0, RECENT);
  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-black">Recent matches</h2>
      {history.isPending ? (
        <Loading compact />
      ) : history.isError ? (
        <LoadFailedText className="mt-3">{history.error instanceof Error ? history.error.message : AUTH.profileFailed}</LoadFailedText>
      ) : matches.length === 0 ? (
        <p className="mt-3 text-sm text-muted">{PROFILE.noMatches}</p>
      ) : (
        <ul className="mt-3 divide-y divide-border" data-testid="recent-matches">
          {matches.map((m) => (
            <RecentMatch key={m.id} match={m} meId={meId} onReplay={() => setReplay(m.id)} />
          ))}
        </ul>
      )}
      <ReplayDialog matchId={replay} onClose={() => setReplay(null)} />
    </Card>
  );
}

function outcomeOf(match: ArenaMatchSummary, meId: string): { label: string; tone: 'success' | 'danger' | 'neutral' | 'warning' } {
  if (match.status === 'disputed') return { label: 'Disputed', tone: 'warning' };
  if (match.status === 'cancelled') return { label: 'Void', tone: 'neutral' };
  if (!match.winnerId) return { label: 'Draw', tone: 'neutral' };
  return match.winnerId === meId ? { label: 'Won', tone: 'success' } : { label: 'Lost', tone: 'danger' };
}

function RecentMatch({ match, meId, onReplay }: { match: ArenaMatchSummary; meId: string; onReplay: () => void }) {
  const them = match.viewerSeat === 0 ? match.player2 : match.player1;
  const outcome = outcomeOf(match, meId);
  const replayable = match.status === 'completed' && isWebGame(match.gameType);
  return (
    <li className="flex flex-wrap items-center gap-x-3 gap-y-2 py-3" data-testid="recent-match" data-match-id={match.id}>
      <Badge tone={outcome.tone} className="w-16 justify-center">
        {outcome.label}
      </Badge>
      <div className="min-w-0 flex-1">
        <p className="truncate font-bold">
          {match.gameName} <span className="font-normal text-muted">vs</span> {them.username}
        </p>
        <p className="text-xs text-muted">
          {match.score[0]}–{match.score[1]} · {new Date(match.scheduledTime ?? match.createdAt).toLocaleDateString()}
        </p>
      </div>
      {replayable && (
        <Button size="sm" variant="outline" onClick={onReplay} aria-label={`${PROFILE.replay}: ${match.gameName} vs ${them.username}`}>
          {PROFILE.replay}
        </Button>
      )}
    </li>
  );
}

// ---------------------------------------------------------------------------------------------

function NamesCard({ user }: { user: User }) {
  const { updateUser } = useAuth();
  const [displayName, setDisplayName] = useState(user.displayName);
  const [username, setUsername] = useState(user.username);
  const [error, setError] = useState<{ field: string | undefined; message: string } | null>(null);
  const [saving, setSaving] = useState(false);
  const changed = displayName.trim() !== user.displayName || username.trim() !== user.username;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setError(null);
    setSaving(true);
    try {
      const patch: { display_name?: string; username?: string } = {};
      if (displayName.trim() !== user.displayName) patch.display_name = displayName;
      if (username.trim() !== user.username) patch.username = username;
      const next = await updateUser(patch);
      setDisplayName(next.displayName);
      setUsername(next.username);
      toast.success(PROFILE.saved);
    } catch (failure) {
      if (failure instanceof ApiError) setError({ field: failure.field, message: failure.message });
      else setError({ field: undefined, message: messageFor(failure) });
    } finally {
      setSaving(false);
    }
  };

  const errorFor = (field: string) =>
    error && (error.field === field || (field === 'username' && error.field === undefined)) ? (
      <p role="alert" className="text-sm font-semibold text-danger" data-testid={`${field}-error`}>
        {error.message}
      </p>
    ) : null;

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-black">Player names</h2>
      <form className="mt-4 grid gap-4" onSubmit={(event) => void onSubmit(event)} noValidate>
        <Field label="Display name" error={errorFor('display_name')} hint="1 to 40 characters, shown to other players.">
          {({ id, hintId }) => (
            <Input
              id={id}
              aria-describedby={hintId}
              value={displayName}
              maxLength={40}
              invalid={error?.field === 'display_name'}
              onChange={(event) => {
                setDisplayName(event.target.value);
                setError(null);
              }}
              data-testid="display-name-input"
            />
          )}
        </Field>
        <Field label="Username" error={errorFor('username')} hint="3 to 24 letters, digits or underscores.">
          {({ id, hintId }) => (
            <Input
              id={id}
              aria-describedby={hintId}
              value={username}
              maxLength={24}
              autoComplete="username"
              invalid={error?.field === 'username'}
              onChange={(event) => {
                setUsername(event.target.value);
                setError(null);
              }}
              data-testid="username-input"
            />
          )}
        </Field>
        <Button type="submit" loading={saving} disabled={!changed} data-testid="save-names">
          Save changes
        </Button>
      </form>
    </Card>
  );
}

function PreferencesCard({ user }: { user: User }) {
  const virtual = user.accountType === 'virtual';

  return (
    <Card className="p-5 sm:p-6">
      <h2 className="text-lg font-black">Preferences</h2>
      <ThemePreference virtual={virtual} className="mt-4" testIds />
      <AccountModePreference title="Account type" virtual={virtual} className="mt-6" testIds />
    </Card>
  );
}
