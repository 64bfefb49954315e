// The filter bars' selects (marketplace, tournaments): labelled, "All …" first meaning no filter.
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { FilterRow, FilterSelect } from './FilterRow.tsx';
import type { SelectProps } from './Select.tsx';

const OPTIONS = [
  { value: 'chess', label: 'Chess' },
  { value: 'checkers', label: 'Checkers' },
] as const;

describe('FilterSelect', () => {
  it('is a labelled select with the "any" option first, chosen while not filtered', () => {
    const html = renderToString(
      <FilterRow>
        <FilterSelect label="Game" value={null} anyLabel="All games" options={OPTIONS} onChange={() => {}} data-testid="filter-game" />
      </FilterRow>,
    );
    expect(html).toMatch(/^<div class="grid grid-cols-2 gap-2 sm:contents">/);
    const id = /<label for="([^"]+)"[^>]*>Game<\/label>/.exec(html)?.[1];
    expect(id).toBeDefined();
    expect(html).toContain(`<select id="${id}"`);
    expect(html).toContain('data-testid="filter-game"');
    expect(html).toMatch(/<option value="" selected="">All games<\/option><option value="chess">Chess<\/option>/);
  });

  it('shows the chosen value', () => {
    const html = renderToString(<FilterSelect label="Game" value="checkers" anyLabel="All games" options={OPTIONS} onChange={() => {}} />);
    expect(html).toContain('<option value="checkers" selected="">Checkers</option>');
  });

  it('hands back the option chosen, or null for "any"', () => {
    const onChange = vi.fn();
    const select = FilterSelect({ label: 'Game', value: 'chess', anyLabel: 'All games', options: OPTIONS, onChange }) as ReactElement<
      SelectProps<string>
    >;
    select.props.onChange('checkers');
    select.props.onChange('');
    expect(onChange.mock.calls).toEqual([['checkers'], [null]]);
  });
});
