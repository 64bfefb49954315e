import { describe, expect, it } from 'vitest';
import type { BalanceView } from '@versus/domain/wallet';
import { headerBalanceOf } from './balance.ts';

const view = (patch: Partial<BalanceView>): BalanceView => ({
  available_balance: 1000,
  escrow_balance: 25,
  currency: 'credits',
  role: 'user',
  available_credits: 1000,
  available_pcredits: 0,
  escrow_credits: 25,
  escrow_pcredits: 0,
  virtual_credits_available: 480,
  virtual_credits_escrow: 20,
  is_virtual: false,
  active_currency: 'credits',
  weekly_virtual_credits_remaining: 500,
  weekly_virtual_credits_last_reset: '2026-01-01T00:00:00Z',
  next_weekly_reset_at: '2026-01-08T00:00:00Z',
  minor: {
    available_credits: 100000,
    available_pcredits: 7050,
    escrow_credits: 2500,
    escrow_pcredits: 150,
    virtual_credits_available: 48000,
    virtual_credits_escrow: 2000,
  },
  ...patch,
});

describe('headerBalanceOf', () => {
  it('shows credits for a real player', () => {
    expect(headerBalanceOf(view({}))).toEqual({ availableMinor: 100000, escrowMinor: 2500, currency: 'credits' });
  });

  it('shows pcredits for promoters and admins', () => {
    expect(headerBalanceOf(view({ currency: 'pcredits', role: 'promoter', active_currency: 'pcredits' }))).toEqual({
      availableMinor: 7050,
      escrowMinor: 150,
      currency: 'pcredits',
    });
  });

  it('shows VTokens in virtual mode, whatever the role', () => {
    expect(headerBalanceOf(view({ is_virtual: true, active_currency: 'vtokens' }))).toEqual({
      availableMinor: 48000,
      escrowMinor: 2000,
      currency: 'vtokens',
    });
  });
});
