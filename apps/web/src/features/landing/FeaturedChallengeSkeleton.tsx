import { SHELL_TEXT } from '@versus/domain';

/** Stands in for a featured card while its code loads. */
export function FeaturedChallengeSkeleton() {
  return (
    <div
      role="status"
      className="glass relative grid min-h-[13.5rem] place-items-center overflow-hidden rounded-2xl"
      data-testid="featured-challenge-loading"
    >
      <span
        aria-hidden="true"
        className="absolute inset-y-0 left-0 w-1/3 bg-linear-to-r from-transparent via-fg/5 to-transparent motion-safe:animate-shimmer"
      />
      <span className="text-sm font-semibold text-muted">{SHELL_TEXT.loadingChallenge}</span>
    </div>
  );
}
