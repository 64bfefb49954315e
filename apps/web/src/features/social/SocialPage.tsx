import { useEffect, useId, useState, type ReactNode } from 'react';
import { Link } from 'react-router';
import { toast } from 'sonner';
import { Check, Search, Swords, UserMinus, UserPlus, X } from 'lucide-react';
import { formatRelativeTime } from '@versus/domain/catalogue';
import {
  SOCIAL_LIMITS,
  SOCIAL_TEXT as T,
  challengeFriendPath,
  type Contact,
  type LinkRequest,
  type SearchResult,
  type SocialUser,
} from '@versus/domain/social';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card, Input, Spinner, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useAuth } from '../auth/use-auth.ts';
import { useSearchPlayers, useSocialAction, useSocialLive, useSocialOverview, type SocialAction } from './social.api.ts';

type Tab = 'friends' | 'following' | 'followers';

/** /social: find players, answer requests, friends with who is online, follows. */
export default function SocialPage() {
  useDocumentTitle(T.title);
  useSocialLive();
  const { isVirtual } = useAuth();
  const overview = useSocialOverview();
  const action = useSocialAction();
  const [tab, setTab] = useState<Tab>('friends');

  const run = (what: SocialAction, success?: string) =>
    action.mutate(what, {
      onSuccess: () => success && toast.success(success),
      onError: (error) => toast.error(error instanceof Error ? error.message : String(error)),
    });

  const data = overview.data;
  const online = data?.friends.filter((f) => f.presence?.online).length ?? 0;
  const tabs: { id: Tab; label: string; count: number }[] = [
    { id: 'friends', label: T.friends, count: data?.friends.length ?? 0 },
    { id: 'following', label: T.following, count: data?.following.length ?? 0 },
    { id: 'followers', label: T.followers, count: data?.followers.length ?? 0 },
  ];

  return (
    <div className="mx-auto w-full max-w-4xl px-4 py-8 sm:px-6 sm:py-12" data-testid="social-page">
      <h1 className="text-3xl font-black sm:text-4xl">{T.title}</h1>
      <p className="mt-1 text-muted">{T.subtitle}</p>

      {isVirtual ? (
        <Card className="mt-6 p-5 text-muted">{T.virtualNoSocial}</Card>
      ) : (
        <>
          <PlayerSearch busy={action.isPending} onAction={run} />
          {overview.isPending ? (
            <Loading />
          ) : overview.isError ? (
            <LoadFailed className="mt-6" message={overview.error.message} retryLabel="Retry" onRetry={() => void overview.refetch()} />
          ) : (
            data && (
              <>
                <Requests incoming={data.incoming} outgoing={data.outgoing} busy={action.isPending} onAction={run} />
                <div
                  role="tablist"
                  aria-label={T.title}
                  className="mt-8 grid grid-cols-3 gap-1 rounded-xl border border-border bg-surface p-1"
                >
                  {tabs.map((t) => (
                    <button
                      key={t.id}
                      id={`social-tab-${t.id}`}
                      role="tab"
                      type="button"
                      aria-selected={tab === t.id}
                      aria-controls="social-panel"
                      onClick={() => setTab(t.id)}
                      className={cn(
                        'min-h-10 min-w-0 rounded-lg px-1.5 py-1.5 text-[0.8rem] leading-tight font-bold transition sm:px-3 sm:text-sm sm:whitespace-nowrap',
                        tab === t.id ? 'bg-accent-solid text-accent-fg' : 'text-muted hover:text-fg',
                      )}
                    >
                      {t.label} <span className="tabular-nums opacity-80">({t.count})</span>
                    </button>
                  ))}
                </div>
                <div id="social-panel" role="tabpanel" aria-labelledby={`social-tab-${tab}`} className="mt-4">
                  {tab === 'friends' && (
                    <>
                      {data.friends.length > 0 && (
                        <p className="mb-3 flex items-center gap-2 text-sm text-muted" data-testid="friends-online">
                          <span aria-hidden className="size-2 rounded-full bg-success" />
                          {T.friendsOnline(online)}
                        </p>
                      )}
                      <ContactList
                        contacts={data.friends}
                        empty={T.noFriends}
                        testId="friends"
                        actions={(c) => (
                          <>
                            <Button asChild size="sm" variant="primary" title={T.challengeHint(c.user.displayName || c.user.username)}>
                              <Link to={challengeFriendPath(c.user.id)}>
                                <Swords className="size-4" aria-hidden />
                                {T.challenge}
                                <span className="sr-only"> {c.user.displayName || c.user.username}</span>
                              </Link>
                            </Button>
                            <IconAction
                              label={`${T.unfriend}: ${c.user.username}`}
                              disabled={action.isPending}
                              onClick={() => run({ kind: 'unfriend', userId: c.user.id })}
                            >
                              <UserMinus className="size-4" aria-hidden />
                            </IconAction>
                          </>
                        )}
                      />
                    </>
                  )}
                  {tab === 'following' && (
                    <ContactList
                      contacts={data.following}
                      empty={T.noFollowing}
                      testId="following"
                      actions={(c) => (
                        <Button
                          size="sm"
                          variant="outline"
                          disabled={action.isPending}
                          onClick={() => run({ kind: 'unfollow', userId: c.user.id })}
                        >
                          {T.unfollow}
                          <span className="sr-only"> {c.user.username}</span>
                        </Button>
                      )}
                    />
                  )}
                  {tab === 'followers' && (
                    <ContactList
                      contacts={data.followers}
                      empty={T.noFollowers}
                      testId="followers"
                      actions={(c) => (
                        <IconAction
                          label={`Remove follower: ${c.user.username}`}
                          disabled={action.isPending}
                          onClick={() => run({ kind: 'removeFollower', userId: c.user.id })}
                        >
                          <X className="size-4" aria-hidden />
                        </IconAction>
                      )}
                    />
                  )}
                </div>
              </>
            )
          )}
        </>
      )}
    </div>
  );
}

function IconAction({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <Button size="icon" variant="ghost" aria-label={label} title={label} disabled={disabled} onClick={onClick} className="size-8">
      {children}
    </Button>
  );
}

/** The typed text after a short pause, so each keystroke does not ask the server. */
function useDebounced(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

function PlayerSearch({ busy, onAction }: { busy: boolean; onAction: (a: SocialAction, success?: string) => void }) {
  const id = useId();
  const [text, setText] = useState('');
  const q = useDebounced(text.trim().replace(/^@/, ''), 250);
  const results = useSearchPlayers(q);
  return (
    <Card className="mt-6 p-4 sm:p-5">
      <h2 className="text-lg font-extrabold">{T.findPlayers}</h2>
      <label htmlFor={id} className="sr-only">
        {T.searchLabel}
      </label>
      <div className="mt-3">
        <Input
          id={id}
          type="search"
          icon={<Search />}
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder={T.searchPlaceholder}
          autoComplete="off"
          maxLength={SOCIAL_LIMITS.searchMax + 1}
          data-testid="social-search"
        />
      </div>
      <div aria-live="polite" className="mt-3">
        {text.trim().length > 0 && q.length < SOCIAL_LIMITS.searchMin ? (
          <p className="text-sm text-muted">{T.searchTooShort}</p>
        ) : results.isFetching && !results.data ? (
          <Spinner className="size-5" />
        ) : results.isError ? (
          <p className="text-sm text-danger">{results.error.message}</p>
        ) : results.data && results.data.length === 0 ? (
          <p className="text-sm text-muted">{T.noResults}</p>
        ) : (
          results.data && (
            <ul className="divide-y divide-border/60" data-testid="search-results">
              {results.data.map((r) => (
                <li key={r.user.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                  <Person user={r.user} />
                  <SearchActions result={r} busy={busy} onAction={onAction} />
                </li>
              ))}
            </ul>
          )
        )}
      </div>
    </Card>
  );
}

function SearchActions({
  result,
  busy,
  onAction,
}: {
  result: SearchResult;
  busy: boolean;
  onAction: (a: SocialAction, success?: string) => void;
}) {
  const name = result.user.username;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {result.friend === 'none' ? (
        <Button size="sm" disabled={busy} onClick={() => onAction({ kind: 'friend', userId: result.user.id }, T.requestSent)}>
          <UserPlus className="size-4" aria-hidden />
          {T.addFriend}
          <span className="sr-only"> {name}</span>
        </Button>
      ) : (
        <Badge tone={result.friend === 'friends' ? 'success' : 'neutral'}>
          {result.friend === 'friends'
            ? T.relation.friends
            : result.friend === 'request_sent'
              ? T.relation.requestSent
              : T.relation.requestReceived}
        </Badge>
      )}
      {result.follow === 'none' ? (
        <Button
          size="sm"
          variant="outline"
          disabled={busy}
          onClick={() => onAction({ kind: 'follow', userId: result.user.id }, T.followSent)}
        >
          {T.follow}
          <span className="sr-only"> {name}</span>
        </Button>
      ) : (
        <Badge tone="cyan">{result.follow === 'following' ? T.relation.following : T.relation.followRequested}</Badge>
      )}
    </div>
  );
}

function Requests({
  incoming,
  outgoing,
  busy,
  onAction,
}: {
  incoming: LinkRequest[];
  outgoing: LinkRequest[];
  busy: boolean;
  onAction: (a: SocialAction, success?: string) => void;
}) {
  if (incoming.length === 0 && outgoing.length === 0) return null;
  const kindLabel = (r: LinkRequest) => T.kindLabels[r.kind];
  return (
    <Card className="mt-6 p-4 sm:p-5" data-testid="social-requests">
      <h2 className="text-lg font-extrabold">{T.requests}</h2>
      {incoming.length > 0 && (
        <section className="mt-3" aria-label={T.incoming}>
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{T.incoming}</h3>
          <ul className="divide-y divide-border/60" data-testid="incoming-requests">
            {incoming.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="flex min-w-0 items-center gap-2">
                  <Person user={r.user} />
                  <Badge tone={r.kind === 'friend' ? 'accent' : 'cyan'}>{kindLabel(r)}</Badge>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    disabled={busy}
                    onClick={() =>
                      onAction(
                        { kind: 'accept', requestId: r.id },
                        r.kind === 'friend'
                          ? T.friendAdded(r.user.displayName || r.user.username)
                          : T.followAccepted(r.user.displayName || r.user.username),
                      )
                    }
                  >
                    <Check className="size-4" aria-hidden />
                    {T.accept}
                    <span className="sr-only"> {r.user.username}</span>
                  </Button>
                  <Button size="sm" variant="outline" disabled={busy} onClick={() => onAction({ kind: 'decline', requestId: r.id })}>
                    {T.decline}
                    <span className="sr-only"> {r.user.username}</span>
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      )}
      {outgoing.length > 0 && (
        <section className="mt-3" aria-label={T.outgoing}>
          <h3 className="text-xs font-semibold tracking-wide text-muted uppercase">{T.outgoing}</h3>
          <ul className="divide-y divide-border/60" data-testid="outgoing-requests">
            {outgoing.map((r) => (
              <li key={r.id} className="flex flex-wrap items-center justify-between gap-3 py-3">
                <div className="flex min-w-0 items-center gap-2">
                  <Person user={r.user} />
                  <Badge tone="neutral">{kindLabel(r)}</Badge>
                </div>
                <Button size="sm" variant="ghost" disabled={busy} onClick={() => onAction({ kind: 'cancel', requestId: r.id })}>
                  {T.cancel}
                  <span className="sr-only"> {r.user.username}</span>
                </Button>
              </li>
            ))}
          </ul>
        </section>
      )}
    </Card>
  );
}

function ContactList({
  contacts,
  empty,
  testId,
  actions,
}: {
  contacts: Contact[];
  empty: string;
  testId: string;
  actions: (c: Contact) => ReactNode;
}) {
  const now = new Date();
  if (contacts.length === 0) {
    return (
      <Card className="p-8 text-center text-muted" data-testid={`${testId}-empty`}>
        {empty}
      </Card>
    );
  }
  return (
    <Card className="p-2 sm:p-3">
      <ul className="divide-y divide-border/60" data-testid={`${testId}-list`}>
        {contacts.map((c) => (
          <li
            key={c.linkId}
            className="flex flex-wrap items-center justify-between gap-3 p-2"
            data-testid="contact"
            data-user={c.user.username}
          >
            <Person
              user={c.user}
              status={
                c.presence &&
                (c.presence.online ? (
                  <span className="flex items-center gap-1.5 text-success">
                    <span aria-hidden className="size-2 rounded-full bg-success" />
                    {T.online}
                  </span>
                ) : (
                  <span className="text-muted">
                    {c.presence.lastSeenAt ? T.lastSeen(formatRelativeTime(c.presence.lastSeenAt, now)) : T.offline}
                  </span>
                ))
              }
              online={c.presence?.online}
            />
            <div className="flex items-center gap-2">{actions(c)}</div>
          </li>
        ))}
      </ul>
    </Card>
  );
}

function Person({ user, status, online }: { user: SocialUser; status?: ReactNode; online?: boolean | undefined }) {
  const name = user.displayName || user.username;
  return (
    <div className="flex min-w-0 items-center gap-3">
      <span className="relative shrink-0">
        {user.avatarUrl ? (
          <img src={user.avatarUrl} alt="" className="size-10 rounded-full border border-border object-cover" />
        ) : (
          <span
            aria-hidden
            className="grid size-10 place-items-center rounded-full border border-border bg-surface-2 font-black text-accent uppercase"
          >
            {name.slice(0, 1)}
          </span>
        )}
        {online !== undefined && (
          <span
            aria-hidden
            className={cn(
              'absolute -right-0.5 -bottom-0.5 size-3 rounded-full border-2 border-surface',
              online ? 'bg-success' : 'bg-muted',
            )}
          />
        )}
      </span>
      <span className="min-w-0">
        <span className="block truncate font-bold">{name}</span>
        <span className="flex flex-wrap items-center gap-x-2 text-xs text-muted">
          <span className="truncate">@{user.username}</span>
          <span>Lv {user.level}</span>
          {status}
        </span>
      </span>
    </div>
  );
}
