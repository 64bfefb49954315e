import { Component, type ErrorInfo, type ReactNode } from 'react';
import { AlertTriangle, RefreshCw, RotateCcw, WifiOff } from 'lucide-react';
import { ERROR_BOUNDARY, SHELL } from '@versus/domain';
import { Button } from '../ui/Button.tsx';
import { Card } from '../ui/Card.tsx';
import { autoRetryDelayMs, boundaryErrorKind, canTryAgain, type BoundaryErrorKind } from './error-retry.ts';

interface Props {
  children: ReactNode;
  /** A compact stand-in instead of the full-page card (for a piece of the header). */
  fallback?: (retry: () => void) => ReactNode;
  /** When this changes (the route), a shown error is cleared and the count starts over. */
  resetKey?: string;
}

interface State {
  error: Error | null;
  kind: BoundaryErrorKind;
  retryCount: number;
  resetKey: string | undefined;
}

/** Catches render errors below it and offers Try Again and Reload Page (SPEC §8 Other). */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null, kind: 'other', retryCount: 0, resetKey: this.props.resetKey };
  private timer: ReturnType<typeof setTimeout> | undefined;

  static getDerivedStateFromError(error: unknown): Partial<State> {
    const normalised = error instanceof Error ? error : new Error(String(error));
    return { error: normalised, kind: boundaryErrorKind(error) };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    if (props.resetKey !== state.resetKey) return { resetKey: props.resetKey, error: null, retryCount: 0 };
    return null;
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Screen failed to render', error, info.componentStack);
    this.scheduleAutoRetry();
  }

  override componentDidUpdate(): void {
    if (this.state.error) {
      this.scheduleAutoRetry();
    } else if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  override componentWillUnmount(): void {
    clearTimeout(this.timer);
  }

  private scheduleAutoRetry(): void {
    if (!this.state.error || this.timer !== undefined) return;
    const delay = autoRetryDelayMs(this.state.kind, this.state.retryCount);
    if (delay === null) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.retry();
    }, delay);
  }

  private retry = (): void => {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.setState((state) => ({ error: null, retryCount: state.retryCount + 1 }));
  };

  override render(): ReactNode {
    const { error, kind, retryCount } = this.state;
    if (!error) return this.props.children;
    if (this.props.fallback) return this.props.fallback(this.retry);
    return (
      <ErrorFallback
        error={error}
        kind={kind}
        retryCount={retryCount}
        onTryAgain={canTryAgain(kind, retryCount) ? this.retry : undefined}
        autoRetryMs={autoRetryDelayMs(kind, retryCount)}
      />
    );
  }
}

export interface ErrorFallbackProps {
  error: Error;
  kind: BoundaryErrorKind;
  retryCount: number;
  /** Absent: Try Again is shown disabled. */
  onTryAgain?: () => void;
  autoRetryMs?: number | null;
}

export function ErrorFallback({ error, kind, retryCount, onTryAgain, autoRetryMs }: ErrorFallbackProps) {
  const network = kind === 'network';
  const copy = network ? ERROR_BOUNDARY.network : ERROR_BOUNDARY.other;
  const Icon = network ? WifiOff : AlertTriangle;
  return (
    <div role="alert" className="mx-auto flex min-h-[60vh] w-full max-w-lg items-center px-4 py-10">
      <Card className="w-full p-6 text-center sm:p-8">
        <div
          className={
            network
              ? 'mx-auto mb-5 inline-flex size-16 items-center justify-center rounded-2xl bg-warning/15 text-warning ring-1 ring-warning/40'
              : 'mx-auto mb-5 inline-flex size-16 items-center justify-center rounded-2xl bg-danger/15 text-danger ring-1 ring-danger/40'
          }
        >
          <Icon className="size-8" aria-hidden />
        </div>
        <h1 className="text-2xl font-extrabold">{copy.title}</h1>
        <p className="mt-2 text-fg/90">{copy.text}</p>
        <p className="mt-1 text-sm text-muted">{copy.hint}</p>
        {network && retryCount > 0 && (
          <p className="mt-4 text-sm font-semibold text-warning">{ERROR_BOUNDARY.network.attempt(retryCount, SHELL.errorRetryCap)}</p>
        )}
        {network && autoRetryMs != null && (
          <p className="mt-1 text-xs text-muted">Retrying automatically in {Math.round(autoRetryMs / 1000)} s</p>
        )}
        <div className="mt-6 flex flex-col justify-center gap-3 sm:flex-row">
          <Button onClick={onTryAgain} disabled={!onTryAgain} variant="primary">
            <RotateCcw className="size-4" aria-hidden />
            {ERROR_BOUNDARY.tryAgain}
          </Button>
          <Button onClick={() => window.location.reload()} variant="secondary">
            <RefreshCw className="size-4" aria-hidden />
            {ERROR_BOUNDARY.reload}
          </Button>
        </div>
        <details className="mt-6 rounded-xl border border-border bg-bg/50 p-3 text-left text-xs">
          <summary className="cursor-pointer font-semibold text-muted">{network ? 'Technical details' : 'Error details'}</summary>
          <pre className="selectable mt-2 max-h-48 overflow-auto font-mono break-words whitespace-pre-wrap text-muted">
            {error.name}: {error.message}
          </pre>
        </details>
      </Card>
    </div>
  );
}
