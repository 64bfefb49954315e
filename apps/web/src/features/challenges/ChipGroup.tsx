import type { ReactNode } from 'react';
import { RadioGroup } from 'radix-ui';
import { cn } from '../../ui/index.ts';

export interface Chip<V extends string> {
  value: V;
  label: ReactNode;
  /** A second, smaller line. */
  detail?: ReactNode;
  icon?: ReactNode;
  disabled?: boolean;
}

export interface ChipGroupProps<V extends string> {
  /** The group's accessible name. */
  label: string;
  /** Or the id of a visible label. */
  labelledBy?: string;
  value: V | null;
  onChange: (value: V) => void;
  chips: readonly Chip<V>[];
  className?: string;
  chipClassName?: string;
  'data-testid'?: string;
}

/** A radio group drawn as compact chips: one tab stop, arrow keys move, Space picks. */
export function ChipGroup<V extends string>({
  label,
  labelledBy,
  value,
  onChange,
  chips,
  className,
  chipClassName,
  ...rest
}: ChipGroupProps<V>) {
  return (
    <RadioGroup.Root
      aria-label={labelledBy ? undefined : label}
      aria-labelledby={labelledBy}
      value={value ?? ''}
      onValueChange={(next) => onChange(next as V)}
      className={cn('flex flex-wrap gap-2', className)}
      data-testid={rest['data-testid']}
    >
      {chips.map((chip) => (
        <RadioGroup.Item
          key={chip.value}
          value={chip.value}
          disabled={chip.disabled}
          className={cn(
            'group inline-flex min-h-11 items-center gap-2 rounded-xl border border-border bg-bg/50 px-3.5 py-2 text-left text-sm font-semibold text-fg transition-[border-color,background-color,box-shadow]',
            'hover:border-accent/60 disabled:cursor-not-allowed disabled:opacity-45 disabled:hover:border-border',
            'data-[state=checked]:border-accent data-[state=checked]:bg-accent/15 data-[state=checked]:shadow-glow',
            chipClassName,
          )}
        >
          {chip.icon && <span className="text-muted group-data-[state=checked]:text-accent [&>svg]:size-4">{chip.icon}</span>}
          <span className="flex flex-col leading-tight">
            <span>{chip.label}</span>
            {chip.detail && <span className="text-xs font-medium text-muted">{chip.detail}</span>}
          </span>
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
