// Leaderboards: who may read them, and the rows as the API shows them.
import type { GameId } from '@versus/domain/catalogue';
import { AUTH, PROFILE } from '@versus/domain/messages';
import { boardTitle, type Leaderboard, type LeaderboardEntry, type LeaderboardQuery } from '@versus/domain/profile';
import { displayRating } from '@versus/domain/rating';
import type { AppContext } from '../context.ts';
import { AppError, unauthorized } from '../http/errors.ts';
import * as repo from './leaderboards.repository.ts';

export const virtualRefused = () => new AppError(403, 'virtual_account', PROFILE.leaderboardsVirtual);

export function toEntry(row: repo.BoardRow): LeaderboardEntry {
  const shown = displayRating({ rating: row.rating, rd: row.rd ?? 350, volatility: 0.06 });
  return {
    position: row.position,
    userId: row.id,
    username: row.username,
    displayName: row.display_name || row.username,
    avatar: row.avatar_url,
    level: row.level,
    rating: shown.value,
    provisional: shown.provisional,
    games: row.games,
    wins: row.wins,
    losses: row.losses,
    streak: row.streak,
  };
}

/**
 * A page of a board and the asker's own row. Virtual accounts are refused (SPEC §6: not
 * available in virtual mode), and never listed: boards hold real accounts only.
 */
export async function board(ctx: AppContext, userId: string, query: LeaderboardQuery): Promise<Leaderboard> {
  const accountType = await repo.accountTypeOf(ctx.db, userId);
  if (!accountType) throw unauthorized(AUTH.signInRequired);
  if (accountType === 'virtual') throw virtualRefused();
  const { game, page, pageSize } = query;
  const offset = (page - 1) * pageSize;
  const [rows, total, mine] =
    game === 'global'
      ? await Promise.all([repo.globalPage(ctx.db, pageSize, offset), repo.globalTotal(ctx.db), repo.globalRowOf(ctx.db, userId)])
      : await Promise.all([
          repo.gamePage(ctx.db, game as GameId, pageSize, offset),
          repo.gameTotal(ctx.db, game as GameId),
          repo.gameRowOf(ctx.db, game as GameId, userId),
        ]);
  return { game, title: boardTitle(game), page, pageSize, total, entries: rows.map(toEntry), me: mine ? toEntry(mine) : null };
}

/** Keeps profiles.rank and global_rank current (the leaderboards.ranks job). */
export async function recomputeRanks(ctx: Pick<AppContext, 'db'>): Promise<number> {
  return repo.recomputeRanks(ctx.db);
}

