import type { ReactNode } from 'react';
import { Select, type SelectOption } from './Select.tsx';

/**
 * A list's filter selects: two a row on a phone; from `sm` each becomes a column of the bar's own
 * grid, beside its search or tabs (the marketplace's and the tournaments' bars).
 */
export function FilterRow({ children }: { children: ReactNode }) {
  return <div className="grid grid-cols-2 gap-2 sm:contents">{children}</div>;
}

/** The first option's value: no filter. */
const ANY = '';

interface FilterSelectProps<V extends string> {
  label: string;
  /** null: not filtered, the first option shows. */
  value: V | null;
  /** The first option's words ("All games"). */
  anyLabel: string;
  options: readonly SelectOption<V>[];
  onChange: (value: V | null) => void;
  'data-testid'?: string;
}

/** A filter's labelled select whose first option lifts the filter. */
export function FilterSelect<V extends string>({ value, anyLabel, options, onChange, ...rest }: FilterSelectProps<V>) {
  return (
    <Select
      {...rest}
      value={value ?? ANY}
      options={[{ value: ANY, label: anyLabel }, ...options]}
      onChange={(chosen) => onChange(options.find((option) => option.value === chosen)?.value ?? null)}
    />
  );
}
