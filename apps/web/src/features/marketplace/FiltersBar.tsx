import { useEffect, useId, useState, type ReactNode } from 'react';
import { ChevronDown, Search, X } from 'lucide-react';
import { GAME_LIST, PLATFORMS, PLATFORM_LABELS, isGameId, isPlatform } from '@versus/domain/catalogue';
import { SEARCH_MAX } from '@versus/domain/challenges';
import { Button, Input } from '../../ui/index.ts';
import { STAKE_RANGES, STAKE_RANGE_BOUNDS, hasFilters, NO_FILTERS, type MarketFilters, type StakeRange } from './filters.ts';

const SEARCH_DEBOUNCE_MS = 300;

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
      <div className="grid grid-cols-2 gap-2 sm:contents">
        <Select
          label="Game"
          value={filters.game ?? ''}
          onChange={(value) => onChange({ ...filters, game: isGameId(value) ? value : null })}
        >
          <option value="">All games</option>
          {GAME_LIST.map((game) => (
            <option key={game.id} value={game.id}>
              {game.name}
            </option>
          ))}
        </Select>
        <Select
          label="Platform"
          value={filters.platform ?? ''}
          onChange={(value) => onChange({ ...filters, platform: isPlatform(value) ? value : null })}
        >
          <option value="">All platforms</option>
          {PLATFORMS.map((platform) => (
            <option key={platform} value={platform}>
              {PLATFORM_LABELS[platform]}
            </option>
          ))}
        </Select>
        <Select label="Stake" value={filters.stake} onChange={(value) => onChange({ ...filters, stake: value as StakeRange })}>
          {STAKE_RANGES.map((range) => (
            <option key={range} value={range}>
              {STAKE_RANGE_BOUNDS[range].label}
            </option>
          ))}
        </Select>
      </div>
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

function Select({
  label,
  value,
  onChange,
  children,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  children: ReactNode;
}) {
  const id = useId();
  return (
    <div className="grid min-w-0 gap-1.5">
      <label htmlFor={id} className="text-xs font-semibold tracking-wide text-muted uppercase">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className="h-11 w-full appearance-none truncate rounded-xl border border-border bg-bg/60 pr-8 pl-3 text-sm text-fg outline-none focus:border-accent focus:ring-4 focus:ring-accent/20"
        >
          {children}
        </select>
        <ChevronDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-muted" aria-hidden />
      </div>
    </div>
  );
}
