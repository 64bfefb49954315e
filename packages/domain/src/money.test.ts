import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ACCOUNT_TYPES, CURRENCIES, ROLES } from './constants.ts';
import {
  MAX_AMOUNT_MINOR,
  WEEKLY_RESET_MS,
  canUseCurrency,
  checkAmount,
  currencyFor,
  currencySymbol,
  currencyTitle,
  formatMinor,
  formatMoney,
  fromMinor,
  isWeeklyResetDue,
  parseMoney,
  realCurrencyFor,
  startingBalance,
  toMinor,
  toMinorOrNull,
  weeklyTopUp,
} from './money.ts';
import { amountSchema } from './wallet.ts';

const minor = fc.integer({ min: -MAX_AMOUNT_MINOR, max: MAX_AMOUNT_MINOR });
const role = fc.constantFrom(...ROLES);
const accountType = fc.constantFrom(...ACCOUNT_TYPES);
const currency = fc.constantFrom(...CURRENCIES);

describe('currency for role and account type', () => {
  it('is VTokens for every virtual account, pcredits for real promoters and admins, credits for real players', () => {
    fc.assert(
      fc.property(role, accountType, (r, t) => {
        const c = currencyFor(r, t);
        if (t === 'virtual') expect(c).toBe('vtokens');
        else expect(c).toBe(r === 'user' ? 'credits' : 'pcredits');
        if (t === 'real') expect(c).toBe(realCurrencyFor(r));
      }),
    );
  });

  it('lets each mode use exactly one currency, and never VTokens in a real account or credits in a virtual one', () => {
    fc.assert(
      fc.property(role, accountType, (r, t) => {
        const usable = CURRENCIES.filter((c) => canUseCurrency(r, t, c));
        expect(usable).toEqual([currencyFor(r, t)]);
        if (t === 'real') expect(canUseCurrency(r, t, 'vtokens')).toBe(false);
        else expect(usable).toEqual(['vtokens']);
      }),
    );
  });

  it('opens real modes with 1,000 and virtual ones with 500, in minor units', () => {
    expect(startingBalance('credits')).toBe(100_000);
    expect(startingBalance('pcredits')).toBe(100_000);
    expect(startingBalance('vtokens')).toBe(50_000);
  });
});

describe('minor units', () => {
  it('round-trips every amount in cents through units', () => {
    fc.assert(
      fc.property(minor, (m) => {
        expect(toMinor(fromMinor(m))).toBe(m);
      }),
    );
  });

  it('reads amounts with 0, 1 or 2 decimals exactly, whatever binary floating point makes of them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), fc.integer({ min: 0, max: 99 }), (whole, cents) => {
        const typed = Number(`${whole}.${String(cents).padStart(2, '0')}`);
        expect(toMinor(typed)).toBe(whole * 100 + cents);
      }),
    );
    expect(toMinor(0.1 + 0.2)).toBe(30);
    expect(toMinorOrNull(1.005)).toBeNull();
  });

  it('refuses more than 2 decimals, infinities and NaN', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer({ min: 1, max: 9 }), (m, extra) => {
        expect(toMinorOrNull(m / 100 + extra / 1000)).toBeNull();
      }),
    );
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.001, 12.345]) {
      expect(toMinorOrNull(bad)).toBeNull();
      expect(() => toMinor(bad)).toThrow(RangeError);
    }
  });

  it('accepts a money request amount only when > 0, at most 2 decimals and not absurdly large', () => {
    fc.assert(
      fc.property(fc.double({ noNaN: false }), (value) => {
        const checked = checkAmount(value);
        const parsed = amountSchema.safeParse(value);
        expect(parsed.success).toBe('minor' in checked);
        if ('minor' in checked) {
          expect(value).toBeGreaterThan(0);
          expect(checked.minor).toBeGreaterThan(0);
          expect(checked.minor).toBeLessThanOrEqual(MAX_AMOUNT_MINOR);
          expect(Math.abs(fromMinor(checked.minor) - value)).toBeLessThan(1e-6 * Math.max(1, value));
        }
      }),
    );
    expect(checkAmount(0)).toEqual({ problem: 'notPositive' });
    expect(checkAmount(-5)).toEqual({ problem: 'notPositive' });
    expect(checkAmount(0.001)).toEqual({ problem: 'tooManyDecimals' });
    expect(checkAmount(10.5)).toEqual({ minor: 1050 });
    expect(checkAmount(MAX_AMOUNT_MINOR)).toEqual({ problem: 'tooLarge' });
  });
});

describe('writing amounts', () => {
  it('always shows 2 decimals with $ for credits and pcredits and VT for VTokens', () => {
    fc.assert(
      fc.property(minor, currency, (m, c) => {
        const text = formatMoney(m, c);
        expect(text).toMatch(/\.\d{2}( VT)?$/);
        if (c === 'vtokens') expect(text).toMatch(/^-?[\d,]+\.\d{2} VT$/);
        else expect(text).toMatch(/^-?\$[\d,]+\.\d{2}$/);
        expect(currencySymbol(c)).toBe(c === 'vtokens' ? 'VT' : '$');
      }),
    );
  });

  it('reads back to the same amount', () => {
    fc.assert(
      fc.property(minor, currency, (m, c) => {
        const parsed = parseMoney(formatMoney(m, c));
        expect(parsed).toEqual({ minor: m, currency: c === 'vtokens' ? 'vtokens' : 'dollars' });
      }),
    );
  });

  it('groups thousands and keeps the cents exact', () => {
    expect(formatMoney(100_000, 'credits')).toBe('$1,000.00');
    expect(formatMoney(5, 'pcredits')).toBe('$0.05');
    expect(formatMoney(-525, 'credits')).toBe('-$5.25');
    expect(formatMoney(50_000, 'vtokens')).toBe('500.00 VT');
    expect(formatMoney(123_456_789, 'vtokens')).toBe('1,234,567.89 VT');
    expect(formatMinor(0)).toBe('0.00');
    fc.assert(
      fc.property(minor, (m) => {
        const digits = formatMinor(m).replace(/[-,.]/g, '');
        expect(Number(digits)).toBe(Math.abs(m));
      }),
    );
  });

  it('names currencies in titles as SPEC writes them', () => {
    expect(CURRENCIES.map(currencyTitle)).toEqual(['Credits', 'Pcredits', 'VTokens']);
  });
});

describe('weekly VTokens', () => {
  it('is due exactly when 7 days or more have passed', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2_000_000_000_000 }),
        fc.integer({ min: -WEEKLY_RESET_MS, max: 3 * WEEKLY_RESET_MS }),
        (start, elapsed) => {
          expect(isWeeklyResetDue(new Date(start), new Date(start + elapsed))).toBe(elapsed >= WEEKLY_RESET_MS);
        },
      ),
    );
  });

  it('tops the available balance up to exactly 500 and never takes tokens away', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 10_000_000 }), (available) => {
        const topUp = weeklyTopUp(available);
        expect(topUp).toBeGreaterThanOrEqual(0);
        expect(available + topUp).toBe(Math.max(available, 50_000));
      }),
    );
  });
});
