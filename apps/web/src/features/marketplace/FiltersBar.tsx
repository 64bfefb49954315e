import { useEffect, useId, useState } from 'react';
import { Search, X } from 'lucide-react';
import { GAME_LIST, PLATFORMS, PLATFORM_LABELS } from '@versus/domain/catalogue';
import { SEARCH_MAX } from '@versus/domain/challenges';
import { Button, FilterRow, FilterSelect, Input, Select } from '../../ui/index.ts';
import { STAKE_RANGES, STAKE_RANGE_BOUNDS, hasFilters, NO_FILTERS, type MarketFilters } from './filters.ts';

const SEARCH_DEBOUNCE_MS = 300;
const GAME_OPTIONS = GAME_LIST.map((game) => ({ value: game.id, label: game.name }));
const PLATFORM_OPTIONS = PLATFORMS.map((p) => ({ value: p, label: PLATFORM_LABELS[p] }));
const STAKE_OPTIONS = STAKE_RANGES.map((range) => ({ value: range, label: STAKE_RANGE_BOUNDS[range].label }));

export interface FiltersBarProps {
  filters: MarketFilters;
  onChange: (filters: MarketFilters) => void;
}

/** Search by text, and filter by game, platform and stake range. */
export function FiltersBar({ filters, onChange }: FiltersBarProps) {
  const [search, setSearch] = useState(filters.search);
  const searchId = useId();

  // The address may change the search (back button): follow it.
  useEffect(() => setSearch(filters.search), [filters.search]);

  useEffect(() => {
    if (search === filters.search) return;
    const timer = setTimeout(() => onChange({ ...filters, search }), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [search, filters, onChange]);

  return (
    <div className="grid gap-2 sm:grid-cols-[minmax(0,1.4fr)_repeat(3,minmax(0,1fr))_auto] sm:items-end" data-testid="filters">
      <div className="grid gap-1.5">
        <label htmlFor={searchId} className="text-xs font-semibold tracking-wide text-muted uppercase">
          Search
        </label>
        <Input
          id={searchId}
          type="search"
          icon={<Search aria-hidden />}
          placeholder="Game, title or player"
          maxLength={SEARCH_MAX}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
      </div>
      <FilterRow>
        <FilterSelect
          label="Game"
          value={filters.game}
          anyLabel="All games"
          options={GAME_OPTIONS}
          onChange={(game) => onChange({ ...filters, game })}
        />
        <FilterSelect
          label="Platform"
          value={filters.platform}
          anyLabel="All platforms"
          options={PLATFORM_OPTIONS}
          onChange={(platform) => onChange({ ...filters, platform })}
        />
        <Select label="Stake" value={filters.stake} options={STAKE_OPTIONS} onChange={(value) => onChange({ ...filters, stake: value })} />
      </FilterRow>
      {hasFilters(filters) && (
        <Button
          variant="ghost"
          className="h-11 justify-self-start"
          onClick={() => {
            setSearch('');
            onChange(NO_FILTERS);
          }}
        >
          <X className="size-4" aria-hidden />
          Clear
        </Button>
      )}
    </div>
  );
}
