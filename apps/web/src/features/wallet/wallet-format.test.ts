import { describe, expect, it } from 'vitest';
import { WALLET } from '@versus/domain';
import type { WalletTransaction } from '@versus/domain/wallet';
import {
  accountStatus,
  amountClass,
  describeTransaction,
  ecosystemLabel,
  formatAmount,
  formatResetIn,
  formatSigned,
  formatWhen,
} from './wallet-format.ts';

const tx = (patch: Partial<WalletTransaction>): WalletTransaction => ({
  id: 1,
  createdAt: '2026-03-02T10:00:00.000Z',
  reason: 'grant',
  description: null,
  currency: 'credits',
  available: 0,
  escrow: 0,
  availableMinor: 0,
  escrowMinor: 0,
  challengeId: null,
  matchId: null,
  roomId: null,
  ...patch,
});

describe('amounts (SPEC §9: 2 decimals, $ for credits and pcredits, VT for VTokens)', () => {
  it('writes amounts with their symbol', () => {
    expect(formatAmount(100_000, 'credits')).toBe('$1,000.00');
    expect(formatAmount(7050, 'pcredits')).toBe('$70.50');
    expect(formatAmount(50_000, 'vtokens')).toBe('500.00 VT');
    expect(formatSigned(2500, 'credits')).toBe('+$25.00');
    expect(formatSigned(-2500, 'credits')).toBe('-$25.00');
    expect(formatSigned(1000, 'vtokens')).toBe('+10.00 VT');
    expect(formatSigned(0, 'credits')).toBe('$0.00');
  });

  it('colours VTokens orange', () => {
    expect(amountClass('vtokens')).toBe('text-vt');
    expect(amountClass('credits')).toBe('text-fg');
    expect(amountClass('pcredits')).toBe('text-fg');
  });

  it('labels the status and the ecosystem', () => {
    expect(accountStatus(true)).toBe('Demo Mode');
    expect(accountStatus(false)).toBe('Active');
    expect(ecosystemLabel('user', false)).toBe('Player Ecosystem');
    expect(ecosystemLabel('promoter', false)).toBe('Promoter Ecosystem');
    expect(ecosystemLabel('admin', false)).toBe('Promoter Ecosystem');
    expect(ecosystemLabel('admin', true)).toBe(WALLET.virtualEcosystem);
  });
});

describe('describeTransaction', () => {
  it('reads a grant as a gain with its description', () => {
    expect(describeTransaction(tx({ reason: 'admin_grant', description: 'Tournament prize', availableMinor: 25_000 }))).toMatchObject({
      title: 'Added by an admin',
      detail: 'Tournament prize',
      amountMinor: 25_000,
      amountOf: 'available',
      escrowMinor: 0,
      tone: 'gain',
    });
  });

  it('hides a description that only repeats the title', () => {
    expect(
      describeTransaction(tx({ reason: 'weekly_reset', description: 'weekly vtokens', currency: 'vtokens', availableMinor: 100 })).detail,
    ).toBeNull();
  });

  it('reads a stake locked as a neutral move from available to In Games', () => {
    expect(describeTransaction(tx({ reason: 'escrow_lock', availableMinor: -2500, escrowMinor: 2500 }))).toMatchObject({
      title: 'Stake locked in escrow',
      amountMinor: -2500,
      amountOf: 'available',
      escrowMinor: 2500,
      tone: 'neutral',
    });
  });

  it('reads a settlement as won or lost from the player’s side', () => {
    expect(describeTransaction(tx({ reason: 'settle', availableMinor: 5000, escrowMinor: -2500 }))).toMatchObject({
      title: 'Match won',
      tone: 'gain',
    });
    expect(describeTransaction(tx({ reason: 'settle', availableMinor: 0, escrowMinor: -2500 }))).toMatchObject({
      title: 'Match lost',
      amountMinor: -2500,
      amountOf: 'escrow',
      escrowMinor: 0,
      tone: 'loss',
    });
  });

  it('names VTokens in a virtual account’s lines', () => {
    expect(describeTransaction(tx({ reason: 'spend', currency: 'vtokens', availableMinor: -100 }))).toMatchObject({
      title: 'VTokens used',
      tone: 'loss',
    });
    expect(describeTransaction(tx({ reason: 'draw', availableMinor: 2500, escrowMinor: -2500 }))).toMatchObject({
      title: 'Draw: stake returned',
      tone: 'neutral',
    });
  });
});

describe('dates', () => {
  it('writes a transaction date in the given locale and zone', () => {
    expect(formatWhen('2026-03-02T10:00:00.000Z', 'en-US', 'UTC')).toBe('Mar 2, 2026, 10:00 AM');
    expect(formatWhen('not a date', 'en-US', 'UTC')).toBe('');
  });

  it('counts down to the next weekly reset', () => {
    const now = Date.parse('2026-03-02T10:00:00Z');
    expect(formatResetIn('2026-03-09T10:00:00Z', now)).toBe('7d 0h');
    expect(formatResetIn('2026-03-03T09:30:00Z', now)).toBe('23h 30m');
    expect(formatResetIn('2026-03-02T09:00:00Z', now)).toBe('0h 0m');
  });
});
