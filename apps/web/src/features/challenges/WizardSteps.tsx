import { useId, useState } from 'react';
import { RadioGroup } from 'radix-ui';
import { AlarmClock, ChevronDown, Globe, Lock, TriangleAlert } from 'lucide-react';
import { clockPerGame, timeControlLabel } from '@versus/domain/arena';
import { CHALLENGE, CHALLENGE_RULES, type Currency } from '@versus/domain';
import {
  GAMES,
  GAME_LIST,
  PLATFORM_LABELS,
  QUICK_PICKS,
  gameDurationPresets,
  isValidStake,
  isWebGame,
  payoutFor,
  stakeTier,
  type GameId,
  type Platform,
} from '@versus/domain/catalogue';
import { currencySymbol, formatMoney, toMinor } from '@versus/domain/money';
import type { WalletFigures } from '../wallet/use-balance.ts';
import { ChoiceCards, Field, Input, cn } from '../../ui/index.ts';
import { ChipGroup } from './ChipGroup.tsx';
import { slotDay, slotFromNow, slotTime } from './schedule-format.ts';
import { GAME_ICONS, PLATFORM_ICONS, durationLabel, stakeMoney } from './visuals.ts';
import { chooseGame, draftPlatform, needsGamertag, parseStakeInput, type WizardDraft } from './wizard.ts';

export interface StepProps {
  draft: WizardDraft;
  onChange: (draft: WizardDraft) => void;
}

// ---------------------------------------------------------------------------------------
// 1. Choose Game

const DIFFICULTY_TONES = { Easy: 'text-success', Medium: 'text-warning', Hard: 'text-danger' } as const;

export function GameStep({ draft, onChange }: StepProps) {
  return (
    <RadioGroup.Root
      aria-label="Game"
      value={draft.game ?? ''}
      onValueChange={(game) => onChange(chooseGame(draft, game as GameId))}
      className="grid grid-cols-1 gap-2.5 sm:grid-cols-2 sm:gap-3"
      data-testid="games"
    >
      {GAME_LIST.map((game) => {
        const Icon = GAME_ICONS[game.id];
        return (
          <RadioGroup.Item
            key={game.id}
            value={game.id}
            className={cn(
              'group flex min-w-0 items-center gap-3 rounded-2xl border border-border bg-bg/50 p-3 text-left transition-[border-color,background-color,box-shadow]',
              'hover:border-accent/60 data-[state=checked]:border-accent data-[state=checked]:bg-surface-2 data-[state=checked]:shadow-glow',
            )}
          >
            <span className="grid size-11 shrink-0 place-items-center rounded-xl bg-surface-2 ring-1 ring-border group-data-[state=checked]:ring-accent/60">
              <Icon className="size-5 text-accent-2" aria-hidden />
            </span>
            <span className="flex min-w-0 flex-1 flex-col gap-0.5">
              <span className="truncate leading-tight font-bold">{game.name}</span>
              <span className="text-xs text-muted">
                {game.category} · {game.minTime}–{game.maxTime} min ·{' '}
                <span className={cn('font-semibold', DIFFICULTY_TONES[game.difficulty])}>{game.difficulty}</span>
              </span>
              <span className={cn('truncate text-xs font-semibold', game.kind === 'web' ? 'text-accent-2' : 'text-fg/75')}>
                {game.kind === 'web' ? 'Plays in your browser' : game.platforms.map((p) => PLATFORM_LABELS[p]).join(' · ')}
              </span>
            </span>
            <span
              aria-hidden
              className="inline-flex size-4 shrink-0 items-center justify-center rounded-full border border-border group-data-[state=checked]:border-accent"
            >
              <RadioGroup.Indicator className="size-2 rounded-full bg-accent" />
            </span>
          </RadioGroup.Item>
        );
      })}
    </RadioGroup.Root>
  );
}

// ---------------------------------------------------------------------------------------
// 2. Set Stakes

export interface StakeStepProps extends StepProps {
  currency: Currency;
  balance: WalletFigures | undefined;
}

export function StakeStep({ draft, onChange, currency, balance }: StakeStepProps) {
  const game = draft.game ? GAMES[draft.game] : null;
  const quick = QUICK_PICKS.some((p) => p.stake === draft.stake);
  const [custom, setCustom] = useState(() => (draft.stake !== null && !quick ? String(draft.stake) : ''));
  const customInvalid = custom.trim() !== '' && !isValidStake(parseStakeInput(custom) ?? Number.NaN);
  const stakeLabelId = useId();
  const durationLabelId = useId();
  const platformLabelId = useId();
  const short = balance !== undefined && draft.stake !== null && isValidStake(draft.stake) && balance.availableMinor < toMinor(draft.stake);
  const platform = draftPlatform(draft);
  const clock = game && draft.duration !== null ? timeControlLabel(game.id, draft.duration) : null;

  if (!game) return null;
  return (
    <div className="grid grid-cols-1 gap-7">
      <section aria-labelledby={stakeLabelId} className="grid grid-cols-1 gap-3">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 id={stakeLabelId} className="text-xs font-semibold tracking-wide text-muted uppercase">
            Stake
          </h3>
          {balance && (
            <p className="text-xs text-muted">
              Available: <span className="font-bold tabular-nums text-fg">{formatMoney(balance.availableMinor, balance.currency)}</span>
            </p>
          )}
        </div>
        <ChipGroup
          labelledBy={stakeLabelId}
          label="Stake"
          value={quick && draft.stake !== null ? String(draft.stake) : null}
          onChange={(value) => {
            setCustom('');
            onChange({ ...draft, stake: Number(value) });
          }}
          className="grid grid-cols-2 sm:grid-cols-4"
          chipClassName="justify-center text-center"
          data-testid="quick-picks"
          chips={QUICK_PICKS.map((pick) => ({
            value: String(pick.stake),
            label: <span className="text-base font-black tabular-nums">{stakeMoney(pick.stake, currency)}</span>,
            detail: pick.tier,
          }))}
        />
        <Field
          label="Custom amount"
          hint={`Whole amounts from ${currencySymbol(currency)}${CHALLENGE_RULES.minStake} to ${currencySymbol(currency)}${CHALLENGE_RULES.maxStake}`}
          error={
            customInvalid && (
              <p role="alert" className="text-xs font-semibold text-danger">
                {CHALLENGE.invalidStake}
              </p>
            )
          }
        >
          {({ id, hintId }) => (
            <Input
              id={id}
              type="number"
              inputMode="numeric"
              min={CHALLENGE_RULES.minStake}
              max={CHALLENGE_RULES.maxStake}
              step={1}
              placeholder="e.g. 75"
              aria-describedby={hintId}
              invalid={customInvalid}
              value={custom}
              onChange={(event) => {
                const text = event.target.value;
                setCustom(text);
                const stake = parseStakeInput(text);
                onChange({ ...draft, stake: text.trim() === '' ? null : stake !== null && isValidStake(stake) ? stake : null });
              }}
            />
          )}
        </Field>
        {draft.stake !== null && isValidStake(draft.stake) && (
          <dl className="grid grid-cols-3 gap-2 text-center" data-testid="stake-summary">
            <SummaryTile label="Tier" value={stakeTier(draft.stake)} />
            <SummaryTile label="Payout" value={stakeMoney(payoutFor(draft.stake), currency)} tone="text-success" />
            <SummaryTile label="Fee" value="FREE" tone="text-accent-2" />
          </dl>
        )}
        {short && (
          <p className="flex items-start gap-2 rounded-xl border border-warning/40 bg-warning/10 px-3 py-2 text-xs text-warning">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden />
            Your available balance is below this stake; the escrow lock will not go through.
          </p>
        )}
      </section>

      <section aria-labelledby={durationLabelId} className="grid grid-cols-1 gap-3">
        <h3 id={durationLabelId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Match length
        </h3>
        <ChipGroup
          labelledBy={durationLabelId}
          label="Match length"
          value={draft.duration !== null ? String(draft.duration) : null}
          onChange={(value) => onChange({ ...draft, duration: Number(value) })}
          data-testid="durations"
          chips={gameDurationPresets(game.id).map((minutes) => ({ value: String(minutes), label: durationLabel(minutes) }))}
        />
        {clock && (
          <p className="flex items-center gap-2 text-sm text-muted" aria-live="polite">
            <AlarmClock className="size-4 shrink-0 text-accent-2" aria-hidden />
            <span>
              Clock{' '}
              <strong className="text-fg" data-testid="wizard-time-control">
                {clockPerGame(clock)}
              </strong>
            </span>
          </p>
        )}
      </section>

      {!isWebGame(game.id) && (
        <section aria-labelledby={platformLabelId} className="grid grid-cols-1 gap-3">
          <h3 id={platformLabelId} className="text-xs font-semibold tracking-wide text-muted uppercase">
            Platform
          </h3>
          <ChipGroup<Platform>
            labelledBy={platformLabelId}
            label="Platform"
            value={draft.platform}
            onChange={(value) => onChange({ ...draft, platform: value })}
            data-testid="platforms"
            chips={game.platforms.map((p) => {
              const Icon = PLATFORM_ICONS[p];
              return { value: p, label: PLATFORM_LABELS[p], icon: <Icon aria-hidden /> };
            })}
          />
        </section>
      )}

      {needsGamertag(draft) && platform && (
        <Field label={`Your gamertag on ${PLATFORM_LABELS[platform]}`} hint="Your opponent adds you with it.">
          {({ id, hintId }) => (
            <Input
              id={id}
              aria-describedby={hintId}
              autoComplete="nickname"
              maxLength={64}
              placeholder="Gamertag or username"
              value={draft.gamertag}
              onChange={(event) => onChange({ ...draft, gamertag: event.target.value })}
            />
          )}
        </Field>
      )}
    </div>
  );
}

function SummaryTile({ label, value, tone }: { label: string; value: string; tone?: string }) {
  return (
    <div className="rounded-xl bg-surface-2/60 px-2 py-2.5">
      <dt className="text-[0.65rem] font-semibold tracking-wider text-muted uppercase">{label}</dt>
      <dd className={cn('mt-0.5 text-sm font-black tabular-nums sm:text-base', tone)}>{value}</dd>
    </div>
  );
}

// ---------------------------------------------------------------------------------------
// 3. Schedule

export interface ScheduleStepProps extends StepProps {
  slots: Date[];
  now: Date;
  virtual: boolean;
  rematchName: string | null;
}

export function ScheduleStep({ draft, onChange, slots, now, virtual, rematchName }: ScheduleStepProps) {
  const [showAll, setShowAll] = useState(() => {
    const chosen = slots.findIndex((s) => s.toISOString() === draft.scheduledTime);
    return chosen >= CHALLENGE_RULES.scheduleSlotsShown;
  });
  const timeLabelId = useId();
  const visibilityLabelId = useId();
  const messageId = useId();
  const counterId = useId();
  const shown = showAll ? slots : slots.slice(0, CHALLENGE_RULES.scheduleSlotsShown);
  const left = CHALLENGE_RULES.messageMax - draft.message.length;

  return (
    <div className="grid grid-cols-1 gap-7">
      <section aria-labelledby={timeLabelId} className="grid grid-cols-1 gap-3">
        <h3 id={timeLabelId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Match time
        </h3>
        <ChipGroup
          labelledBy={timeLabelId}
          label="Match time"
          value={draft.scheduledTime}
          onChange={(value) => onChange({ ...draft, scheduledTime: value })}
          className="grid grid-cols-2 sm:grid-cols-3"
          data-testid="slots"
          chips={shown.map((slot) => ({
            value: slot.toISOString(),
            label: (
              <span className="tabular-nums">
                {slotTime(slot)} <span className="font-medium whitespace-nowrap text-muted">· {slotDay(slot, now)}</span>
              </span>
            ),
            detail: slotFromNow(slot, now),
          }))}
        />
        {slots.length > CHALLENGE_RULES.scheduleSlotsShown && (
          <button
            type="button"
            aria-expanded={showAll}
            onClick={() => setShowAll((v) => !v)}
            className="inline-flex items-center gap-1 justify-self-start rounded-lg px-1 text-sm font-bold text-accent-2 hover:text-fg pointer-coarse:min-h-10"
          >
            {showAll ? 'Show fewer times' : `Show more times (${slots.length - CHALLENGE_RULES.scheduleSlotsShown} more)`}
            <ChevronDown className={cn('size-4 transition-transform', showAll && 'rotate-180')} aria-hidden />
          </button>
        )}
      </section>

      <div className="grid grid-cols-1 gap-1.5">
        <label htmlFor={messageId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Message (optional)
        </label>
        <textarea
          id={messageId}
          aria-describedby={counterId}
          maxLength={CHALLENGE_RULES.messageMax}
          rows={3}
          placeholder="Rules, house style, a friendly taunt…"
          value={draft.message}
          onChange={(event) => onChange({ ...draft, message: event.target.value.slice(0, CHALLENGE_RULES.messageMax) })}
          className="w-full resize-none rounded-xl border border-border bg-bg/60 px-3.5 py-2.5 text-[0.95rem] text-fg outline-none placeholder:text-muted/70 focus:border-accent focus:ring-4 focus:ring-accent/20"
        />
        <p
          id={counterId}
          data-testid="message-counter"
          className={cn('justify-self-end text-xs tabular-nums', left <= 20 ? 'text-warning' : 'text-muted')}
        >
          {draft.message.length}/{CHALLENGE_RULES.messageMax}
        </p>
      </div>

      <section aria-labelledby={visibilityLabelId} className="grid grid-cols-1 gap-3">
        <h3 id={visibilityLabelId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Visibility
        </h3>
        <ChoiceCards<'public' | 'private'>
          label="Visibility"
          value={draft.isPrivate ? 'private' : 'public'}
          // Virtual accounts create private challenges only (the server refuses public ones).
          onChange={(value) => onChange({ ...draft, isPrivate: virtual || value === 'private' })}
          className="grid-cols-1 sm:grid-cols-2"
          choices={[
            {
              value: 'public',
              title: 'Public',
              icon: <Globe className="size-4 text-accent-2" aria-hidden />,
              description: virtual ? 'Not available in Virtual Mode.' : 'Listed in the marketplace for anyone to accept.',
            },
            {
              value: 'private',
              title: 'Private',
              icon: <Lock className="size-4 text-accent" aria-hidden />,
              description: rematchName
                ? `You get a 6-character code to send to ${rematchName}.`
                : 'You get a 6-character code; only players with it can accept.',
            },
          ]}
        />
        {virtual && <p className="text-xs text-muted">{CHALLENGE.virtualPrivateOnly}</p>}
      </section>
    </div>
  );
}

// ---------------------------------------------------------------------------------------
// 4. Confirm

export function ConfirmStep({ draft, currency, rematchName }: { draft: WizardDraft; currency: Currency; rematchName: string | null }) {
  if (!draft.game || draft.stake === null || draft.duration === null) return null;
  const game = GAMES[draft.game];
  const Icon = GAME_ICONS[game.id];
  const platform = draftPlatform(draft);
  const at = draft.scheduledTime ? new Date(draft.scheduledTime) : null;
  const clock = timeControlLabel(game.id, draft.duration);
  const rows: [string, string][] = [
    ['Platform', platform ? PLATFORM_LABELS[platform] : '—'],
    ['Match format', CHALLENGE_RULES.matchFormat],
    ['Match length', durationLabel(draft.duration)],
    ...(clock ? [['Clock', clockPerGame(clock)] as [string, string]] : []),
    ['Starts', at ? `${slotTime(at)} · ${slotDay(at, new Date())}` : '—'],
    ['Visibility', draft.isPrivate ? 'Private (code)' : 'Public'],
  ];
  if (rematchName) rows.push(['Rematch against', rematchName]);
  if (draft.gamertag.trim() && needsGamertag(draft)) rows.push(['Your gamertag', draft.gamertag.trim()]);

  return (
    <div className="grid grid-cols-1 gap-5" data-testid="confirm-summary">
      <div className="flex items-center gap-4 rounded-2xl border border-border bg-linear-to-br from-accent/20 via-surface-2/40 to-accent-2/10 p-4">
        <span className="grid size-12 shrink-0 place-items-center rounded-xl bg-bg/60 ring-1 ring-accent/40">
          <Icon className="size-6 text-accent-2" aria-hidden />
        </span>
        <div className="min-w-0">
          <p className="text-xs font-bold tracking-[0.18em] text-accent-2 uppercase">{game.category}</p>
          <p className="truncate text-lg font-black">{game.name} Challenge</p>
        </div>
      </div>
      <dl className="grid grid-cols-3 gap-2 text-center">
        <SummaryTile label="Stake" value={stakeMoney(draft.stake, currency)} />
        <SummaryTile label="Payout" value={stakeMoney(payoutFor(draft.stake), currency)} tone="text-success" />
        <SummaryTile label="Fee" value="FREE" tone="text-accent-2" />
      </dl>
      <dl className="divide-y divide-border/60 rounded-2xl border border-border bg-bg/40 text-sm">
        {rows.map(([label, value]) => (
          <div key={label} className="flex items-center justify-between gap-4 px-4 py-2.5">
            <dt className="text-muted">{label}</dt>
            <dd className="text-right font-semibold">{value}</dd>
          </div>
        ))}
        {draft.message.trim() && (
          <div className="grid gap-1 px-4 py-2.5">
            <dt className="text-muted">Message</dt>
            <dd className="break-words">{draft.message.trim()}</dd>
          </div>
        )}
      </dl>
      <p className="flex items-start gap-2 text-xs text-muted">
        <Lock className="mt-0.5 size-3.5 shrink-0" aria-hidden />
        Your {stakeMoney(draft.stake, currency)} stake is locked in escrow when you launch, and returned if the challenge is cancelled or
        expires before anyone accepts it.
      </p>
    </div>
  );
}
