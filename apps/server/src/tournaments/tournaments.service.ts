// Tournaments: creating (a sponsor's prize locked at once), entering (the stake locked, owned by the tournament), leaving, and
// running them (tournaments.runner.ts) at the start, when a game ends (finishMatch hands it over) and on the job's beat.
import crypto from 'node:crypto';
import { TOURNAMENT } from '@versus/domain';
import { GLICKO2 } from '@versus/domain/rating';
import { currencyFor, formatMoney, fromMinor } from '@versus/domain/money';
import {
  cancelRefusal,
  checkNewTournament,
  entryRefusal,
  leaveEffect,
  type CreateTournamentInput,
  type NewTournament,
  type TournamentActionResponse,
  type TournamentDetail,
  type TournamentListQuery,
  type TournamentSummary,
} from '@versus/domain/tournaments';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import type { Queryable } from '../db/database.ts';
import { AppError, badRequest, conflict, notFound } from '../http/errors.ts';
import { UUID } from '../http/validation.ts';
import { ensureAccounts, lockStake, operationRecorded, releaseEscrow } from '../ledger/ledger.service.ts';
import { notify } from '../notifications/notify.ts';
import { publish, topics } from '../realtime/publish.ts';
import type { Arena } from '../arena/arena.service.ts';
import { TOURNAMENT_GAME_ENDED, handedTournament } from './tournaments.handoff.ts';
import * as repo from './tournaments.repository.ts';
import { STARTING_SOON_MS, cancelTournament, pairAfter, runTournament } from './tournaments.runner.ts';
import { detailOf, summaryOf } from './tournaments.views.ts';

/** A malformed id names no tournament: the same 404 as an unknown one. */
export function tournamentId(id: string): string {
  if (!UUID.test(id)) throw notFound(TOURNAMENT.notFound);
  return id.toLowerCase();
}

const refused = (r: { status: number; code: string; message: string }) => new AppError(r.status, r.code, r.message);

/** The ledger key of an entry's stake. */
const entryLedgerKey = (tournamentId: string, userId: string, entryKey: string) => `tournament:${tournamentId}:entry:${userId}:${entryKey}`;

/** The entry key a join under this Idempotency-Key gets: the same for a retry, another for any other key, player or tournament. */
function keyedEntry(tournamentId: string, userId: string, idempotencyKey: string): string {
  const h = crypto.createHash('sha256').update(`${tournamentId}:${userId}:${idempotencyKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export interface RunSummary {
  ran: number;
  failed: number;
}

export class Tournaments {
  /** Server time (epoch ms); tests move it to a tournament's start and end. */
  now: () => number = Date.now;

  constructor(
    private readonly ctx: AppContext,
    private readonly arena: Arena,
  ) {}

  // -------------------------------------------------------------------------------------
  // Reading

  async list(user: AccessClaims, query: TournamentListQuery): Promise<TournamentSummary[]> {
    const rows = await repo.listTournaments(this.ctx.db, query);
    const entered = await repo.enteredAmong(
      this.ctx.db,
      user.userId,
      rows.map((r) => r.id),
    );
    return rows.map((r) => summaryOf(r, entered.has(r.id)));
  }

  async view(user: AccessClaims, id: string, db: Queryable = this.ctx.db): Promise<TournamentDetail> {
    const t = await repo.findTournament(db, id);
    if (!t) throw notFound(TOURNAMENT.notFound);
    const [entries, games] = await Promise.all([repo.entries(db, id), repo.games(db, id)]);
    return detailOf(t, entries, games, user.userId);
  }

  // -------------------------------------------------------------------------------------
  // Creating

  /**
   * Checked by the domain's rules; a sponsor's prize is locked in escrow (their own currency) in the same transaction. With an
   * Idempotency-Key, a replay of the same request answers the same tournament (replayed) and locks nothing more.
   */
  async create(
    user: AccessClaims,
    input: CreateTournamentInput,
    idempotencyKey?: string,
  ): Promise<{ tournament: TournamentDetail; replayed: boolean }> {
    const now = new Date(this.now());
    const check = checkNewTournament(input, { role: user.role, accountType: user.accountType }, now);
    if (!check.ok) throw badRequest('invalid_input', check.message, check.field);
    const n = check.tournament;
    const hash = idempotencyKey ? crypto.createHash('sha256').update(JSON.stringify(input)).digest('hex') : null;
    const made = await this.ctx.db.transaction(async (tx) => {
      if (idempotencyKey) {
        const earlier = await repo.lockCreationKey(tx, user.userId, idempotencyKey);
        if (earlier) {
          if (earlier.request_hash !== hash) throw conflict('idempotency_key_reused', TOURNAMENT.idempotencyReused);
          return { id: earlier.id, replayed: true };
        }
      }
      const id = crypto.randomUUID();
      await this.insert(tx, user, n, id, now, idempotencyKey ? { key: idempotencyKey, hash: hash! } : null);
      return { id, replayed: false };
    });
    return { tournament: await this.view(user, made.id), replayed: made.replayed };
  }

  private async insert(
    tx: Queryable,
    user: AccessClaims,
    n: NewTournament,
    id: string,
    now: Date,
    idempotency: { key: string; hash: string } | null,
  ): Promise<void> {
    // DECISION: a sponsor funds the prize from their own balance (a promoter's or admin's pcredits),
    // paid out at par in the tournament's currency.
    const sponsorCurrency = n.sponsoredPrize > 0 ? currencyFor(user.role, user.accountType) : null;
    await repo.insertTournament(
      tx,
      {
        id,
        creator_id: user.userId,
        name: n.name,
        game: n.game,
        format: n.format,
        currency: n.currency,
        entry_stake: n.entryStake,
        sponsored_prize: n.sponsoredPrize,
        sponsor_currency: sponsorCurrency,
        min_players: n.minPlayers,
        max_players: n.maxPlayers,
        starts_at: n.startsAt,
        match_minutes: n.matchMinutes,
        match_format: n.matchFormat,
        arena_minutes: n.arenaMinutes,
        ends_at: n.arenaMinutes === null ? null : new Date(n.startsAt.getTime() + n.arenaMinutes * 60_000),
      },
      now,
      idempotency,
    );
    if (sponsorCurrency) {
      await lockStake(
        tx,
        { userId: user.userId, role: user.role, accountType: user.accountType },
        {
          idempotencyKey: `tournament:${id}:sponsor`,
          userId: user.userId,
          amount: n.sponsoredPrize,
          currency: sponsorCurrency,
          owner: { tournamentId: id },
          description: `Sponsored prize: ${n.name}`,
        },
      );
    }
    const payload = { tournamentId: id, status: 'scheduled', changes: ['created'], players: 0 };
    await publish(tx, topics.tournaments(), 'tournament.updated', payload);
    await publish(tx, topics.tournament(id), 'tournament.updated', payload);
  }

  // -------------------------------------------------------------------------------------
  // Entering and leaving

  /**
   * Enters `user`: the refusals in the domain's order, then the stake locked for the tournament. With an Idempotency-Key, a
   * retry of a join that went through answers as it did (replayed) and locks nothing more.
   */
  async join(user: AccessClaims, id: string, idempotencyKey?: string): Promise<TournamentActionResponse & { replayed: boolean }> {
    const now = new Date(this.now());
    const enteredText = (t: repo.TournamentRow) =>
      t.entry_stake > 0 ? TOURNAMENT.entered(formatMoney(t.entry_stake, t.currency)) : TOURNAMENT.enteredFree;
    const { message, replayed } = await this.ctx.db.transaction(async (tx) => {
      const t = await repo.lockTournament(tx, id);
      if (!t) throw notFound(TOURNAMENT.notFound);
      const entry = await repo.findEntry(tx, id, user.userId);
      // The key names the entry (its stake's ledger key): a retry finds its own entry, or the stake it locked before a leave.
      const keyed = idempotencyKey ? keyedEntry(id, user.userId, idempotencyKey) : null;
      if (keyed && entry?.entry_key === keyed) return { message: enteredText(t), replayed: true };
      if (keyed && !entry && (await operationRecorded(tx, entryLedgerKey(id, user.userId, keyed))))
        throw conflict('idempotency_key_reused', TOURNAMENT.idempotencyReused);
      const entered = entry !== null;
      const refusal = entryRefusal(
        { status: t.status, currency: t.currency, startsAt: t.starts_at, maxPlayers: t.max_players, entrants: t.players },
        { role: user.role, accountType: user.accountType, entered },
        now,
      );
      if (refusal) throw refused(refusal);
      const entryKey = keyed ?? crypto.randomUUID();
      const player = { userId: user.userId, role: user.role, accountType: user.accountType };
      if (t.entry_stake > 0) {
        await lockStake(tx, player, {
          idempotencyKey: entryLedgerKey(id, user.userId, entryKey),
          userId: user.userId,
          amount: t.entry_stake,
          currency: t.currency,
          owner: { tournamentId: id },
          description: `Entry stake: ${t.name}`,
        });
      } else {
        // A prize is paid into the winner's accounts of the tournament's currency: opened now.
        await ensureAccounts(tx, player);
      }
      const rating = (await repo.ratingOf(tx, user.userId, t.game)) ?? GLICKO2.initial.rating;
      await repo.insertEntry(tx, { tournamentId: id, userId: user.userId, entryKey, rating, now });
      await notify(tx, {
        userId: user.userId,
        type: 'tournament_registered',
        metadata: {
          tournamentId: id,
          tournamentName: t.name,
          gameType: t.game,
          currency: t.currency,
          ...(t.entry_stake > 0 ? { amount: fromMinor(t.entry_stake) } : {}),
        },
        now,
      });
      await pairAfter(tx, t, now, 'joined');
      return { message: enteredText(t), replayed: false };
    });
    return { tournament: await this.view(user, id), message, replayed };
  }

  /** Cancels it (an admin, or its creator before the start): live games void, every stake and a sponsor's prize back, one release. */
  async cancel(user: AccessClaims, id: string): Promise<TournamentActionResponse> {
    const now = new Date(this.now());
    const message = await this.ctx.db.transaction(async (tx) => {
      const t = await repo.lockTournament(tx, id);
      if (!t) throw notFound(TOURNAMENT.notFound);
      const decision = cancelRefusal({ status: t.status, creatorId: t.creator_id }, { userId: user.userId, role: user.role });
      if (!decision.ok) throw refused(decision.refusal);
      await cancelTournament(tx, t, now, decision.by);
      return t.sponsored_prize > 0 ? TOURNAMENT.cancelledSponsored : TOURNAMENT.cancelled;
    });
    return { tournament: await this.view(user, id), message };
  }

  /** Before the start: the stake back. A running arena: paused. A running knockout: the current match forfeited. */
  async leave(user: AccessClaims, id: string): Promise<TournamentActionResponse> {
    const now = new Date(this.now());
    const outcome = await this.ctx.db.transaction(async (tx) => {
      const t = await repo.lockTournament(tx, id);
      if (!t) throw notFound(TOURNAMENT.notFound);
      const entry = await repo.findEntry(tx, id, user.userId);
      const effect = leaveEffect({ status: t.status, format: t.format }, entry !== null);
      if (!effect.ok) throw refused(effect.refusal);
      const e = entry!;
      switch (effect.effect) {
        case 'refund': {
          if (t.entry_stake > 0) {
            await releaseEscrow(tx, {
              idempotencyKey: `tournament:${id}:leave:${user.userId}:${e.entry_key}`,
              owner: { tournamentId: id },
              userId: user.userId,
              description: `Left: ${t.name}`,
            });
          }
          await repo.deleteEntry(tx, id, user.userId);
          await pairAfter(tx, t, now, 'left');
          const message = t.entry_stake > 0 ? TOURNAMENT.leftRefunded(formatMoney(t.entry_stake, t.currency)) : TOURNAMENT.leftFree;
          return { message, forfeit: null };
        }
        case 'pause':
          if (!e.paused) {
            await repo.updateEntry(tx, id, user.userId, { paused: true, waiting_since: null });
            await pairAfter(tx, t, now, 'paused');
          }
          return { message: TOURNAMENT.pausedArena, forfeit: null };
        case 'forfeit':
          // Out already (knocked out, or left before): nothing to forfeit.
          if (e.eliminated_round !== null || e.withdrawn) throw conflict('tournament_over', TOURNAMENT.nothingToLeave);
          await repo.updateEntry(tx, id, user.userId, { withdrawn: true });
          await pairAfter(tx, t, now, 'withdrawn');
          return { message: TOURNAMENT.forfeitedKnockout, forfeit: e.current_match_id };
      }
    });
    // The match is the arena's to end (one writer per match); its ending comes back through finishMatch.
    if (outcome.forfeit) {
      const matchId = outcome.forfeit;
      await this.arena.withdraw(user, matchId).catch((error: unknown) => {
        // The player has left all the same: their clock or the no-show deadline ends the match.
        this.ctx.log.warn({ err: error, tournamentId: id, matchId }, 'tournaments: forfeiting a leaver’s match failed');
      });
    }
    return { tournament: await this.view(user, id), message: outcome.message };
  }

  /** A paused arena player comes back: waiting to be paired, and paired at once if someone is free. */
  async resume(user: AccessClaims, id: string): Promise<TournamentActionResponse> {
    const now = new Date(this.now());
    await this.ctx.db.transaction(async (tx) => {
      const t = await repo.lockTournament(tx, id);
      if (!t) throw notFound(TOURNAMENT.notFound);
      const e = await repo.findEntry(tx, id, user.userId);
      if (!e) throw conflict('not_entered', TOURNAMENT.notEntered);
      if (t.format !== 'arena' || t.status !== 'running') throw conflict('not_running_arena', TOURNAMENT.resumeArenaOnly);
      if (!e.paused) return;
      await repo.updateEntry(tx, id, user.userId, { paused: false, waiting_since: e.current_match_id === null ? now : null });
      await pairAfter(tx, t, now, 'resumed');
    });
    return { tournament: await this.view(user, id), message: TOURNAMENT.resumedArena };
  }

  // -------------------------------------------------------------------------------------
  // Running

  /** One run of the tournament at `now` (tournaments.runner.ts), in its own transaction. */
  run(id: string, now = this.now()): Promise<boolean> {
    return this.ctx.db.transaction((tx) => runTournament(tx, id, new Date(now)));
  }

  /** Every tournament with something to do now, each in its own run: one failure holds back none. */
  async runDue(now = this.now(), batch = 100): Promise<RunSummary> {
    const ids = await repo.due(this.ctx.db, new Date(now), STARTING_SOON_MS, batch);
    let failed = 0;
    for (const id of ids) {
      // One in flight already (a busy arena's runs follow each other): asked once more, not waited for, or the job would wait
      // as long as games keep ending there.
      if (this.inFlight.has(id)) {
        this.again.add(id);
        continue;
      }
      // Through runSoon: the job's run and the hand-off's never queue on the same row lock in one process.
      if (!(await this.runSoon(id))) failed++;
    }
    return { ran: ids.length - failed, failed };
  }

  /** Runs a tournament as soon as one of its games ends: at once in the process that ended it, on the hand-off's NOTIFY in the others. */
  listen(): Promise<() => Promise<void>> {
    this.arena.tournamentGameEnded = (id) => void this.runSoon(id);
    return this.ctx.db.listen(TOURNAMENT_GAME_ENDED, (payload) => {
      const id = handedTournament(payload);
      // runSoon logs a failed run; the job's beat tries again.
      if (id && UUID.test(id)) void this.runSoon(id);
    });
  }

  /** The tournaments with a run in flight in this process; in `again`, those asked for once more meanwhile. */
  private readonly inFlight = new Map<string, Promise<boolean>>();
  private readonly again = new Set<string>();

  /**
   * A run now, or right after the one in flight: every ending heard meanwhile is taken by that one next run; false if the last
   * run failed (logged). (One run a game queued on the row lock, holding a pool connection each: a busy arena ran out of both.)
   */
  runSoon(id: string): Promise<boolean> {
    const running = this.inFlight.get(id);
    if (running) {
      this.again.add(id);
      return running;
    }
    const loop = async () => {
      let ok: boolean;
      do {
        this.again.delete(id);
        ok = await this.run(id).then(
          () => true,
          (error: unknown) => {
            this.ctx.log.error({ err: error, tournamentId: id }, 'tournaments: a run failed');
            return false;
          },
        );
      } while (this.again.has(id));
      this.inFlight.delete(id);
      return ok;
    };
    const done = loop();
    this.inFlight.set(id, done);
    return done;
  }
}
