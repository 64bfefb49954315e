import { describe, expect, it } from 'vitest';
import { badgeLabel, initials, navItems } from './nav.ts';

const labels = (user: Parameters<typeof navItems>[0]) => navItems(user).map((item) => item.label);

describe('navItems', () => {
  it('shows every player link to a real account, with the live arena', () => {
    expect(labels({ role: 'user', accountType: 'real' })).toEqual(['Marketplace', 'Live Arena', 'Matches', 'Leaderboards', 'Profile']);
    expect(navItems({ role: 'user', accountType: 'real' }).find((i) => i.to === '/live-arena')?.live).toBe(true);
  });

  it('hides Marketplace and Leaderboards in virtual mode and names the arena Game Arena', () => {
    expect(labels({ role: 'user', accountType: 'virtual' })).toEqual(['Game Arena', 'Matches', 'Profile']);
    expect(navItems({ role: 'user', accountType: 'virtual' }).find((i) => i.to === '/live-arena')?.live).toBeFalsy();
  });

  it('adds /admin and /admin/disputes/enhanced for admins only', () => {
    const admin = navItems({ role: 'admin', accountType: 'real' }).map((i) => i.to);
    expect(admin).toContain('/admin');
    expect(admin).toContain('/admin/disputes/enhanced');
    const promoter = navItems({ role: 'promoter', accountType: 'real' }).map((i) => i.to);
    expect(promoter).not.toContain('/admin');
  });
});

describe('badgeLabel', () => {
  it('caps at 99+ and hides zero', () => {
    expect(badgeLabel(0)).toBeNull();
    expect(badgeLabel(1)).toBe('1');
    expect(badgeLabel(99)).toBe('99');
    expect(badgeLabel(100)).toBe('99+');
    expect(badgeLabel(5000)).toBe('99+');
  });
});

describe('initials', () => {
  it('takes the first and last word, or two letters of one word', () => {
    expect(initials('Alex Morgan')).toBe('AM');
    expect(initials('alexplays')).toBe('AL');
    expect(initials('dark_knight_99')).toBe('D9');
    expect(initials('  ')).toBe('?');
  });
});
