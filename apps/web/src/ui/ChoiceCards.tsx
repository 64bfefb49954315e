import type { ReactNode } from 'react';
import { RadioGroup } from 'radix-ui';
import { cn } from './cn.ts';

export interface Choice<V extends string> {
  value: V;
  title: ReactNode;
  description?: ReactNode;
  icon?: ReactNode;
  /** Tailwind classes applied when chosen (border and glow colour). */
  selectedClassName?: string;
}

export interface ChoiceCardsProps<V extends string> {
  value: V | null;
  onChange: (value: V) => void;
  choices: readonly Choice<V>[];
  label: string;
  invalid?: boolean;
  className?: string;
  name?: string;
}

/** A radio group drawn as cards (arrow keys move between them). */
export function ChoiceCards<V extends string>({ value, onChange, choices, label, invalid, className, name }: ChoiceCardsProps<V>) {
  return (
    <RadioGroup.Root
      aria-label={label}
      aria-invalid={invalid || undefined}
      name={name}
      value={value ?? ''}
      onValueChange={(next) => onChange(next as V)}
      className={cn('grid grid-cols-2 gap-3', className)}
    >
      {choices.map((choice) => (
        <RadioGroup.Item
          key={choice.value}
          value={choice.value}
          className={cn(
            'group relative flex flex-col items-start gap-1 rounded-2xl border bg-bg/50 p-3.5 text-left transition-[border-color,background-color,box-shadow]',
            'hover:border-accent/60 data-[state=checked]:bg-surface-2',
            invalid ? 'border-danger/70' : 'border-border',
            'data-[state=checked]:border-accent data-[state=checked]:shadow-glow',
            choice.selectedClassName,
          )}
        >
          <span className="flex w-full items-center justify-between gap-2">
            <span className="flex items-center gap-2 font-bold">
              {choice.icon}
              {choice.title}
            </span>
            <span
              aria-hidden
              className="inline-flex size-4 items-center justify-center rounded-full border border-border group-data-[state=checked]:border-accent"
            >
              <RadioGroup.Indicator className="size-2 rounded-full bg-accent" />
            </span>
          </span>
          {choice.description && <span className="text-xs leading-snug text-muted">{choice.description}</span>}
        </RadioGroup.Item>
      ))}
    </RadioGroup.Root>
  );
}
