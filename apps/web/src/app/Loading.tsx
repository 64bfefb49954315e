import { PRODUCT_NAME, SHELL_TEXT } from '@versus/domain';
import { Spinner } from '../ui/Button.tsx';

/** A screen's code or data is on its way. */
export function RouteLoading({ text = SHELL_TEXT.loading(PRODUCT_NAME) }: { text?: string }) {
  return (
    <div className="flex min-h-[60vh] flex-col items-center justify-center gap-4 text-muted" role="status" aria-live="polite">
      <Spinner className="size-8 text-accent" />
      <p className="text-sm font-medium">{text}</p>
    </div>
  );
}

/** SPEC §2: while the auth state loads. */
export function CheckingAuth() {
  return <RouteLoading text={SHELL_TEXT.checkingAuth} />;
}
