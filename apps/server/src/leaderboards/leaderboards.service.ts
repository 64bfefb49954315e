// Leaderboards: who may read them, and the rows as the API shows them.
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

/** A page and the asker's own row; virtual accounts are refused (SPEC §6) and never listed. */
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
          repo.gamePage(ctx.db, game, pageSize, offset),
          repo.gameTotal(ctx.db, game),
          repo.gameRowOf(ctx.db, game, userId),
        ]);
  return { game, title: boardTitle(game), page, pageSize, total, entries: rows.map(toEntry), me: mine ? toEntry(mine) : null };
}

/** Writes the stored places (profiles.rank, global_rank) now. */
export async function recomputeRanks(ctx: Pick<AppContext, 'db'>): Promise<{ wanted: number; written: number }> {
  return repo.recomputeRanks(ctx.db);
}

/** Recomputes only when a match was rated or an account switched since this process's last complete run. */
export function ranksJob(ctx: Pick<AppContext, 'db'>): () => Promise<void> {
  let done: string | null = null;
  return async () => {
    const mark = await repo.placesFingerprint(ctx.db);
    if (mark === done) return;
    const result = await repo.recomputeRanks(ctx.db);
    // Rows a finishing match held were skipped: run again next time.
    done = result.written === result.wanted ? mark : null;
  };
}
