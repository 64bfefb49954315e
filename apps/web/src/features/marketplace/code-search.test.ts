import { describe, expect, it } from 'vitest';
import { codeInputValue } from './code-input.ts';

describe('code box', () => {
  it('uppercases as typed, drops spaces and keeps 6 characters', () => {
    expect(codeInputValue('abc')).toBe('ABC');
    expect(codeInputValue(' ab c12 ')).toBe('ABC12');
    expect(codeInputValue('abcdefgh')).toBe('ABCDEF');
  });
});
