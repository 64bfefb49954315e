import { Crosshair, Gamepad2, Monitor, Target, Timer } from 'lucide-react';
import { CHALLENGE_RULES } from '@versus/domain';
import { formatCredits, payoutFor } from './format.ts';
import { LANDING_TEXT, type FeaturedChallenge } from './landing.content.ts';

const GAME_ICONS: Record<string, typeof Gamepad2> = { fortnite: Target, valorant: Crosshair };

/** One featured challenge: game, stake, payout at 2× the stake and no fee. Loaded on demand. */
export default function FeaturedChallengeCard({ challenge }: { challenge: FeaturedChallenge }) {
  const Icon = GAME_ICONS[challenge.game.toLowerCase()] ?? Gamepad2;
  return (
    <article
      data-testid="featured-challenge"
      aria-labelledby={`${challenge.id}-title`}
      className="glass group relative overflow-hidden rounded-2xl motion-safe:transition motion-safe:duration-300 hover:border-accent/60 hover:shadow-glow motion-safe:hover:-translate-y-0.5"
    >
      <div className="relative flex items-center gap-4 overflow-hidden border-b border-border/70 bg-linear-to-br from-accent/25 via-surface-2/40 to-accent-2/15 p-5">
        <div
          aria-hidden="true"
          className="absolute -bottom-5 right-3 font-display text-7xl leading-none font-black italic text-fg/5 select-none"
        >
          VS
        </div>
        <div className="grid size-12 shrink-0 place-items-center rounded-xl bg-bg/60 ring-1 ring-accent/40">
          <Icon className="size-6 text-accent-2" aria-hidden="true" />
        </div>
        <div className="min-w-0">
          <p className="text-xs font-bold uppercase tracking-[0.18em] text-accent-2">{challenge.game}</p>
          <h3 id={`${challenge.id}-title`} className="truncate font-display text-lg font-black text-fg">
            {challenge.title}
          </h3>
        </div>
      </div>
      <div className="p-5">
        <div className="flex flex-wrap gap-2 text-xs font-semibold text-muted">
          <span className="inline-flex items-center gap-1 rounded-full border border-border/70 px-2.5 py-1">
            <Monitor className="size-3.5" aria-hidden="true" />
            {challenge.platform}
          </span>
          <span className="inline-flex items-center gap-1 rounded-full border border-border/70 px-2.5 py-1">
            <Timer className="size-3.5" aria-hidden="true" />
            {CHALLENGE_RULES.matchFormat}
          </span>
        </div>
        <dl className="mt-4 grid grid-cols-3 gap-2 text-center">
          <div className="rounded-xl bg-surface-2/60 px-2 py-3">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wider text-muted">{LANDING_TEXT.stake}</dt>
            <dd className="mt-1 font-display text-base font-black tabular-nums text-fg sm:text-lg">{formatCredits(challenge.stake)}</dd>
          </div>
          <div className="rounded-xl bg-surface-2/60 px-2 py-3">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wider text-muted">{LANDING_TEXT.payout}</dt>
            <dd className="mt-1 font-display text-base font-black tabular-nums text-success sm:text-lg">
              {formatCredits(payoutFor(challenge.stake))}
            </dd>
          </div>
          <div className="rounded-xl bg-surface-2/60 px-2 py-3">
            <dt className="text-[0.7rem] font-semibold uppercase tracking-wider text-muted">{LANDING_TEXT.fee}</dt>
            <dd className="mt-1 font-display text-base font-black text-accent-2 sm:text-lg">{LANDING_TEXT.free}</dd>
          </div>
        </dl>
      </div>
    </article>
  );
}
