import { describe, expect, it } from 'vitest';
import { openTarget, resolveTarget } from './target.ts';

const ORIGIN = 'https://versus.test';

describe('notification targets', () => {
  it('same-origin paths go through the router, with their query', () => {
    expect(resolveTarget('/matches?highlight=m1', ORIGIN)).toEqual({ kind: 'route', path: '/matches?highlight=m1' });
    expect(resolveTarget(`${ORIGIN}/live-arena?match=m1#x`, ORIGIN)).toEqual({ kind: 'route', path: '/live-arena?match=m1#x' });
  });

  it('another origin is a full page load; other schemes and nothing are refused', () => {
    expect(resolveTarget('https://example.com/a', ORIGIN)).toEqual({ kind: 'page', href: 'https://example.com/a' });
    expect(resolveTarget('javascript:alert(1)', ORIGIN)).toBeNull();
    expect(resolveTarget('', ORIGIN)).toBeNull();
    expect(resolveTarget(null, ORIGIN)).toBeNull();
  });

  it('falls back to a full navigation when the router throws or rejects', async () => {
    const assigned: string[] = [];
    const routed: string[] = [];
    const assign = (href: string) => void assigned.push(href);
    expect(openTarget('/matches', ORIGIN, { navigate: (p) => void routed.push(p), assign })).toBe(true);
    expect(routed).toEqual(['/matches']);
    expect(assigned).toEqual([]);

    openTarget('/wallet', ORIGIN, {
      navigate: () => {
        throw new Error('router gone');
      },
      assign,
    });
    expect(assigned).toEqual(['/wallet']);

    openTarget('/profile', ORIGIN, { navigate: () => Promise.reject(new Error('no')), assign });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(assigned).toEqual(['/wallet', '/profile']);
  });

  it('does nothing for an unusable URL', () => {
    const assigned: string[] = [];
    expect(openTarget('javascript:void 0', ORIGIN, { navigate: () => undefined, assign: (h) => void assigned.push(h) })).toBe(false);
    expect(assigned).toEqual([]);
  });
});
