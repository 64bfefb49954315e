import { describe, expect, it } from 'vitest';
import { formFieldOf, localToday } from './auth-form.ts';

describe('formFieldOf', () => {
  it('maps the server field path to the form field', () => {
    expect(formFieldOf('email')).toBe('email');
    expect(formFieldOf('options.data.full_name')).toBe('fullName');
    expect(formFieldOf('options.data.date_of_birth')).toBe('dateOfBirth');
    expect(formFieldOf('options.data.account_type')).toBe('accountType');
    expect(formFieldOf('options.data.age_verified')).toBe('ageVerified');
    expect(formFieldOf('options.data.username')).toBe('username');
  });

  it('has no field for unknown or missing paths', () => {
    expect(formFieldOf(undefined)).toBeNull();
    expect(formFieldOf('')).toBeNull();
    expect(formFieldOf('options.data.timezone')).toBeNull();
  });
});

describe('localToday', () => {
  it('formats the local calendar date with zero padding', () => {
    expect(localToday(new Date(2024, 0, 5, 23, 30))).toBe('2024-01-05');
    expect(localToday(new Date(2031, 11, 31, 0, 1))).toBe('2031-12-31');
  });
});
