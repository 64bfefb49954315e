// The virtual-mode fields of a profile (SPEC §3 Profile record) that the overlay card shows.
import type { Queryable } from '../db/database.ts';

export interface VirtualStatsRow {
  account_type: 'real' | 'virtual';
  weekly_virtual_credits_remaining: number;
  weekly_virtual_credits_last_reset: Date | string;
  total_virtual_credits_earned: number;
  virtual_games_played: number;
  virtual_wins: number;
  virtual_losses: number;
  virtual_theme: string;
  virtual_overlay_enabled: boolean;
}

export async function findVirtualStats(db: Queryable, userId: string): Promise<VirtualStatsRow | null> {
  const [row] = await db.query<VirtualStatsRow>(
    `SELECT account_type, weekly_virtual_credits_remaining, weekly_virtual_credits_last_reset,
            total_virtual_credits_earned, virtual_games_played, virtual_wins, virtual_losses,
            virtual_theme, virtual_overlay_enabled
       FROM profiles WHERE id = $1`,
    [userId],
  );
  return row ?? null;
}
