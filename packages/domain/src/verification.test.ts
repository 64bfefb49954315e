import { describe, expect, it } from 'vitest';
import { GAMERTAG_LIMIT, VERIFY_TEXT, checkGamertag, checkIdentity, platformAccount, withAll } from './verification.ts';

const none = { xbox: false, playstation: false, steam: false, identity: false };

describe('withAll', () => {
  it('needs identity and every linked platform, with at least one linked', () => {
    expect(withAll({ ...none, identity: true }, []).all).toBe(false);
    expect(withAll({ ...none, identity: true, xbox: true }, ['xbox']).all).toBe(true);
    expect(withAll({ ...none, identity: true, xbox: true }, ['xbox', 'steam']).all).toBe(false);
    expect(withAll({ ...none, xbox: true, steam: true }, ['xbox', 'steam']).all).toBe(false);
    expect(withAll({ xbox: true, playstation: true, steam: true, identity: true }, ['xbox', 'playstation', 'steam'])).toEqual({
      xbox: true,
      playstation: true,
      steam: true,
      identity: true,
      all: true,
    });
  });
});

describe('checkGamertag', () => {
  it('trims and bounds the gamertag', () => {
    expect(checkGamertag('  Chief ')).toEqual({ ok: true, gamertag: 'Chief' });
    expect(checkGamertag(' ')).toEqual({ ok: false, message: VERIFY_TEXT.gamertagRequired });
    expect(checkGamertag(undefined)).toEqual({ ok: false, message: VERIFY_TEXT.gamertagRequired });
    expect(checkGamertag('x'.repeat(GAMERTAG_LIMIT + 1))).toEqual({ ok: false, message: VERIFY_TEXT.gamertagTooLong });
  });
});

describe('checkIdentity', () => {
  const today = new Date('2026-06-15T00:00:00Z');
  const good = { fullName: ' Ada Lovelace ', dateOfBirth: '2008-06-15', documentType: 'passport', documentLast4: 'ab12' };
  it('accepts an adult on their 18th birthday and normalises the fields', () => {
    expect(checkIdentity(good, today)).toEqual({
      ok: true,
      value: { fullName: 'Ada Lovelace', dateOfBirth: '2008-06-15', documentType: 'passport', documentLast4: 'AB12' },
    });
  });
  it('refuses a minor by a day, then each bad field in order', () => {
    expect(checkIdentity({ ...good, dateOfBirth: '2008-06-16' }, today)).toMatchObject({
      ok: false,
      field: 'dateOfBirth',
      message: VERIFY_TEXT.mustBeAdult,
    });
    expect(checkIdentity({ ...good, fullName: '', dateOfBirth: '' }, today)).toMatchObject({ field: 'fullName' });
    expect(checkIdentity({ ...good, dateOfBirth: '2001-02-29' }, today)).toMatchObject({
      field: 'dateOfBirth',
      message: VERIFY_TEXT.dateOfBirthRequired,
    });
    expect(checkIdentity({ ...good, documentType: 'library' }, today)).toMatchObject({ field: 'documentType' });
    expect(checkIdentity({ ...good, documentLast4: '12-4' }, today)).toMatchObject({ field: 'documentLast4' });
  });
});

it('maps the wizard platforms to linked accounts (PC is Steam)', () => {
  expect(platformAccount('xbox')).toBe('xbox');
  expect(platformAccount('playstation')).toBe('playstation');
  expect(platformAccount('pc')).toBe('steam');
  expect(platformAccount('mobile')).toBeNull();
  expect(platformAccount(null)).toBeNull();
});
