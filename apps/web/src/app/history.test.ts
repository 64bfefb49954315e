import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nextHistory } from './history.ts';

describe('nextHistory', () => {
  it('pushes, pops back and replaces', () => {
    let stack = nextHistory([], 'PUSH', '/');
    stack = nextHistory(stack, 'PUSH', '/marketplace');
    stack = nextHistory(stack, 'PUSH', '/matches');
    expect(stack).toEqual(['/', '/marketplace', '/matches']);
    stack = nextHistory(stack, 'POP', '/marketplace');
    expect(stack).toEqual(['/', '/marketplace']);
    stack = nextHistory(stack, 'REPLACE', '/wallet');
    expect(stack).toEqual(['/', '/wallet']);
    stack = nextHistory(stack, 'POP', '/profile');
    expect(stack).toEqual(['/', '/wallet', '/profile']);
  });

  it('never holds more than the cap of 50, keeping the newest', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom('PUSH', 'POP', 'REPLACE' as const), fc.constantFrom('/', '/a', '/b', '/c'))),
        (steps) => {
          let stack: string[] = [];
          for (const [action, entry] of steps) {
            stack = nextHistory(stack, action, entry);
            expect(stack.length).toBeLessThanOrEqual(50);
            expect(stack[stack.length - 1]).toBe(entry);
          }
        },
      ),
    );
    let stack: string[] = [];
    for (let i = 0; i < 80; i += 1) stack = nextHistory(stack, 'PUSH', `/p${i}`);
    expect(stack).toHaveLength(50);
    expect(stack[0]).toBe('/p30');
    expect(stack[49]).toBe('/p79');
  });
});
