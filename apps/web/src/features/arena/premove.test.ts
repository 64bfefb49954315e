import { describe, expect, it } from 'vitest';
import { decidePremove, queuePremove } from './premove.ts';

type Queued = { from: string; to: string };
const legal = ['e2e4', 'g1f3', 'e7e8q', 'e7e8n'];
const resolve = (q: Queued) => legal.find((m) => m.startsWith(q.from + q.to)) ?? null;
const same = (a: Queued, b: Queued) => a.from === b.from && a.to === b.to;

describe('decidePremove', () => {
  it('waits while nothing is queued or it is not our turn', () => {
    expect(decidePremove(null, true, resolve)).toEqual({ kind: 'wait' });
    expect(decidePremove({ from: 'e2', to: 'e4' }, false, resolve)).toEqual({ kind: 'wait' });
  });

  it('plays a queued move that is legal when the turn arrives, in its canonical form', () => {
    expect(decidePremove({ from: 'e2', to: 'e4' }, true, resolve)).toEqual({ kind: 'play', move: 'e2e4' });
    // A premoved promotion becomes a queen.
    expect(decidePremove({ from: 'e7', to: 'e8' }, true, resolve)).toEqual({ kind: 'play', move: 'e7e8q' });
  });

  it('drops a queued move the new position makes illegal', () => {
    expect(decidePremove({ from: 'e2', to: 'e5' }, true, resolve)).toEqual({ kind: 'drop' });
  });
});

describe('queuePremove', () => {
  it('holds one move: a new one replaces the old', () => {
    const first = queuePremove<Queued>(null, { from: 'e2', to: 'e4' }, same);
    expect(first).toEqual({ from: 'e2', to: 'e4' });
    expect(queuePremove(first, { from: 'g1', to: 'f3' }, same)).toEqual({ from: 'g1', to: 'f3' });
  });

  it('cancels when the same move is queued again', () => {
    expect(queuePremove<Queued>({ from: 'e2', to: 'e4' }, { from: 'e2', to: 'e4' }, same)).toBeNull();
  });
});
