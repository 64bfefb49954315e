import type { User } from '@versus/domain';

export interface NavItem {
  to: string;
  label: string;
  /** The "live" dot next to Live Arena. */
  live?: boolean;
  adminOnly?: boolean;
}

/** SPEC §2 Header links, which change with virtual mode and the admin role. */
export function navItems(user: Pick<User, 'role' | 'accountType'> | null): NavItem[] {
  const virtual = user?.accountType === 'virtual';
  const items: NavItem[] = [];
  if (!virtual) items.push({ to: '/marketplace', label: 'Marketplace' });
  items.push(virtual ? { to: '/live-arena', label: 'Game Arena' } : { to: '/live-arena', label: 'Live Arena', live: true });
  items.push({ to: '/matches', label: 'Matches' });
  if (!virtual) items.push({ to: '/leaderboards', label: 'Leaderboards' });
  items.push({ to: '/profile', label: 'Profile' });
  if (user?.role === 'admin') {
    items.push({ to: '/admin', label: 'Admin', adminOnly: true });
    items.push({ to: '/admin/disputes/enhanced', label: 'Disputes', adminOnly: true });
  }
  return items;
}

/** SPEC §2 Bell: the unread count, "99+" above 99, nothing at 0. */
export function badgeLabel(count: number): string | null {
  if (!(count > 0)) return null;
  return count > 99 ? '99+' : String(Math.floor(count));
}

/** Two letters for an avatar: "Alex Morgan" → "AM", "alexplays" → "AL". */
export function initials(name: string): string {
  const words = name
    .trim()
    .split(/[\s._-]+/)
    .filter(Boolean);
  if (words.length === 0) return '?';
  if (words.length === 1) return words[0]!.slice(0, 2).toUpperCase();
  return `${words[0]![0]}${words[words.length - 1]![0]}`.toUpperCase();
}
