import { useEffect, useRef, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'sonner';
import { ArrowLeft, Gift, Swords, Timer, Trophy } from 'lucide-react';
import { TOURNAMENT_VIEW } from '@versus/domain';
import { GAMES, gameDurationPresets } from '@versus/domain/catalogue';
import { clockPerGame, timeControlLabel } from '@versus/domain/arena';
import { currencyLabel } from '@versus/domain/money';
import { KNOCKOUT_MATCH_FORMATS, TOURNAMENT_GAMES, TOURNAMENT_RULES, describePrizeSplit } from '@versus/domain/tournaments';
import { ApiError } from '../../api/index.ts';
import { useDocumentTitle } from '../../app/document-title.ts';
import { Button, Card, ChoiceCards, Field, Input, Select } from '../../ui/index.ts';
import { useAuth } from '../auth/use-auth.ts';
import { createTournament, tournamentKeys } from './tournaments.api.ts';
import {
  canSponsor,
  currencyChoices,
  defaultForm,
  formFieldOf,
  formProblem,
  requestFrom,
  type CreateForm,
  type Creator,
} from './tournaments.logic.ts';

const GAME_OPTIONS = TOURNAMENT_GAMES.map((g) => ({ value: g, label: GAMES[g].name }));
const MATCH_FORMAT_OPTIONS = KNOCKOUT_MATCH_FORMATS.map((f) => ({ value: f, label: TOURNAMENT_VIEW.matchFormats[f] }));

/** /tournaments/create: the create form, checked as the server checks it; the tournament's page after. */
export default function CreateTournamentPage() {
  useDocumentTitle('Create tournament');
  const { user } = useAuth();
  if (!user) return null;
  return <CreateTournament creator={{ role: user.role, accountType: user.accountType }} />;
}

function CreateTournament({ creator }: { creator: Creator }) {
  const navigate = useNavigate();
  const client = useQueryClient();
  const [form, setForm] = useState<CreateForm>(() => defaultForm(creator, new Date()));
  const [problem, setProblem] = useState<{ field: keyof CreateForm; message: string } | null>(null);
  const [sending, setSending] = useState(false);
  const [attempt, setAttempt] = useState(0);
  const formRef = useRef<HTMLFormElement>(null);
  // After a refused submit, the keyboard goes to the field to fix.
  useEffect(() => {
    if (attempt > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [attempt, problem]);
  const currencies = currencyChoices(creator);
  const sponsor = canSponsor(creator);
  const arena = form.format === 'arena';

  const set = <K extends keyof CreateForm>(field: K, value: CreateForm[K]) => {
    setForm((current) => {
      const next = { ...current, [field]: value };
      // A new game keeps a match length it allows.
      if (field === 'game' && !gameDurationPresets(next.game).includes(Number(next.matchMinutes))) {
        next.matchMinutes = String(gameDurationPresets(next.game)[0]);
      }
      return next;
    });
    if (problem?.field === field) setProblem(null);
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = formProblem(form, creator, new Date());
    setProblem(found);
    setAttempt((n) => n + 1);
    if (found) return;
    setSending(true);
    try {
      const created = await createTournament(requestFrom(form));
      void client.invalidateQueries({ queryKey: tournamentKeys.all });
      toast.success(`${created.name} is open for entries.`);
      void navigate(`/tournaments/${created.id}`);
    } catch (error) {
      if (error instanceof ApiError && error.field) {
        setProblem({ field: formFieldOf(error.field), message: error.message });
        setAttempt((n) => n + 1);
      } else toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setSending(false);
    }
  };

  const errorOf = (field: keyof CreateForm) =>
    problem?.field === field ? (
      <p id={`tournament-${field}-error`} role="alert" className="text-xs font-semibold text-danger" data-testid="field-error">
        {problem.message}
      </p>
    ) : undefined;
  const invalid = (field: keyof CreateForm) => problem?.field === field;
  const described = (field: keyof CreateForm) => (invalid(field) ? `tournament-${field}-error` : undefined);
  const textField = (field: TextField, label: string, extra: TextFieldOptions = {}) => (
    <Field label={label} error={errorOf(field)} hint={extra.hint} className={extra.className}>
      {({ id }) => (
        <Input
          id={id}
          type={extra.type ?? 'number'}
          inputMode={extra.inputMode ?? (extra.type === 'number' || !extra.type ? 'numeric' : undefined)}
          placeholder={extra.placeholder}
          maxLength={extra.maxLength}
          value={form[field]}
          invalid={invalid(field)}
          aria-describedby={described(field)}
          onChange={(e) => set(field, e.target.value)}
        />
      )}
    </Field>
  );
  const players = Number(form.maxPlayers);
  const clock = timeControlLabel(form.game, Number(form.matchMinutes));

  return (
    <div className="mx-auto w-full max-w-3xl px-3 pt-6 pb-16 sm:px-6 sm:pt-10" data-testid="create-tournament-page">
      <Link to="/tournaments" className="inline-flex items-center gap-1.5 text-sm font-semibold text-muted hover:text-fg">
        <ArrowLeft className="size-4" aria-hidden />
        {TOURNAMENT_VIEW.title}
      </Link>
      <h1 className="mt-2 flex items-center gap-3 text-3xl font-black sm:text-4xl">
        <Trophy className="size-8 text-warning" aria-hidden />
        Create tournament
      </h1>
      <form ref={formRef} onSubmit={(e) => void submit(e)} noValidate className="mt-6 space-y-5" data-testid="create-tournament-form">
        <Card className="grid gap-4 p-4 sm:grid-cols-2 sm:p-6">
          {textField('name', 'Name', {
            type: 'text',
            className: 'sm:col-span-2',
            placeholder: 'Friday Knockout',
            maxLength: TOURNAMENT_RULES.nameMax + 20,
          })}
          <Select label="Game" value={form.game} options={GAME_OPTIONS} onChange={(game) => set('game', game)} data-testid="create-game" />
          <Select
            label="Match length"
            value={form.matchMinutes}
            options={gameDurationPresets(form.game).map((m) => ({ value: String(m), label: `${m} minutes` }))}
            onChange={(minutes) => set('matchMinutes', minutes)}
            invalid={invalid('matchMinutes')}
            describedBy={described('matchMinutes')}
          />
          {clock && <p className="text-xs text-muted sm:col-span-2">{clockPerGame(clock)}</p>}
          {errorOf('matchMinutes')}
        </Card>

        <Card className="grid gap-4 p-4 sm:p-6">
          <Group label="Format" error={errorOf('format')}>
            <ChoiceCards
              label="Format"
              value={form.format}
              onChange={(format) => set('format', format)}
              choices={[
                {
                  value: 'knockout',
                  title: TOURNAMENT_VIEW.formats.knockout,
                  icon: <Swords className="size-4" aria-hidden />,
                  description: 'A bracket seeded by rating; lose and you are out.',
                },
                {
                  value: 'arena',
                  title: TOURNAMENT_VIEW.formats.arena,
                  icon: <Timer className="size-4" aria-hidden />,
                  description: 'Play as many games as you can until the time runs out.',
                },
              ]}
            />
          </Group>
          {arena ? (
            textField('arenaMinutes', 'Arena length (minutes)', {
              hint: `${TOURNAMENT_RULES.arenaMinutes.min} to ${TOURNAMENT_RULES.arenaMinutes.max} minutes`,
            })
          ) : (
            <Select
              label="Each pairing plays"
              value={form.matchFormat}
              options={MATCH_FORMAT_OPTIONS}
              onChange={(format) => set('matchFormat', format)}
            />
          )}
          <div className="grid grid-cols-2 gap-4">
            {textField('minPlayers', 'Minimum players')}
            {textField('maxPlayers', 'Maximum players')}
          </div>
          {textField('startsAt', 'Starts at', {
            hint: `At least ${TOURNAMENT_RULES.minLeadMinutes} minutes from now, so players can enter.`,
            type: 'datetime-local',
          })}
        </Card>

        <Card className="grid gap-4 p-4 sm:p-6">
          {sponsor && (
            <Group label="Entry" error={errorOf('entryKind')}>
              <ChoiceCards
                label="Entry"
                value={form.entryKind}
                onChange={(kind) => set('entryKind', kind)}
                choices={[
                  {
                    value: 'stake',
                    title: 'Entry stake',
                    icon: <Swords className="size-4" aria-hidden />,
                    description: 'Each player stakes into the pool.',
                  },
                  {
                    value: 'sponsored',
                    title: TOURNAMENT_VIEW.sponsored,
                    icon: <Gift className="size-4" aria-hidden />,
                    description: 'Free entry: you fund the prize now.',
                  },
                ]}
              />
            </Group>
          )}
          <div className="grid gap-4 sm:grid-cols-2">
            {currencies.length > 1 ? (
              <Select
                label="Currency"
                value={form.currency}
                options={currencies.map((c) => ({ value: c, label: currencyLabel(c) }))}
                onChange={(currency) => set('currency', currency)}
                invalid={invalid('currency')}
                describedBy={described('currency')}
                data-testid="create-currency"
              />
            ) : (
              <div className="grid gap-1.5">
                <p className="text-xs font-semibold tracking-wide text-muted uppercase">Currency</p>
                <p className="flex h-11 items-center font-bold">{currencyLabel(form.currency)}</p>
              </div>
            )}
            {textField('amount', form.entryKind === 'sponsored' ? 'Sponsored prize' : 'Entry stake', {
              hint:
                form.entryKind === 'sponsored'
                  ? `1 to ${TOURNAMENT_RULES.maxSponsoredPrize}, from your balance now`
                  : '1 to 1000 per player',
              type: 'number',
              inputMode: 'decimal',
            })}
          </div>
          {errorOf('currency')}
          <p className="text-sm text-muted" data-testid="create-prize-split">
            Prize split with a full field:{' '}
            <span className="font-bold text-fg">
              {describePrizeSplit(Number.isInteger(players) && players >= 1 ? players : TOURNAMENT_RULES.minPlayers)}
            </span>
            . No fee.
          </p>
        </Card>

        <div className="flex flex-wrap justify-end gap-2">
          <Button variant="ghost" asChild>
            <Link to="/tournaments">Cancel</Link>
          </Button>
          <Button type="submit" size="lg" loading={sending} data-testid="create-tournament-submit">
            Create tournament
          </Button>
        </div>
      </form>
    </div>
  );
}

type TextField = 'name' | 'amount' | 'minPlayers' | 'maxPlayers' | 'startsAt' | 'arenaMinutes';
interface TextFieldOptions {
  hint?: string;
  className?: string;
  type?: 'text' | 'number' | 'datetime-local';
  inputMode?: 'numeric' | 'decimal';
  placeholder?: string;
  maxLength?: number;
}

/** A labelled group of choices (the label names the radio group for screen readers already). */
function Group({ label, error, children }: { label: string; error: ReactNode; children: ReactNode }) {
  return (
    <div className="grid gap-1.5">
      <p className="text-xs font-semibold tracking-wide text-muted uppercase">{label}</p>
      {children}
      {error}
    </div>
  );
}
