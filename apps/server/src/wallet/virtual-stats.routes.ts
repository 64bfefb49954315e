// GET /api/wallet/virtual: the overlay card's profile counters, apart from the balance view, which carries
// money only.
import { DEFAULTS, LEDGER } from '@versus/domain';
import { WEEKLY_RESET_MS } from '@versus/domain/money';
import { virtualStatsSchema, type VirtualStats } from '@versus/domain/wallet';
import type { App, AppContext } from '../context.ts';
import { requireUser, signedInOnly } from '../auth/auth.plugin.ts';
import { apiErrorSchema, notFound } from '../http/errors.ts';
import { findVirtualStats, type VirtualStatsRow } from './virtual-stats.repository.ts';

export function toVirtualStats(row: VirtualStatsRow): VirtualStats {
  const lastReset = new Date(row.weekly_virtual_credits_last_reset);
  return {
    is_virtual: row.account_type === 'virtual',
    weekly_allowance: DEFAULTS.weeklyVirtualCredits,
    weekly_virtual_credits_remaining: row.weekly_virtual_credits_remaining,
    weekly_virtual_credits_last_reset: lastReset.toISOString(),
    next_weekly_reset_at: new Date(lastReset.getTime() + WEEKLY_RESET_MS).toISOString(),
    total_virtual_credits_earned: row.total_virtual_credits_earned,
    virtual_games_played: row.virtual_games_played,
    virtual_wins: row.virtual_wins,
    virtual_losses: row.virtual_losses,
    virtual_theme: row.virtual_theme,
    virtual_overlay_enabled: row.virtual_overlay_enabled,
  };
}

export function virtualStatsFeature(app: App, ctx: AppContext): void {
  app.get(
    '/api/wallet/virtual',
    {
      onRequest: signedInOnly,
      schema: {
        tags: ['wallet'],
        security: [{ bearer: [] }],
        summary: "The signed-in user's virtual-mode figures (weekly tokens, wins, losses, games)",
        response: { 200: virtualStatsSchema, 401: apiErrorSchema, 404: apiErrorSchema },
      },
    },
    async (request) => {
      const { userId } = requireUser(request);
      const row = await findVirtualStats(ctx.db, userId);
      if (!row) throw notFound(LEDGER.userNotFound);
      return toVirtualStats(row);
    },
  );
}
