import { forwardRef, useId, useState, type InputHTMLAttributes, type ReactNode } from 'react';
import { Eye, EyeOff } from 'lucide-react';
import { cn } from './cn.ts';

const INPUT =
  'h-11 w-full rounded-xl border bg-bg/60 px-3.5 text-[0.95rem] text-fg placeholder:text-muted/70 transition-[border-color,box-shadow] outline-none ' +
  'focus:border-accent focus:ring-4 focus:ring-accent/20 disabled:opacity-60';

export interface InputProps extends InputHTMLAttributes<HTMLInputElement> {
  invalid?: boolean;
  /** An icon inside the field, on the left. */
  icon?: ReactNode;
}

export const Input = forwardRef<HTMLInputElement, InputProps>(function Input({ invalid, icon, className, ...props }, ref) {
  return (
    <div className="relative">
      {icon && <span className="pointer-events-none absolute top-1/2 left-3.5 -translate-y-1/2 text-muted [&>svg]:size-4">{icon}</span>}
      <input
        ref={ref}
        aria-invalid={invalid || undefined}
        className={cn(INPUT, invalid ? 'border-danger ring-4 ring-danger/15' : 'border-border', icon && 'pl-10', className)}
        {...props}
      />
    </div>
  );
});

/** A password input with a show/hide toggle. */
export const PasswordInput = forwardRef<HTMLInputElement, Omit<InputProps, 'type'>>(function PasswordInput(
  { invalid, className, ...props },
  ref,
) {
  const [visible, setVisible] = useState(false);
  return (
    <div className="relative">
      <input
        ref={ref}
        type={visible ? 'text' : 'password'}
        aria-invalid={invalid || undefined}
        className={cn(INPUT, 'pr-12', invalid ? 'border-danger ring-4 ring-danger/15' : 'border-border', className)}
        {...props}
      />
      <button
        type="button"
        onClick={() => setVisible((v) => !v)}
        aria-label={visible ? 'Hide password' : 'Show password'}
        aria-pressed={visible}
        className="absolute top-1/2 right-1.5 inline-flex size-9 -translate-y-1/2 pointer-coarse:size-10 items-center justify-center rounded-lg text-muted hover:bg-surface-2 hover:text-fg"
      >
        {visible ? <EyeOff className="size-4" aria-hidden /> : <Eye className="size-4" aria-hidden />}
      </button>
    </div>
  );
});

export interface FieldProps {
  label: ReactNode;
  /** Render prop receiving the input id and the describedby id. */
  children: (ids: { id: string; hintId: string }) => ReactNode;
  hint?: ReactNode;
  /** An error message element, shown under the control. */
  error?: ReactNode;
  className?: string;
}

/** A label above its control, with an optional hint under it. */
export function Field({ label, children, hint, error, className }: FieldProps) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className={cn('grid gap-1.5', className)}>
      <label htmlFor={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {label}
      </label>
      {children({ id, hintId })}
      {error}
      {hint && !error && (
        <p id={hintId} className="text-xs text-muted">
          {hint}
        </p>
      )}
    </div>
  );
}
