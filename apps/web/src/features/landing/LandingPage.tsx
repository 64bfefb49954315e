import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import clsx from 'clsx';
import { ArrowRight, BookOpen, Swords, Trophy, Users, type LucideIcon } from 'lucide-react';
import { PRODUCT_NAME, TAGLINE } from '@versus/domain';
import { FeaturedChallengeSkeleton } from './FeaturedChallengeSkeleton.tsx';
import { formatCount } from './format.ts';
import {
  FEATURE_CARDS,
  GUIDE_STEPS,
  LANDING_TEXT,
  SAMPLE_FEATURED_CHALLENGES,
  type FeaturedChallenge,
  type Tone,
} from './landing.content.ts';
import { TONE_CLASSES } from './tones.ts';
import { useSimulatedStats } from './use-simulated-stats.ts';

export type { FeaturedChallenge } from './landing.content.ts';

const FeaturedChallengeCard = lazy(() => import('./FeaturedChallengeCard.tsx'));

const GUIDE_ID = 'how-it-works';

export interface LandingPageProps {
  /** Defaults to the two hard-coded samples of SPEC §1. */
  featured?: FeaturedChallenge[];
}

/** The signed-in home page (SPEC §1 landing). */
export function LandingPage({ featured = SAMPLE_FEATURED_CHALLENGES }: LandingPageProps) {
  const [tagStart, tagLast] = splitLastWord(TAGLINE);

  // SPEC gives this button no route; it brings the in-page guide into view.
  const showGuide = () => {
    const smooth = !window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    document.getElementById(GUIDE_ID)?.scrollIntoView({ behavior: smooth ? 'smooth' : 'auto', block: 'start' });
  };

  return (
    <div className="relative isolate" data-testid="landing-page">
      <div aria-hidden="true" className="pointer-events-none absolute inset-x-0 top-0 -z-10 h-[36rem] overflow-hidden">
        <div className="absolute -top-40 left-[8%] size-[32rem] rounded-full bg-accent/20 blur-3xl" />
        <div className="absolute -top-24 right-[4%] size-[26rem] rounded-full bg-accent-2/10 blur-3xl" />
      </div>

      <div className="mx-auto w-full max-w-6xl px-4 pb-20 pt-10 sm:px-6 sm:pt-14 lg:px-8 lg:pt-20">
        {/* Hero */}
        <section aria-labelledby="landing-title" className="grid items-center gap-10 lg:grid-cols-[minmax(0,1.35fr)_minmax(0,1fr)]">
          <div>
            <p className="inline-flex items-center gap-2 rounded-full border border-accent/40 bg-accent/10 px-3 py-1 text-[0.65rem] font-bold uppercase tracking-[0.14em] text-accent sm:text-xs sm:tracking-[0.2em]">
              <span className="font-display font-black text-fg">{PRODUCT_NAME}</span>
              <span aria-hidden="true" className="h-3 w-px bg-accent/40" />
              {LANDING_TEXT.eyebrow}
            </p>
            <h1 id="landing-title" className="mt-6 font-display text-5xl leading-[0.95] font-black text-fg sm:text-6xl lg:text-7xl">
              {tagStart} <span className="text-brand">{tagLast}</span>
            </h1>
            <p className="mt-6 max-w-xl text-base leading-relaxed text-muted sm:text-lg">{LANDING_TEXT.intro}</p>
            <div className="mt-8 flex flex-col gap-3 sm:flex-row">
              <Link
                to="/marketplace"
                className="bg-brand inline-flex h-12 items-center justify-center gap-2 rounded-xl px-6 font-bold text-accent-fg shadow-glow hover:brightness-110 motion-safe:transition"
              >
                <Swords className="size-5" aria-hidden="true" />
                {LANDING_TEXT.browseChallenges}
              </Link>
              <button
                type="button"
                onClick={showGuide}
                className="inline-flex h-12 items-center justify-center gap-2 rounded-xl border border-border bg-surface/60 px-6 font-bold text-fg hover:border-accent-2/60 hover:bg-surface-2 motion-safe:transition"
              >
                <BookOpen className="size-5" aria-hidden="true" />
                {LANDING_TEXT.howItWorks}
              </button>
              <Link
                to="/tournaments"
                data-testid="landing-tournaments"
                className="inline-flex h-12 items-center justify-center gap-2 rounded-xl border border-border bg-surface/60 px-6 font-bold text-fg hover:border-accent-2/60 hover:bg-surface-2 motion-safe:transition"
              >
                <Trophy className="size-5" aria-hidden="true" />
                {LANDING_TEXT.tournaments}
              </Link>
            </div>
          </div>
          <LiveStats />
        </section>

        {/* Feature cards */}
        <section aria-labelledby="landing-features" className="mt-20 sm:mt-24">
          <h2 id="landing-features" className="font-display text-2xl font-black text-fg sm:text-3xl">
            {LANDING_TEXT.featuresTitle}
          </h2>
          <ul className="mt-6 grid gap-4 md:grid-cols-3">
            {FEATURE_CARDS.map((card) => {
              const tone = TONE_CLASSES[card.tone];
              const Icon = card.icon;
              return (
                <li
                  key={card.title}
                  className={clsx(
                    'glass group relative overflow-hidden rounded-2xl p-6 motion-safe:transition motion-safe:duration-300 motion-safe:hover:-translate-y-0.5',
                    tone.border,
                  )}
                >
                  <div aria-hidden="true" className={clsx('absolute -right-10 -top-10 size-32 rounded-full blur-2xl', tone.glow)} />
                  <div className={clsx('relative grid size-12 place-items-center rounded-xl ring-1', tone.tile)}>
                    <Icon className={clsx('size-6', tone.text)} aria-hidden="true" />
                  </div>
                  <h3 className="relative mt-5 font-display text-xl font-black text-fg">{card.title}</h3>
                  <p className="relative mt-2 text-sm leading-relaxed text-muted">{card.description}</p>
                </li>
              );
            })}
          </ul>
        </section>

        {/* Featured challenges */}
        <section aria-labelledby="landing-featured" className="mt-20 sm:mt-24">
          <div className="flex flex-wrap items-end justify-between gap-4">
            <div>
              <h2 id="landing-featured" className="font-display text-2xl font-black text-fg sm:text-3xl">
                {LANDING_TEXT.featuredTitle}
              </h2>
              <p className="mt-1 text-sm text-muted">{LANDING_TEXT.featuredIntro}</p>
            </div>
            <Link
              to="/marketplace"
              className="group inline-flex items-center gap-1.5 rounded-lg px-1 text-sm font-bold text-accent-2 hover:text-fg"
            >
              {LANDING_TEXT.viewAll}
              <ArrowRight className="size-4 motion-safe:transition-transform motion-safe:group-hover:translate-x-0.5" aria-hidden="true" />
            </Link>
          </div>
          <ul className="mt-6 grid gap-4 md:grid-cols-2">
            {featured.map((challenge) => (
              <li key={challenge.id}>
                <Suspense fallback={<FeaturedChallengeSkeleton />}>
                  <FeaturedChallengeCard challenge={challenge} />
                </Suspense>
              </li>
            ))}
          </ul>
        </section>

        {/* Three-step guide */}
        <section id={GUIDE_ID} aria-labelledby="landing-guide" className="mt-20 scroll-mt-24 sm:mt-24">
          <h2 id="landing-guide" className="font-display text-2xl font-black text-fg sm:text-3xl">
            {LANDING_TEXT.guideTitle}
          </h2>
          <p className="mt-1 text-sm text-muted">{LANDING_TEXT.guideIntro}</p>
          <ol className="relative mt-6 grid gap-4 md:grid-cols-3">
            {GUIDE_STEPS.map((step) => (
              <li key={step.number} className="glass relative overflow-hidden rounded-2xl p-6">
                <span
                  aria-hidden="true"
                  className="pointer-events-none absolute -bottom-4 right-3 font-display text-7xl leading-none font-black text-accent/10 select-none"
                >
                  {step.number}
                </span>
                <h3 className="relative font-display text-xl font-black text-fg">
                  <span className="text-brand mr-2 tabular-nums">{step.number}</span>
                  {step.title}
                </h3>
                <p className="relative mt-2 text-sm leading-relaxed text-muted">{step.description}</p>
              </li>
            ))}
          </ol>
        </section>
      </div>
    </div>
  );
}

function splitLastWord(text: string): [string, string] {
  const i = text.trimEnd().lastIndexOf(' ');
  return i < 0 ? ['', text] : [text.slice(0, i), text.slice(i + 1)];
}

interface StatTileProps {
  label: string;
  value: string;
  icon: LucideIcon;
  tone: Tone;
  testId: string;
}

function LiveStats() {
  const stats = useSimulatedStats();
  return (
    <section aria-labelledby="landing-stats" className="glass rounded-3xl p-4 shadow-glow sm:p-6">
      <div className="flex items-center justify-between gap-3">
        <h2 id="landing-stats" className="text-xs font-bold uppercase tracking-[0.2em] text-muted">
          {LANDING_TEXT.statsLabel}
        </h2>
        <span className="inline-flex shrink-0 items-center gap-1.5 rounded-full border border-success/40 bg-success/10 px-2.5 py-0.5 text-xs font-bold whitespace-nowrap text-success">
          <span aria-hidden="true" className="size-1.5 rounded-full bg-success motion-safe:animate-live-pulse" />
          {LANDING_TEXT.liveNow}
        </span>
      </div>
      <ul className="mt-4 grid grid-cols-3 gap-2 sm:gap-3 lg:grid-cols-1">
        <StatTile
          label={LANDING_TEXT.onlinePlayers}
          value={formatCount(stats.onlinePlayers)}
          icon={Users}
          tone="success"
          testId="stat-online-players"
        />
        <StatTile
          label={LANDING_TEXT.activeChallenges}
          value={formatCount(stats.activeChallenges)}
          icon={Swords}
          tone="accent"
          testId="stat-active-challenges"
        />
        <StatTile
          label={LANDING_TEXT.prizePool}
          value={`$${formatCount(stats.prizePool)}`}
          icon={Trophy}
          tone="warning"
          testId="stat-prize-pool"
        />
      </ul>
    </section>
  );
}

function StatTile({ label, value, icon: Icon, tone, testId }: StatTileProps) {
  const classes = TONE_CLASSES[tone];
  return (
    <li className="flex flex-col gap-2 rounded-2xl bg-surface-2/50 p-3 ring-1 ring-border/60 lg:flex-row lg:items-center lg:gap-4 lg:p-4">
      <div className={clsx('grid size-9 shrink-0 place-items-center rounded-lg ring-1 lg:size-11', classes.tile)}>
        <Icon className={clsx('size-4 lg:size-5', classes.text)} aria-hidden="true" />
      </div>
      <div className="flex min-w-0 flex-col-reverse">
        <p className="text-[0.65rem] leading-tight font-semibold uppercase tracking-wide text-muted sm:text-xs sm:tracking-wider">
          {label}
        </p>
        <p data-testid={testId} className="font-display text-lg font-black tabular-nums text-fg sm:text-2xl lg:text-3xl">
          {value}
        </p>
      </div>
    </li>
  );
}
