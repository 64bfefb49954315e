import { createElement, lazy, type ComponentType, type JSX } from 'react';

export interface LazyPage<P extends object> {
  (props: P): JSX.Element;
  /** Fetch the screen's code ahead of time (route preloading). */
  preload(): void;
}

/** Unlike a bare React.lazy, a failed chunk download is not remembered, so Try Again fetches it again. */
export function lazyPage<P extends object>(load: () => Promise<{ default: ComponentType<P> }>): LazyPage<P> {
  const make = () =>
    lazy(() =>
      load().catch((error: unknown) => {
        Current = make();
        throw error;
      }),
    );
  let Current = make();
  const Page = ((props: P) => createElement(Current, props)) as LazyPage<P>;
  Page.preload = () => {
    load().catch((error: unknown) => console.debug('Preloading a screen failed', error));
  };
  return Page;
}
