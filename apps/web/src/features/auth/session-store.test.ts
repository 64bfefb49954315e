import { describe, expect, it } from 'vitest';
import { AUTH, GENERIC } from '@versus/domain';
import { ApiError } from '../../api/http.ts';
import { messageFor } from './session-store.ts';

describe('messageFor', () => {
  it('shows the SPEC text when the server says signups are not allowed', () => {
    const error = new ApiError(403, 'signups_disabled', `Signups not allowed. ${AUTH.signupsDisabled}`);
    expect(messageFor(error)).toBe(AUTH.signupsDisabled);
  });

  it("shows the server's own message for other refusals", () => {
    expect(messageFor(new ApiError(401, 'invalid_credentials', AUTH.invalidCredentials))).toBe(AUTH.invalidCredentials);
    expect(messageFor(new ApiError(429, 'too_many_attempts', AUTH.tooManyAttempts(15)))).toBe(AUTH.tooManyAttempts(15));
    expect(messageFor(new ApiError(409, 'email_taken', AUTH.emailTaken))).toBe(AUTH.emailTaken);
  });

  it('maps network trouble, server failures and unknown errors through the generic table', () => {
    expect(messageFor(new ApiError(0, 'network', GENERIC.network))).toBe(GENERIC.network);
    expect(messageFor(new ApiError(0, 'timeout', GENERIC.timeout))).toBe(GENERIC.timeout);
    expect(messageFor(new ApiError(500, 'internal', 'boom'))).toBe(GENERIC.other);
    expect(messageFor(new TypeError('Failed to fetch'))).toBe(GENERIC.network);
    expect(messageFor('???')).toBe(GENERIC.other);
  });

  it('keeps the "no user returned" texts', () => {
    expect(messageFor(new ApiError(200, 'no_user', AUTH.registrationNoUser))).toBe(AUTH.registrationNoUser);
  });
});
