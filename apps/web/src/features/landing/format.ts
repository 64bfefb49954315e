import { MINOR_UNITS } from '@versus/domain';

const money = new Intl.NumberFormat('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const whole = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** "$1,000.00" from minor units: credit amounts are shown at 2 decimals (SPEC §9). */
export function formatCredits(minor: number): string {
  return `$${money.format(minor / MINOR_UNITS)}`;
}

/** The payout shown on a challenge card: the winner takes both stakes (SPEC §1). */
export function payoutFor(stake: number): number {
  return stake * 2;
}

export function formatCount(value: number): string {
  return whole.format(value);
}
