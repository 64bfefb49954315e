import { describe, expect, it } from 'vitest';
import { ERROR_BOUNDARY, SHELL } from '@versus/domain';
import { ApiError } from '../api/http.ts';
import { autoRetryDelayMs, boundaryErrorKind, canTryAgain } from './error-retry.ts';

describe('boundaryErrorKind', () => {
  it('treats fetch failures, timeouts and missing lazy chunks as network problems', () => {
    expect(boundaryErrorKind(new TypeError('Failed to fetch'))).toBe('network');
    expect(boundaryErrorKind(new Error('NetworkError when attempting to fetch resource.'))).toBe('network');
    expect(boundaryErrorKind(new Error('Request timed out'))).toBe('network');
    expect(boundaryErrorKind(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe('network');
    expect(boundaryErrorKind(Object.assign(new Error('x'), { name: 'TimeoutError' }))).toBe('network');
    expect(boundaryErrorKind(new ApiError(0, 'network', 'Connection failed. Please check your internet connection and try again.'))).toBe(
      'network',
    );
    expect(boundaryErrorKind(new ApiError(0, 'timeout', 'Request timed out. Please try again.'))).toBe('network');
  });

  it('treats everything else as another error', () => {
    expect(boundaryErrorKind(new TypeError("Cannot read properties of undefined (reading 'id')"))).toBe('other');
    expect(boundaryErrorKind(Object.assign(new Error('Not allowed'), { status: 403 }))).toBe('other');
    expect(boundaryErrorKind(new ApiError(500, 'internal', 'An unexpected error occurred. Please try again.'))).toBe('other');
    expect(boundaryErrorKind('a string')).toBe('other');
    expect(boundaryErrorKind(null)).toBe('other');
  });
});

describe('autoRetryDelayMs', () => {
  it('waits 3 s times (retry count + 1): 3 s, 6 s, 9 s, then stops at the cap', () => {
    expect([0, 1, 2, 3, 4].map((n) => autoRetryDelayMs('network', n))).toEqual([3000, 6000, 9000, null, null]);
    expect(SHELL.errorRetryCap).toBe(3);
  });

  it('never retries other errors by itself', () => {
    expect(autoRetryDelayMs('other', 0)).toBeNull();
    expect(autoRetryDelayMs('other', 2)).toBeNull();
  });
});

describe('canTryAgain', () => {
  it('disables Try Again once a network error reached 3 attempts', () => {
    expect(canTryAgain('network', 0)).toBe(true);
    expect(canTryAgain('network', 2)).toBe(true);
    expect(canTryAgain('network', 3)).toBe(false);
    expect(canTryAgain('network', 7)).toBe(false);
  });

  it('always allows Try Again for other errors', () => {
    expect(canTryAgain('other', 0)).toBe(true);
    expect(canTryAgain('other', 10)).toBe(true);
  });

  it('shows the attempt counter in the SPEC form', () => {
    expect(ERROR_BOUNDARY.network.attempt(2, SHELL.errorRetryCap)).toBe('Retry attempt 2/3');
  });
});
