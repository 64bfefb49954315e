import { useRef, type FocusEvent, type KeyboardEvent, type PointerEvent } from 'react';
import clsx from 'clsx';
import { Pause, Play } from 'lucide-react';
import { SHELL } from '@versus/domain';
import { swipeStep } from './carousel.ts';
import { GATE_HIGHLIGHTS, GATE_TEXT, type HighlightTone } from './gate.content.ts';
import { useCarousel } from './use-carousel.ts';

// Full class names, so Tailwind sees every one of them.
const TONE: Record<HighlightTone, { icon: string; orb: string; chip: string; dot: string }> = {
  accent: {
    icon: 'text-accent',
    orb: 'bg-accent/15 ring-accent/40 shadow-glow',
    chip: 'border-accent/30 bg-accent/10 text-fg',
    dot: 'bg-accent',
  },
  'accent-2': {
    icon: 'text-accent-2',
    orb: 'bg-accent-2/15 ring-accent-2/40 shadow-glow-cyan',
    chip: 'border-accent-2/30 bg-accent-2/10 text-fg',
    dot: 'bg-accent-2',
  },
  warning: {
    icon: 'text-warning',
    orb: 'bg-warning/15 ring-warning/40 shadow-lg shadow-warning/20',
    chip: 'border-warning/30 bg-warning/10 text-fg',
    dot: 'bg-warning',
  },
  success: {
    icon: 'text-success',
    orb: 'bg-success/15 ring-success/40 shadow-lg shadow-success/20',
    chip: 'border-success/30 bg-success/10 text-fg',
    dot: 'bg-success',
  },
};

/** The four gate highlights; hover, keyboard focus or the pause button hold the auto-advance. */
export function GateCarousel({ className }: { className?: string }) {
  const slides = GATE_HIGHLIGHTS;
  const carousel = useCarousel(slides.length, SHELL.carouselIntervalMs);
  const swipeStart = useRef<{ id: number; x: number; y: number } | null>(null);

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.pointerType === 'mouse' && event.button !== 0) return;
    swipeStart.current = { id: event.pointerId, x: event.clientX, y: event.clientY };
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const start = swipeStart.current;
    swipeStart.current = null;
    if (!start || start.id !== event.pointerId) return;
    const step = swipeStep(event.clientX - start.x, event.clientY - start.y, SHELL.swipeThresholdPx);
    if (step === 1) carousel.next();
    if (step === -1) carousel.previous();
  };
  const onPointerCancel = () => {
    swipeStart.current = null;
  };

  // Only keyboard focus holds the rotation: a tap on a dot must not stop it for good.
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    if (event.target.matches(':focus-visible')) carousel.setFocused(true);
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    if (!event.currentTarget.contains(event.relatedTarget)) carousel.setFocused(false);
  };

  const onDotsKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    event.preventDefault();
    const target = event.key === 'ArrowRight' ? carousel.index + 1 : carousel.index - 1;
    const count = slides.length;
    const i = ((target % count) + count) % count;
    carousel.select(i);
    event.currentTarget.querySelectorAll<HTMLButtonElement>('button[data-dot]')[i]?.focus();
  };

  return (
    <section
      aria-roledescription="carousel"
      aria-label={GATE_TEXT.highlightsLabel}
      data-testid="gate-carousel"
      data-paused={carousel.paused ? 'true' : 'false'}
      className={clsx('glass relative overflow-hidden rounded-3xl p-5 sm:p-7', className)}
      onPointerEnter={(e) => e.pointerType === 'mouse' && carousel.setHovered(true)}
      onPointerLeave={(e) => e.pointerType === 'mouse' && carousel.setHovered(false)}
      onFocus={onFocus}
      onBlur={onBlur}
    >
      <h2 className="sr-only">{GATE_TEXT.highlightsLabel}</h2>
      <div
        className="grid touch-pan-y select-none"
        aria-live={carousel.paused ? 'polite' : 'off'}
        onPointerDown={onPointerDown}
        onPointerUp={onPointerUp}
        onPointerCancel={onPointerCancel}
      >
        {slides.map((slide, i) => {
          const active = i === carousel.index;
          const tone = TONE[slide.tone];
          const Icon = slide.icon;
          return (
            <div
              key={slide.id}
              role="group"
              aria-roledescription="slide"
              aria-label={`${GATE_TEXT.slideOf(i + 1, slides.length)}: ${slide.title}`}
              aria-hidden={active ? undefined : true}
              inert={!active}
              data-active={active ? 'true' : 'false'}
              className={clsx(
                '[grid-area:1/1] flex flex-col gap-5 sm:flex-row sm:items-start sm:gap-6',
                'motion-safe:transition-[opacity,translate] motion-safe:duration-500 motion-safe:ease-out',
                active ? 'translate-x-0 opacity-100' : 'pointer-events-none opacity-0 motion-safe:translate-x-6',
              )}
            >
              <div aria-hidden="true" className={clsx('grid size-16 shrink-0 place-items-center rounded-2xl ring-1 sm:size-20', tone.orb)}>
                <Icon className={clsx('size-8 sm:size-10', tone.icon)} strokeWidth={1.75} />
              </div>
              <div className="min-w-0">
                <p className={clsx('text-xs font-bold uppercase tracking-[0.2em]', tone.icon)}>{slide.tagline}</p>
                <h3 className="mt-1 font-display text-2xl font-black text-fg sm:text-3xl">{slide.title}</h3>
                <p className="mt-2 text-sm leading-relaxed text-muted sm:text-base">{slide.description}</p>
                <ul className="mt-4 flex flex-wrap gap-2">
                  {slide.chips.map((chip) => (
                    <li key={chip} className={clsx('rounded-full border px-3 py-1 text-xs font-semibold', tone.chip)}>
                      {chip}
                    </li>
                  ))}
                </ul>
              </div>
            </div>
          );
        })}
      </div>

      <div className="mt-6 flex items-center justify-between gap-4">
        <div className="flex items-center gap-1" role="group" aria-label={GATE_TEXT.highlightsLabel} onKeyDown={onDotsKeyDown}>
          {slides.map((slide, i) => {
            const active = i === carousel.index;
            return (
              <button
                key={slide.id}
                type="button"
                data-dot
                aria-label={GATE_TEXT.showSlide(i + 1, slide.title)}
                aria-current={active ? 'true' : undefined}
                tabIndex={active ? 0 : -1}
                onClick={() => carousel.select(i)}
                className="group grid h-8 place-items-center rounded-full px-1.5"
              >
                <span
                  className={clsx(
                    'relative block h-2 overflow-hidden rounded-full motion-safe:transition-all motion-safe:duration-300',
                    active ? 'w-10 bg-surface-2 ring-1 ring-border' : 'w-2 bg-muted/40 group-hover:bg-muted/70',
                  )}
                >
                  {active && (
                    <span
                      // Re-keyed on every slide change and pause, so the fill restarts with the timer.
                      key={`${carousel.index}-${carousel.paused ? 'held' : 'running'}`}
                      style={{ transitionDuration: `${SHELL.carouselIntervalMs}ms` }}
                      className={clsx(
                        'absolute inset-0 origin-left rounded-full',
                        TONE[slide.tone].dot,
                        carousel.paused
                          ? 'scale-x-100'
                          : 'motion-safe:scale-x-100 motion-safe:transition-transform motion-safe:ease-linear motion-safe:starting:scale-x-0',
                      )}
                    />
                  )}
                </span>
              </button>
            );
          })}
        </div>
        <button
          type="button"
          onClick={carousel.toggleUserPaused}
          aria-label={carousel.userPaused ? GATE_TEXT.play : GATE_TEXT.pause}
          className="grid size-9 place-items-center rounded-full border border-border/70 text-muted hover:border-accent/50 hover:text-fg"
        >
          {carousel.userPaused ? <Play className="size-4" aria-hidden="true" /> : <Pause className="size-4" aria-hidden="true" />}
        </button>
      </div>
    </section>
  );
}
