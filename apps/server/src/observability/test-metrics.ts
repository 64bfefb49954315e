// Reading figures back from a Prometheus text exposition, for tests.
import type { AppMetrics } from './metrics.ts';

/** The value of sample `name` with `labels` among its labels, summed over several matches; undefined for none. */
export function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let found: number | undefined;
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const have = new Map([...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]] as const));
    if (Object.entries(labels).every(([key, value]) => have.get(key) === value)) found = (found ?? 0) + Number(match[3]);
  }
  return found;
}

/** `sample` on a fresh scrape of `metrics`; 0 when the sample is absent (a counter never moved). */
export async function figure(metrics: AppMetrics, name: string, labels: Record<string, string> = {}): Promise<number> {
  return sample(await metrics.scrape(), name, labels) ?? 0;
}
