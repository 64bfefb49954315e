import type { ReactNode } from 'react';
import { Checkbox as RadixCheckbox } from 'radix-ui';
import { Check } from 'lucide-react';
import { useId } from 'react';
import { cn } from './cn.ts';

export interface CheckboxProps {
  checked: boolean;
  onCheckedChange: (checked: boolean) => void;
  label: ReactNode;
  invalid?: boolean;
  name?: string;
  className?: string;
}

export function Checkbox({ checked, onCheckedChange, label, invalid, name, className }: CheckboxProps) {
  const id = useId();
  return (
    <div className={cn('flex items-start gap-3', className)}>
      <RadixCheckbox.Root
        id={id}
        name={name}
        checked={checked}
        onCheckedChange={(value) => onCheckedChange(value === true)}
        aria-invalid={invalid || undefined}
        className={cn(
          'mt-0.5 inline-flex size-5 shrink-0 items-center justify-center rounded-md border bg-bg/60 transition-colors',
          'data-[state=checked]:border-accent data-[state=checked]:bg-accent-solid data-[state=checked]:text-accent-fg',
          invalid ? 'border-danger ring-4 ring-danger/15' : 'border-border',
        )}
      >
        <RadixCheckbox.Indicator>
          <Check className="size-3.5" strokeWidth={3} aria-hidden />
        </RadixCheckbox.Indicator>
      </RadixCheckbox.Root>
      <label htmlFor={id} className="text-sm leading-snug text-fg/90 select-none">
        {label}
      </label>
    </div>
  );
}
