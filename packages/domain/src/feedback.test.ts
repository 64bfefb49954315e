import { describe, expect, it } from 'vitest';
import { FEEDBACK_LIMITS, FEEDBACK_TEXT, checkFeedback } from './feedback.ts';

describe('checkFeedback', () => {
  const good = { message: '  Broken button ', pageUrl: '/matches?tab=history', appVersion: '0.1.0-beta' };
  it('trims the message and keeps the page and version', () => {
    expect(checkFeedback(good)).toEqual({
      ok: true,
      value: { message: 'Broken button', pageUrl: '/matches?tab=history', appVersion: '0.1.0-beta' },
    });
    expect(checkFeedback({ ...good, pageUrl: 'https://versus.example/wallet' })).toMatchObject({ ok: true });
    expect(checkFeedback({ ...good, appVersion: undefined })).toMatchObject({ ok: true, value: { appVersion: 'unknown' } });
  });
  it('refuses an empty or too long message and a page that is not an http(s) address or app path', () => {
    expect(checkFeedback({ ...good, message: ' ' })).toEqual({ ok: false, message: FEEDBACK_TEXT.messageRequired, field: 'message' });
    expect(checkFeedback({ ...good, message: 'x'.repeat(FEEDBACK_LIMITS.messageMax + 1) })).toMatchObject({ ok: false, field: 'message' });
    expect(checkFeedback({ ...good, pageUrl: 'javascript:alert(1)' })).toMatchObject({ ok: false, field: 'pageUrl' });
    expect(checkFeedback({ ...good, pageUrl: '' })).toMatchObject({ ok: false, field: 'pageUrl' });
  });
});
