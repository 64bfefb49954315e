import { useEffect, useState } from 'react';
import { SIMULATED_STATS } from '@versus/domain';
import { driftStats, initialStats, type RandomSource, type SimulatedStats } from '@versus/domain/stats';

/** The landing page's headline figures, simulated locally (SPEC §1); ticks skipped while the tab is hidden. */
export function useSimulatedStats(random: RandomSource = Math.random): SimulatedStats {
  const [stats, setStats] = useState(initialStats);

  useEffect(() => {
    const tick = () => {
      if (document.visibilityState === 'hidden') return;
      setStats((current) => driftStats(current, random));
    };
    let interval: number | undefined;
    const start = window.setTimeout(() => {
      tick();
      interval = window.setInterval(tick, SIMULATED_STATS.refreshMs);
    }, SIMULATED_STATS.startDelayMs);
    return () => {
      window.clearTimeout(start);
      window.clearInterval(interval);
    };
  }, [random]);

  return stats;
}
