import { useId } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from './cn.ts';

export interface SelectOption<V extends string> {
  value: V;
  label: string;
}

export interface SelectProps<V extends string> {
  label: string;
  value: V;
  options: readonly SelectOption<V>[];
  onChange: (value: V) => void;
  invalid?: boolean;
  /** The id of an error or hint text under the control. */
  describedBy?: string;
  className?: string;
  'data-testid'?: string;
}

/**
 * A labelled native select (the phone's own picker, the keyboard's own keys). Not Radix's: its list is
 * modal and hides the app shell, focused trigger included, from assistive technology (docs/decisions.md).
 */
export function Select<V extends string>({ label, value, options, onChange, invalid, describedBy, className, ...rest }: SelectProps<V>) {
  const id = useId();
  return (
    <div className={cn('grid min-w-0 gap-1.5', className)}>
      <label htmlFor={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          data-testid={rest['data-testid']}
          onChange={(event) => onChange(event.target.value as V)}
          className={cn(
            'h-11 w-full appearance-none truncate rounded-xl border bg-bg/60 pr-8 pl-3 text-sm text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20',
            invalid ? 'border-danger ring-4 ring-danger/15' : 'border-border',
          )}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted" aria-hidden />
      </div>
    </div>
  );
}
