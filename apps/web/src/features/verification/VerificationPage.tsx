import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { BadgeCheck, Clock, Info, ShieldCheck, XCircle } from 'lucide-react';
import {
  DOCUMENT_TYPES,
  GAMERTAG_LIMIT,
  VERIFY_PLATFORMS,
  VERIFY_TEXT as T,
  checkGamertag,
  checkIdentity,
  type IdentityRequest,
  type LinkedGamertag,
  type VerificationRequest,
  type VerificationState,
  type VerifyPlatform,
} from '@versus/domain/verification';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Badge, Button, Card, Field, Input, cn } from '../../ui/index.ts';
import { LoadFailed, Loading } from '../../ui/QueryState.tsx';
import { useLinkGamertag, useRequestIdentity, useUnlinkGamertag, useVerification, useVerificationLive } from './verification.api.ts';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** /verification: gaming accounts per platform and the identity and age check, reviewed by an admin. */
export default function VerificationPage() {
  useDocumentTitle(T.title);
  useVerificationLive();
  const state = useVerification();
  return (
    <div className="mx-auto w-full max-w-3xl px-4 py-8 sm:px-6 sm:py-12" data-testid="verification-page">
      <h1 className="text-3xl font-black sm:text-4xl">{T.title}</h1>
      <p className="mt-1 text-muted">{T.subtitle}</p>
      <Card role="note" className="mt-6 flex gap-3 border border-warning/40 p-4 text-sm" data-testid="manual-review-notice">
        <Info className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden />
        <p>{T.manualNotice}</p>
      </Card>
      {state.isPending ? (
        <Loading />
      ) : state.isError ? (
        <LoadFailed className="mt-6" message={state.error.message} retryLabel="Retry" onRetry={() => void state.refetch()} />
      ) : (
        <>
          <Summary state={state.data} />
          <Card className="mt-6 p-4 sm:p-6">
            <h2 className="text-lg font-extrabold">{T.gamertags}</h2>
            <p className="mt-1 text-sm text-muted">{T.gamertagsHint}</p>
            <div className="mt-4 grid gap-5">
              {VERIFY_PLATFORMS.map((platform) => (
                <GamertagRow
                  key={platform}
                  platform={platform}
                  linked={state.data.gamertags.find((g) => g.platform === platform) ?? null}
                  request={state.data.requests.find((r) => r.kind === platform) ?? null}
                />
              ))}
            </div>
          </Card>
          <IdentityCard verified={state.data.verified.identity} request={state.data.requests.find((r) => r.kind === 'identity') ?? null} />
        </>
      )}
    </div>
  );
}

function Summary({ state }: { state: VerificationState }) {
  const flags: [string, boolean][] = [
    [T.platformLabels.xbox, state.verified.xbox],
    [T.platformLabels.playstation, state.verified.playstation],
    [T.platformLabels.steam, state.verified.steam],
    [T.identity, state.verified.identity],
  ];
  return (
    <Card className="mt-6 p-4 sm:p-5" data-testid="verification-summary">
      <div className="flex flex-wrap items-center gap-2">
        {state.verified.all && (
          <Badge tone="success" data-testid="all-verified">
            <ShieldCheck className="size-3.5" aria-hidden />
            {T.allVerified}
          </Badge>
        )}
        {flags.map(([label, on]) => (
          <Badge key={label} tone={on ? 'success' : 'neutral'}>
            {on ? <BadgeCheck className="size-3.5" aria-hidden /> : null}
            {label}
            <span className="sr-only">: {on ? T.status.approved : T.status.unverified}</span>
          </Badge>
        ))}
      </div>
      {state.verificationCompletedAt && (
        <p className="mt-2 text-sm text-muted">{T.completedAt(new Date(state.verificationCompletedAt).toLocaleDateString())}</p>
      )}
    </Card>
  );
}

/** The state of one check in words and colour. */
function StatusLine({ verified, request }: { verified: boolean; request: VerificationRequest | null }) {
  if (verified) {
    return (
      <span className="flex items-center gap-1.5 text-sm font-bold text-success">
        <BadgeCheck className="size-4" aria-hidden /> {T.status.approved}
      </span>
    );
  }
  if (request?.status === 'pending') {
    return (
      <span className="flex items-center gap-1.5 text-sm font-bold text-warning">
        <Clock className="size-4" aria-hidden /> {T.status.pending}
      </span>
    );
  }
  if (request?.status === 'rejected') {
    return (
      <span className="flex items-center gap-1.5 text-sm font-bold text-danger">
        <XCircle className="size-4" aria-hidden /> {T.rejectedBecause(request.reason ?? '')}
      </span>
    );
  }
  return <span className="text-sm text-muted">{T.status.unverified}</span>;
}

function GamertagRow({
  platform,
  linked,
  request,
}: {
  platform: VerifyPlatform;
  linked: LinkedGamertag | null;
  request: VerificationRequest | null;
}) {
  const [value, setValue] = useState(linked?.gamertag ?? '');
  const [error, setError] = useState<string | null>(null);
  const link = useLinkGamertag();
  const unlink = useUnlinkGamertag();
  const current = request && linked && request.gamertag === linked.gamertag ? request : null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkGamertag(value);
    if (!checked.ok) return setError(checked.message);
    setError(null);
    link.mutate(
      { platform, gamertag: checked.gamertag },
      { onSuccess: () => toast.success(T.linked(platform)), onError: (e) => setError(errorText(e)) },
    );
  };
  return (
    <form onSubmit={submit} className="grid gap-2" data-testid={`gamertag-${platform}`}>
      <Field
        label={T.gamertagLabel(platform)}
        error={
          error && (
            <p role="alert" className="text-xs font-semibold text-danger">
              {error}
            </p>
          )
        }
      >
        {({ id, hintId }) => (
          <Input
            id={id}
            aria-describedby={hintId}
            value={value}
            invalid={!!error}
            maxLength={GAMERTAG_LIMIT}
            autoComplete="off"
            onChange={(e) => {
              setValue(e.target.value);
              setError(null);
            }}
          />
        )}
      </Field>
      <div className="flex flex-wrap items-center justify-between gap-2">
        {linked ? <StatusLine verified={linked.verified} request={current} /> : <span className="text-sm text-muted">{T.status.none}</span>}
        <div className="flex gap-2">
          {linked && (
            <Button
              size="sm"
              variant="ghost"
              loading={unlink.isPending}
              onClick={() =>
                unlink.mutate(platform, {
                  onSuccess: () => {
                    setValue('');
                    toast.success(T.unlinked(platform));
                  },
                  onError: (e) => setError(errorText(e)),
                })
              }
            >
              {T.unlink}
              <span className="sr-only"> {T.platformLabels[platform]}</span>
            </Button>
          )}
          <Button
            size="sm"
            type="submit"
            loading={link.isPending}
            disabled={linked?.gamertag === value.trim() && (linked.verified || current?.status === 'pending')}
          >
            {linked ? T.update : T.link}
            <span className="sr-only"> ({T.platformLabels[platform]})</span>
          </Button>
        </div>
      </div>
    </form>
  );
}

const EMPTY_IDENTITY: IdentityRequest = { fullName: '', dateOfBirth: '', documentType: '', documentLast4: '' };

function IdentityCard({ verified, request }: { verified: boolean; request: VerificationRequest | null }) {
  const [form, setForm] = useState<IdentityRequest>(EMPTY_IDENTITY);
  const [error, setError] = useState<{ field: keyof IdentityRequest | null; message: string } | null>(null);
  const send = useRequestIdentity();
  const pending = request?.status === 'pending';
  const today = new Date().toISOString().slice(0, 10);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const checked = checkIdentity(form, new Date(`${today}T00:00:00Z`));
    if (!checked.ok) return setError({ field: checked.field, message: checked.message });
    setError(null);
    send.mutate(form, {
      onSuccess: () => {
        setForm(EMPTY_IDENTITY);
        toast.success(T.identitySent);
      },
      onError: (e) => setError({ field: null, message: errorText(e) }),
    });
  };
  const set = (field: keyof IdentityRequest) => (value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    setError(null);
  };
  const fieldError = (field: keyof IdentityRequest) =>
    error?.field === field ? (
      <p role="alert" className="text-xs font-semibold text-danger">
        {error.message}
      </p>
    ) : undefined;

  return (
    <Card className="mt-6 p-4 sm:p-6" data-testid="identity-card">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 className="text-lg font-extrabold">{T.identity}</h2>
        <StatusLine verified={verified} request={request} />
      </div>
      <p className="mt-1 text-sm text-muted">{T.identityHint}</p>
      {!verified && !pending && (
        <form onSubmit={submit} className="mt-4 grid gap-4 sm:grid-cols-2" noValidate>
          <Field label={T.fullName} error={fieldError('fullName')} className="sm:col-span-2">
            {({ id }) => (
              <Input
                id={id}
                value={form.fullName}
                autoComplete="name"
                invalid={error?.field === 'fullName'}
                onChange={(e) => set('fullName')(e.target.value)}
              />
            )}
          </Field>
          <Field label={T.dateOfBirth} error={fieldError('dateOfBirth')}>
            {({ id }) => (
              <Input
                id={id}
                type="date"
                max={today}
                value={form.dateOfBirth}
                autoComplete="bday"
                invalid={error?.field === 'dateOfBirth'}
                onChange={(e) => set('dateOfBirth')(e.target.value)}
              />
            )}
          </Field>
          <Field label={T.documentType} error={fieldError('documentType')}>
            {({ id }) => (
              <select
                id={id}
                value={form.documentType}
                aria-invalid={error?.field === 'documentType' || undefined}
                onChange={(e) => set('documentType')(e.target.value)}
                className={cn(
                  'h-11 w-full rounded-xl border bg-bg/60 px-3 text-[0.95rem] text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20',
                  error?.field === 'documentType' ? 'border-danger' : 'border-border',
                )}
              >
                <option value="">—</option>
                {DOCUMENT_TYPES.map((d) => (
                  <option key={d} value={d}>
                    {T.documentLabels[d]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field label={T.documentLast4} error={fieldError('documentLast4')} className="sm:col-span-2">
            {({ id }) => (
              <Input
                id={id}
                value={form.documentLast4}
                maxLength={4}
                autoComplete="off"
                className="uppercase sm:max-w-40"
                invalid={error?.field === 'documentLast4'}
                onChange={(e) => set('documentLast4')(e.target.value)}
              />
            )}
          </Field>
          {error?.field === null && (
            <p role="alert" className="text-sm font-semibold text-danger sm:col-span-2">
              {error.message}
            </p>
          )}
          <div className="sm:col-span-2">
            <Button type="submit" loading={send.isPending}>
              {T.submitIdentity}
            </Button>
          </div>
        </form>
      )}
    </Card>
  );
}
