import { describe, expect, it } from 'vitest';
import { headerBalanceSchema } from './balance.ts';

describe('headerBalanceSchema', () => {
  it('reads minor units at the top level or under balance', () => {
    expect(headerBalanceSchema.safeParse({ availableMinor: 100000, escrowMinor: 2500, currency: 'credits' })).toEqual({
      success: true,
      data: { availableMinor: 100000, escrowMinor: 2500, currency: 'credits' },
    });
    expect(headerBalanceSchema.safeParse({ balance: { available_balance: 50000, escrow_balance: 0, currency: 'vtokens' } })).toEqual({
      success: true,
      data: { availableMinor: 50000, escrowMinor: 0, currency: 'vtokens' },
    });
  });

  it('takes decimals as units and ignores unknown currencies', () => {
    expect(headerBalanceSchema.safeParse({ available: 10.5, currency: 'gold' })).toEqual({
      success: true,
      data: { availableMinor: 1050, escrowMinor: 0, currency: null },
    });
  });

  it('refuses answers without an available amount', () => {
    expect(headerBalanceSchema.safeParse({ escrow: 5 }).success).toBe(false);
    expect(headerBalanceSchema.safeParse(null).success).toBe(false);
    expect(headerBalanceSchema.safeParse({ available: 'lots' }).success).toBe(false);
  });
});
