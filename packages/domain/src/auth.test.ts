import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  USERNAME_RULE,
  ageOn,
  fromSignUpRequest,
  isValidDate,
  signUpRequestSchema,
  toSignUpRequest,
  todayIn,
  updateProfileRequestSchema,
  updateUserRequestSchema,
  validateLogin,
  validateRegistration,
  type LoginForm,
  type RegistrationForm,
} from './auth.ts';
import { AUTH } from './messages.ts';

const TODAY = new Date('2024-06-15T12:00:00Z');

const valid: RegistrationForm = {
  accountType: 'real',
  fullName: 'Ada Lovelace',
  username: 'ada_99',
  email: 'ada@example.com',
  phone: '+44 20 7946 0000',
  dateOfBirth: '1990-12-10',
  ageVerified: true,
  password: 'secret1',
};

describe('validateRegistration', () => {
  it('accepts a complete adult registration', () => {
    expect(validateRegistration(valid, TODAY)).toBeNull();
  });

  // SPEC §5, in order. Each row breaks one more field than the row after it, so a step only
  // shows its own message once every earlier one passes.
  const steps: [Partial<RegistrationForm>, string, string][] = [
    [{ accountType: null }, 'accountType', AUTH.accountTypeRequired],
    [{ fullName: '' }, 'fullName', AUTH.fullNameRequired],
    [{ username: '' }, 'username', AUTH.usernameRequired],
    [{ email: '' }, 'email', AUTH.emailRequired],
    [{ phone: '' }, 'phone', AUTH.phoneRequired],
    [{ dateOfBirth: '' }, 'dateOfBirth', AUTH.dateOfBirthRequired],
    [{ ageVerified: false }, 'ageVerified', AUTH.mustBeAdult],
    [{ password: '12345' }, 'password', AUTH.passwordTooShort],
  ];

  it.each(steps.map((step, i) => [i, ...step] as const))(
    'step %i fails with its own message when all earlier ones pass',
    (i, _change, field, message) => {
      // Break this step and every later one: the first failure must be this step's.
      const form = { ...valid, ...Object.assign({}, ...steps.slice(i).map(([change]) => change)) } as RegistrationForm;
      expect(validateRegistration(form, TODAY)).toEqual({ field, message });
      // Only this step broken: same answer.
      expect(validateRegistration({ ...valid, ...steps[i]![0] }, TODAY)).toEqual({ field, message });
    },
  );

  it('treats blank (whitespace-only) text as missing', () => {
    expect(validateRegistration({ ...valid, fullName: '   ' }, TODAY)?.message).toBe(AUTH.fullNameRequired);
    expect(validateRegistration({ ...valid, username: '\t' }, TODAY)?.message).toBe(AUTH.usernameRequired);
    expect(validateRegistration({ ...valid, email: ' ' }, TODAY)?.message).toBe(AUTH.emailRequired);
    expect(validateRegistration({ ...valid, phone: ' ' }, TODAY)?.message).toBe(AUTH.phoneRequired);
  });

  it('accepts a password of exactly 6 characters and refuses 5', () => {
    expect(validateRegistration({ ...valid, password: '123456' }, TODAY)).toBeNull();
    expect(validateRegistration({ ...valid, password: '12345' }, TODAY)?.message).toBe(AUTH.passwordTooShort);
  });

  it('checks the age after the password, with the 18+ message on the date of birth', () => {
    const minor = { ...valid, dateOfBirth: '2010-01-01' };
    expect(validateRegistration(minor, TODAY)).toEqual({ field: 'dateOfBirth', message: AUTH.mustBeAdult });
    expect(validateRegistration({ ...minor, password: '1' }, TODAY)).toEqual({ field: 'password', message: AUTH.passwordTooShort });
  });

  it('refuses an invalid or future date of birth with the 18+ message', () => {
    for (const dateOfBirth of ['2000-02-30', '1990/01/01', '01-01-1990', 'yesterday', '2999-01-01', '2024-06-16']) {
      expect(validateRegistration({ ...valid, dateOfBirth }, TODAY)).toEqual({ field: 'dateOfBirth', message: AUTH.mustBeAdult });
    }
  });

  it('after the SPEC checks: email, username, full name and phone shapes', () => {
    expect(validateRegistration({ ...valid, email: 'ada@example' }, TODAY)).toEqual({ field: 'email', message: AUTH.invalidEmail });
    expect(validateRegistration({ ...valid, username: 'ab' }, TODAY)).toEqual({ field: 'username', message: USERNAME_RULE });
    expect(validateRegistration({ ...valid, username: 'has space' }, TODAY)?.message).toBe(USERNAME_RULE);
    expect(validateRegistration({ ...valid, username: 'x'.repeat(25) }, TODAY)?.message).toBe(USERNAME_RULE);
    expect(validateRegistration({ ...valid, username: `  ${valid.username}  ` }, TODAY)).toBeNull();
    expect(validateRegistration({ ...valid, fullName: 'x'.repeat(101) }, TODAY)).toEqual({
      field: 'fullName',
      message: AUTH.fullNameTooLong,
    });
    expect(validateRegistration({ ...valid, phone: 'call me' }, TODAY)).toEqual({ field: 'phone', message: AUTH.phoneInvalid });
    // A SPEC check still wins over a shape check that comes later.
    expect(validateRegistration({ ...valid, email: 'bad', password: '1' }, TODAY)?.message).toBe(AUTH.passwordTooShort);
  });
});

describe('the 18th birthday', () => {
  const at = (iso: string) => new Date(`${iso}T12:00:00Z`);

  it('refuses the day before and accepts on the day', () => {
    const form = { ...valid, dateOfBirth: '2006-06-15' };
    expect(validateRegistration(form, at('2024-06-14'))?.message).toBe(AUTH.mustBeAdult);
    expect(validateRegistration(form, at('2024-06-15'))).toBeNull();
    expect(validateRegistration(form, at('2024-06-16'))).toBeNull();
  });

  it('counts months as well as days', () => {
    expect(ageOn('2006-07-01', at('2024-06-30'))).toBe(17);
    expect(ageOn('2006-05-31', at('2024-06-01'))).toBe(18);
    expect(ageOn('2006-12-31', at('2024-12-30'))).toBe(17);
    expect(ageOn('2006-01-01', at('2024-01-01'))).toBe(18);
  });

  it('born on 29 February: 18 on 1 March in a common year, on 29 February in a leap year', () => {
    // 29 February of a common year is no date at all.
    expect(isValidDate('2006-02-29')).toBe(false);
    // Nor is a year 0 (PostgreSQL refuses it): refused here rather than failing in SQL.
    expect(isValidDate('0000-01-01')).toBe(false);
    expect(isValidDate('0001-01-01')).toBe(true);
    expect(validateRegistration({ ...valid, dateOfBirth: '2006-02-29' }, at('2025-01-01'))?.message).toBe(AUTH.mustBeAdult);

    const leapling = { ...valid, dateOfBirth: '2004-02-29' };
    expect(validateRegistration(leapling, at('2022-02-28'))?.message).toBe(AUTH.mustBeAdult);
    expect(validateRegistration(leapling, at('2022-03-01'))).toBeNull();
    expect(ageOn('2004-02-29', at('2022-02-28'))).toBe(17);
    expect(ageOn('2004-02-29', at('2022-03-01'))).toBe(18);
    // 2024 is a leap year: a leapling's birthday falls on the day itself.
    expect(ageOn('1988-02-29', at('2024-02-28'))).toBe(35);
    expect(ageOn('1988-02-29', at('2024-02-29'))).toBe(36);
  });

  it('agrees with a day-by-day count for any birth date and day (property)', () => {
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01T00:00:00Z'), max: new Date('2030-12-31T00:00:00Z'), noInvalidDate: true }),
        fc.date({ min: new Date('1950-01-01T00:00:00Z'), max: new Date('2060-12-31T00:00:00Z'), noInvalidDate: true }),
        (birth, today) => {
          const dob = birth.toISOString().slice(0, 10);
          const age = ageOn(dob, today);
          // The age is the number of birthdays (1 March for leaplings in common years) passed.
          let expected = 0;
          for (let year = birth.getUTCFullYear() + 1; year <= today.getUTCFullYear(); year++) {
            const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
            const [m, d] =
              birth.getUTCMonth() === 1 && birth.getUTCDate() === 29 && !leap ? [2, 1] : [birth.getUTCMonth(), birth.getUTCDate()];
            if (Date.UTC(year, m, d) <= Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate())) expected += 1;
          }
          if (today.getTime() < Date.UTC(birth.getUTCFullYear(), birth.getUTCMonth(), birth.getUTCDate())) {
            expect(age).toBeLessThan(0);
          } else {
            expect(age).toBe(expected);
          }
        },
      ),
    );
  });

  it("uses the player's own calendar date (time zone)", () => {
    // 23:30 UTC on the 14th is already the 15th in Auckland.
    const now = new Date('2024-06-14T23:30:00Z');
    const form = { ...valid, dateOfBirth: '2006-06-15' };
    expect(validateRegistration(form, todayIn('UTC', now))?.message).toBe(AUTH.mustBeAdult);
    expect(validateRegistration(form, todayIn('Pacific/Auckland', now))).toBeNull();
    expect(todayIn('Not/AZone', now).toISOString()).toBe('2024-06-14T00:00:00.000Z');
    expect(todayIn(undefined, now).toISOString()).toBe('2024-06-14T00:00:00.000Z');
  });
});

describe('validateLogin', () => {
  const login: LoginForm = { accountType: 'virtual', email: 'a@b.co', password: 'x' };

  it('accepts a filled form', () => {
    expect(validateLogin(login)).toBeNull();
  });

  it('checks account type, then email, then password', () => {
    expect(validateLogin({ accountType: null, email: '', password: '' })).toEqual({
      field: 'accountType',
      message: AUTH.accountTypeRequired,
    });
    expect(validateLogin({ ...login, email: '', password: '' })).toEqual({ field: 'email', message: AUTH.emailRequired });
    expect(validateLogin({ ...login, email: '  ', password: '' })).toEqual({ field: 'email', message: AUTH.emailRequired });
    expect(validateLogin({ ...login, password: '' })).toEqual({ field: 'password', message: AUTH.passwordRequired });
  });

  it('does not trim passwords (a space is a character)', () => {
    expect(validateLogin({ ...login, password: ' ' })).toBeNull();
  });
});

describe('wire shapes', () => {
  it('round-trips the register form through the sign-up request', () => {
    const request = toSignUpRequest({ ...valid, email: ' ada@example.com ', username: ' ada_99 ' }, 'Europe/London');
    expect(signUpRequestSchema.parse(request)).toEqual(request);
    expect(request.options.data).toMatchObject({ account_type: 'real', display_name: 'ada_99', timezone: 'Europe/London' });
    expect(fromSignUpRequest(request)).toEqual({ ...valid, email: 'ada@example.com', username: 'ada_99' });
  });

  it('refuses unknown fields in profile changes (a player cannot set their own role)', () => {
    expect(updateUserRequestSchema.safeParse({ role: 'admin' }).success).toBe(false);
    expect(updateProfileRequestSchema.safeParse({ role: 'admin' }).success).toBe(false);
    expect(updateProfileRequestSchema.parse({ virtual_theme: 'retro', display_name: ' Ace ' })).toEqual({
      virtual_theme: 'retro',
      display_name: 'Ace',
    });
    expect(updateUserRequestSchema.safeParse({ display_name: ' ' }).error?.issues[0]?.message).toBe(AUTH.displayNameInvalid);
  });
});
