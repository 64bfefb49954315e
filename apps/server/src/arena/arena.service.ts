// The arena: referees the web games of accepted challenges, from both players ready to the payout; one `Arena` per process.
// One writer per match: a chain per match here, version-checked writes across processes; the sweep ends what is a grace overdue.
import crypto from 'node:crypto';
import { ARENA, CHALLENGE, GENERIC } from '@versus/domain';
import {
  ARENA_RULES,
  matchTimeControl,
  type DrawRequest,
  type MatchResult,
  type MatchView,
  type Replay,
  type ArenaMatchSummary,
  type WebGameId,
} from '@versus/domain/arena';
import type { MatchStatus } from '@versus/domain/challenges';
import { flagFall, isWebGame, nextFlagAt, otherSeat, type MoveErrorCode, type OutcomeReason, type Seat } from '@versus/domain/games/index';
import type { AccessClaims } from '../auth/claims.ts';
import type { AppContext } from '../context.ts';
import { AppError, conflict, forbidden, notFound } from '../http/errors.ts';
import type { MoveAnswer, MoveCommand } from '../realtime/hub.ts';
import { topics } from '../realtime/publish.ts';
import { announceCommitted, notificationEvent } from '../notifications/notify.ts';
import { finishMatch, noShowEnding, type Ending } from './arena.finish.ts';
import * as repo from './arena.repository.ts';
import {
  applyArenaMove,
  checkFlag,
  drawArena,
  isOver,
  randomSeed,
  resignArena,
  startArena,
  type ArenaState,
  type GameOver,
  type MoveEntryRecord,
  toMoveOf,
  type Transition,
} from './arena.state.ts';
import { matchEvent, noShowDeadline } from './arena.views.ts';
import { activeMatches, replayMatch, spectateMatch, viewMatch } from './arena.reads.ts';
import { isStale, matchId, moveInsert, STALE, toRecord, WAITING, type MatchRecord, type Stale } from './arena.record.ts';
import { sweepOverdue, type SweepResult } from './arena.sweep.ts';
import { Alarms } from './arena.alarms.ts';
import { MatchWriter, type PlainWrite, type WriterOptions } from './arena.writer.ts';

const CACHE_LIMIT = 20_000;
/** A plain move stores only its row; the state is a snapshot at every other change and every this many moves, so replays stay short. */
const SNAPSHOT_EVERY = 32;
/** Timers fire a little after the flag could fall, so the check finds it fallen. */
const TIMER_SLACK_MS = 5;
/** How often running clocks are checked: a flag falls at most this much after the clock runs out. */
const ALARM_TICK_MS = 50;

const MOVE_REFUSAL: Record<MoveErrorCode, number> = { game_over: 409, not_your_turn: 409, invalid_move: 400, illegal_move: 400 };

export interface ArenaOptions {
  /** Server time (epoch ms). Tests pass a clock they control. */
  now?: () => number;
  /** Game seeds; the default is 32 bytes from the operating system. */
  seed?: () => string;
  writer?: WriterOptions;
}

/** A move request (HTTP body or socket message), already shape-checked. */
export interface MovePlay {
  move: unknown;
  version: number;
  lagMs?: number | undefined;
  premove?: boolean | undefined;
}

export class Arena {
  readonly writer: MatchWriter;
  readonly now: () => number;
  private readonly seed: () => string;
  private readonly cache = new Map<string, MatchRecord>();
  private readonly chains = new Map<string, Promise<void>>();
  /** Told, after the commit, that a tournament's game this process ended has ended (the tournaments set it). */
  tournamentGameEnded: ((tournamentId: string) => void) | null = null;
  /** Each running match's next flag check. */
  private readonly alarms: Alarms;
  private closed = false;

  constructor(
    private readonly ctx: AppContext,
    options: ArenaOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.seed = options.seed ?? randomSeed;
    this.writer = new MatchWriter(ctx.db, ctx.log, { hub: () => ctx.hub, batchSizes: ctx.metrics.writerBatch, ...options.writer });
    this.alarms = new Alarms({
      tickMs: ALARM_TICK_MS,
      now: this.now,
      ring: (id) => {
        this.flag(id).catch((error: unknown) => this.ctx.log.error({ err: error, matchId: id }, 'arena: clock check failed'));
      },
    });
  }

  /** Stops the timers and waits for every write in flight. */
  async close(): Promise<void> {
    this.closed = true;
    this.alarms.stop();
    await Promise.allSettled([...this.chains.values()]);
    await this.writer.drained();
    await this.storeSnapshots();
  }

  /** On the way down, running matches' snapshots caught up: the next read replays nothing, and a deploy's new rules replay no old moves. */
  private async storeSnapshots(): Promise<void> {
    const behind = [...this.cache.values()].filter((m) => m.status === 'in_progress' && m.state && m.state.seq !== m.storedSeq);
    if (behind.length === 0) return;
    try {
      const stored = await repo.storeSnapshots(
        this.ctx.db,
        behind.map((m) => ({ id: m.id, version: m.version, state: m.state! })),
      );
      this.ctx.log.info({ matches: behind.length, stored }, 'arena: state snapshots stored on close');
    } catch (error) {
      // Nothing is lost: the moves are stored, and the next read replays them.
      this.ctx.log.error({ err: error }, 'arena: storing state snapshots on close failed');
    }
  }

  // -------------------------------------------------------------------------------------
  // One operation at a time per match

  private serial<T>(id: string, operation: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(id) ?? Promise.resolve();
    const result = previous.then(operation);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(id, tail);
    void tail.then(() => {
      if (this.chains.get(id) === tail) this.chains.delete(id);
    });
    return result;
  }

  /** Runs `attempt`, once more on a fresh read when its write was stale or it refused (409) on what only this cached copy says. */
  private operate<T>(
    id: string,
    attempt: (m: MatchRecord | null, fresh: boolean) => Promise<T | Stale>,
    { fresh = false } = {},
  ): Promise<T> {
    return this.serial(id, async () => {
      if (this.closed) throw new AppError(503, 'unavailable', ARENA.busy);
      const cachedCopy = !fresh && this.cache.has(id);
      let first: T | Stale;
      try {
        // A cached copy is handed over at once: a move on a live match waits for nothing before its write.
        first = await attempt(cachedCopy ? this.cached(id)! : await this.load(id, fresh), fresh);
      } catch (error) {
        if (!cachedCopy || !(error instanceof AppError) || error.status !== 409) throw error;
        this.cache.delete(id);
        first = await attempt(await this.load(id, true), true);
      }
      if (!isStale(first)) return first;
      this.cache.delete(id);
      const second = await attempt(await this.load(id, true), true);
      if (!isStale(second)) return second;
      this.cache.delete(id);
      throw conflict('stale_version', ARENA.changedMeanwhile);
    });
  }

  private async load(id: string, fresh: boolean): Promise<MatchRecord | null> {
    const cached = fresh ? undefined : this.cached(id);
    if (cached) return cached;
    const row = await repo.findCore(this.ctx.db, id);
    if (!row) {
      this.cache.delete(id);
      return null;
    }
    const record = toRecord(row);
    this.remember(record);
    return record;
  }

  private cached(id: string): MatchRecord | undefined {
    const cached = this.cache.get(id);
    if (cached) {
      // Most recently used last: the oldest are dropped first.
      this.cache.delete(id);
      this.cache.set(id, cached);
    }
    return cached;
  }

  private remember(record: MatchRecord): void {
    this.cache.delete(record.id);
    if (record.status === 'completed' || record.status === 'cancelled' || record.status === 'disputed') return;
    this.cache.set(record.id, record);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value!);
  }

  /** Who may play: a player of a web game's match. */
  private player(m: MatchRecord | null, user: AccessClaims): { m: MatchRecord; seat: Seat } {
    if (!m) throw notFound(CHALLENGE.matchNotFound);
    const seat = m.players[0] === user.userId ? 0 : m.players[1] === user.userId ? 1 : null;
    if (seat === null) throw forbidden(ARENA.notAPlayer);
    if (!isWebGame(m.game)) throw conflict('not_web_game', ARENA.notWebGame);
    return { m, seat };
  }

  /** The player, on the match at the request's version: a cached copy behind it (another process wrote) is read again. */
  private playerAt(
    found: MatchRecord | null,
    fresh: boolean,
    user: AccessClaims,
    id: string,
    version: number | undefined,
  ): { m: MatchRecord; seat: Seat } | Promise<{ m: MatchRecord; seat: Seat }> {
    const here = this.player(found, user);
    if (fresh || version === undefined || version <= here.m.version) return here;
    return this.load(id, true).then((m) => this.player(m, user));
  }

  private checkPlaying(m: MatchRecord, version: number | undefined): ArenaState {
    if (WAITING.includes(m.status)) throw conflict('not_started', ARENA.notStarted);
    if (m.status !== 'in_progress' || !m.state || isOver(m.state)) throw conflict('match_over', ARENA.matchOver);
    if (version !== undefined && version !== m.version) throw conflict('stale_version', ARENA.staleVersion(version, m.version));
    return m.state;
  }

  // -------------------------------------------------------------------------------------
  // Writing a change

  private eventContext(m: MatchRecord, now: number) {
    return { matchId: m.id, version: m.version, status: m.status, readyAt: m.readyAt, state: m.state, now };
  }

  /** Commits a plain change with its move and events, false when stale; a move stores its row, the state only when a snapshot is due. */
  private async writePlain(
    before: MatchRecord,
    next: MatchRecord,
    move: MoveEntryRecord | null,
    events: PlainWrite['events'],
    { endedGame = false } = {},
  ): Promise<boolean> {
    const clock = next.state?.clock;
    const deadline = next.status === 'in_progress' && clock ? nextFlagAt(clock) : null;
    // A move that ended a game started the next with a fresh seed: no replay could make that.
    const replayable = move !== null && !endedGame && move.seq % SNAPSHOT_EVERY !== 0;
    const snapshot = next.state !== before.state && !replayable;
    const applied = await this.writer.plain({
      change: {
        id: next.id,
        fromVersion: before.version,
        toVersion: next.version,
        status: next.status,
        state: snapshot ? JSON.stringify(next.state) : null,
        toMove: next.status === 'in_progress' && next.state ? toMoveOf(next.state) : [],
        turnSince: next.status === 'in_progress' ? (clock?.since ?? null) : null,
        readyAt: next.readyAt,
        startedAt: next.startedAt,
        deadlineAt: deadline === null ? null : new Date(deadline),
        gameData: move ? JSON.stringify({ moveCount: move.seq, lastMoveBy: next.players[move.seat] }) : null,
      },
      move: move && moveInsert(next.id, move),
      events,
    });
    if (!applied) return false;
    this.remember(snapshot ? { ...next, storedSeq: next.state?.seq ?? null } : next);
    this.armTimer(next, deadline);
    return true;
  }

  private matchTopicEvent(next: MatchRecord, type: string, now: number, extra: Parameters<typeof matchEvent>[1] = {}) {
    return {
      matchId: next.id,
      topic: topics.match(next.id),
      type,
      payload: JSON.stringify(matchEvent(this.eventContext(next, now), extra)),
    };
  }

  /** Commits a transition of a running match: a plain change, or the end of the match. */
  private async commitTransition(
    m: MatchRecord,
    t: Transition,
    type: string,
    now: number,
    move: MoveEntryRecord | null,
  ): Promise<{ version: number; result?: MatchResult } | Stale> {
    if (t.matchOutcome) {
      const outcome = t.matchOutcome;
      const ending: Ending =
        'winner' in outcome ? { kind: 'win', winner: outcome.winner, reason: outcome.reason } : { kind: 'draw', reason: outcome.reason };
      const lastGame = t.gameOver?.record.outcome?.reason ?? null;
      return this.finish(m, t.state, ending, lastGame, now, move, t.gameOver);
    }
    const next: MatchRecord = { ...m, version: m.version + 1, state: t.state };
    const event = this.matchTopicEvent(next, type, now, { move, gameOver: t.gameOver });
    return (await this.writePlain(m, next, move, [event], { endedGame: t.gameOver !== null })) ? { version: next.version } : STALE;
  }

  /** Ends the match through finishMatch in a batch's transaction; a move that ends it is stored first, in the same one. */
  private async finish(
    m: MatchRecord,
    state: ArenaState | null,
    ending: Ending,
    lastGameReason: OutcomeReason | null,
    now: number,
    move: MoveEntryRecord | null = null,
    gameOver: GameOver | null = null,
  ): Promise<{ version: number; result: MatchResult } | Stale> {
    const status: MatchStatus = ending.kind === 'void' ? 'cancelled' : 'completed';
    const outcome = await this.writer.work((tx) =>
      finishMatch(tx, {
        match: { id: m.id, players: m.players, game: m.game as WebGameId, currency: m.currency, version: m.version },
        state,
        ending,
        lastGameReason,
        move: move && moveInsert(m.id, move),
        now,
        publicEvent: (result, version) =>
          matchEvent({ matchId: m.id, version, status, readyAt: m.readyAt, state, now }, { move, gameOver, result }),
        tournamentRunHere: m.tournamentId !== null && this.tournamentGameEnded !== null,
      }),
    );
    if (!outcome.ok) {
      if (outcome.reason === 'stale') return STALE;
      throw conflict('match_over', ARENA.matchOver);
    }
    this.cache.delete(m.id);
    this.alarms.clear(m.id);
    // Committed: this process pairs its players at once, not after the hand-off's NOTIFY comes back (other processes hear that).
    if (m.tournamentId) this.tournamentGameEnded?.(m.tournamentId);
    return { version: outcome.version, result: outcome.result };
  }

  // -------------------------------------------------------------------------------------
  // Timers

  private armTimer(m: MatchRecord, deadline: number | null): void {
    if (deadline === null || this.closed) this.alarms.clear(m.id);
    else this.alarms.set(m.id, deadline + TIMER_SLACK_MS);
  }

  // -------------------------------------------------------------------------------------
  // Operations

  /** Both ready starts the series; a ready after the no-show deadline is refused and the match ends, at once or by the sweep. */
  ready(user: AccessClaims, id: string, receivedAt = this.now()): Promise<{ version: number; started: boolean }> {
    return this.operate(id, async (found) => {
      const { m, seat } = this.player(found, user);
      if (m.status === 'in_progress') return { version: m.version, started: true };
      if (!WAITING.includes(m.status)) throw conflict('match_over', ARENA.matchOver);
      // On time is judged by when the ready arrived, not by when its turn came (as a move's clock).
      const now = this.now();
      const arrived = Math.min(receivedAt, now);
      const deadline = noShowDeadline({ scheduled_time: m.scheduledTime, created_at: m.createdAt, ready_by: m.readyBy }).getTime();
      if (arrived >= deadline && now < deadline + ARENA_RULES.sweepGraceMs) {
        // Too late, but the other player's ready may have arrived in time at another process and
        // still be on its way to the database: the sweep settles it after the grace, as it would.
        if (m.readyAt[seat]) return { version: m.version, started: false };
        throw conflict('no_show', m.readyAt[otherSeat(seat)] ? ARENA.noShowForfeit : ARENA.matchVoid);
      }
      if (arrived >= deadline) {
        const resolved = await this.resolveNoShow(m, now);
        if (isStale(resolved)) return STALE;
        // Too late: the absent player has forfeited (the one who waited wins), or nobody came.
        if (m.readyAt[seat]) return { version: resolved.version, started: false };
        throw conflict('no_show', m.readyAt[otherSeat(seat)] ? ARENA.noShowForfeit : ARENA.matchVoid);
      }
      if (m.readyAt[seat]) return { version: m.version, started: false };

      const readyAt: MatchRecord['readyAt'] = [...m.readyAt];
      readyAt[seat] = new Date(arrived);
      const both = readyAt[0] !== null && readyAt[1] !== null;
      const next: MatchRecord = {
        ...m,
        version: m.version + 1,
        readyAt,
        ...(both
          ? {
              status: 'in_progress' as const,
              startedAt: new Date(now),
              state: startArena({
                game: m.game as WebGameId,
                control: matchTimeControl(m.game as WebGameId, m.duration),
                now,
                seed: this.seed,
                firstSeat: m.firstSeat ?? (crypto.randomInt(2) as Seat),
                matchFormat: m.matchFormat,
              }),
            }
          : {}),
      };
      const events: PlainWrite['events'] = [
        this.matchTopicEvent(next, both ? 'match.started' : 'match.ready', now),
        {
          matchId: m.id,
          topic: topics.arenaJoin(m.id),
          type: 'player_joined',
          payload: JSON.stringify({ matchId: m.id, userId: user.userId, seat, ready: [readyAt[0] !== null, readyAt[1] !== null] }),
        },
      ];
      if (both) {
        for (const userId of m.players) {
          events.push({
            matchId: m.id,
            topic: topics.user(userId),
            type: 'match.started',
            payload: JSON.stringify({ matchId: m.id, gameType: m.game }),
          });
        }
      }
      // "Match Started" to both, or "Opponent Ready" to the other: events in this same write
      // (the notification row is stored from its event; docs/decisions.md, Notifications).
      const notes = (both ? m.players : [m.players[otherSeat(seat)]]).map((userId) =>
        notificationEvent({
          userId,
          type: both ? 'match_started' : 'match_ready',
          metadata: { matchId: m.id, gameType: m.game, ...(both ? {} : { opponentId: user.userId }) },
          matchId: m.id,
          now: new Date(now),
        }),
      );
      for (const note of notes) events.push({ matchId: m.id, topic: note.topic, type: note.type, payload: note.payload });
      if (!(await this.writePlain(m, next, null, events))) return STALE;
      announceCommitted(
        this.ctx.db,
        notes.map((note) => note.notification.id),
      );
      return { version: next.version, started: both };
    });
  }

  /** A move, received at `receivedAt` (server time): validated, clocked, stored, published. */
  async move(
    user: AccessClaims,
    id: string,
    request: MovePlay,
    arrivedAt = this.now(),
  ): Promise<{ version: number; result?: MatchResult }> {
    const started = performance.now();
    const { played, refused, duration } = this.ctx.metrics.moves;
    try {
      const done = await this.play(user, id, request, arrivedAt);
      played.inc();
      return done;
    } catch (error) {
      refused.inc();
      throw error;
    } finally {
      duration.observe((performance.now() - started) / 1000);
    }
  }

  private play(user: AccessClaims, id: string, request: MovePlay, arrivedAt: number): Promise<{ version: number; result?: MatchResult }> {
    // Whole milliseconds: the move row keeps its time as a timestamp, and a replay must press the clock at the same instant.
    const receivedAt = Math.floor(arrivedAt);
    return this.operate(id, async (found, fresh) => {
      // Neither awaited unless it has to read or write (a promise hop per move each).
      const at = this.playerAt(found, fresh, user, id, request.version);
      const { m, seat } = at instanceof Promise ? await at : at;
      const state = this.checkPlaying(m, request.version);
      // The opponent's flag fell before this move arrived (simultaneous throws): that came first.
      const flagging = this.flagFirst(m, state, seat, receivedAt, { othersOnly: true });
      const fallen = flagging && (await flagging);
      if (fallen) return fallen;
      const metrics = { ...(request.lagMs === undefined ? {} : { lagMs: request.lagMs }), ...(request.premove ? { premove: true } : {}) };
      const outcome = applyArenaMove(state, seat, request.move, { now: receivedAt, metrics, seed: this.seed });
      if (outcome.kind === 'refused') throw new AppError(MOVE_REFUSAL[outcome.code], outcome.code, outcome.error);
      if (outcome.kind === 'flagged') {
        const done = await this.commitTransition(m, outcome, 'match.timeout', receivedAt, null);
        if (isStale(done)) return STALE;
        throw conflict('time_out', ARENA.timeUp);
      }
      return this.commitTransition(m, outcome, 'match.move', receivedAt, outcome.entry);
    });
  }

  /** A move sent on a realtime socket: answered as `moved`, a refusal as its status and text. */
  async socketMove(user: AccessClaims, d: MoveCommand): Promise<MoveAnswer> {
    try {
      const request = { move: d.move, version: d.version, lagMs: d.lagMs, premove: d.premove };
      const done = await this.move(user, matchId(d.matchId), request);
      return { matchId: d.matchId, ok: true, version: done.version };
    } catch (error) {
      if (error instanceof AppError)
        return { matchId: d.matchId, ok: false, status: error.status, code: error.code, message: error.message };
      this.ctx.log.error({ err: error, matchId: d.matchId }, 'arena: socket move failed');
      return { matchId: d.matchId, ok: false, status: 500, code: 'internal', message: GENERIC.other };
    }
  }

  /** `user` gives up the match (the whole series). */
  resign(user: AccessClaims, id: string, version?: number, receivedAt = this.now()): Promise<{ version: number; result?: MatchResult }> {
    return this.operate(id, async (found, fresh) => {
      const { m, seat } = await this.playerAt(found, fresh, user, id, version);
      const state = this.checkPlaying(m, version);
      const now = this.now();
      const fallen = await this.flagFirst(m, state, seat, Math.min(receivedAt, now));
      if (fallen) return fallen;
      const t = resignArena(state, seat, now);
      if ('error' in t) throw conflict('match_over', ARENA.matchOver);
      return this.commitTransition(m, t, 'match.completed', now, null);
    });
  }

  /** Leaves a tournament's match: a running one is resigned, a waiting one forfeited to the opponent; null when already over. */
  withdraw(user: AccessClaims, id: string): Promise<{ version: number; result?: MatchResult } | null> {
    return this.operate(id, async (found) => {
      const { m, seat } = this.player(found, user);
      const now = this.now();
      if (WAITING.includes(m.status)) return this.finish(m, null, { kind: 'win', winner: otherSeat(seat), reason: 'forfeit' }, null, now);
      if (m.status !== 'in_progress' || !m.state || isOver(m.state)) return null;
      let current = m;
      // A flag that has fallen decides first; the resignation then concedes what is left.
      const flagged = checkFlag(m.state, now, this.seed);
      if (flagged) {
        const done = await this.commitTransition(m, flagged, 'match.timeout', now, null);
        if (isStale(done) || flagged.matchOutcome) return done;
        current = { ...m, version: done.version, state: flagged.state };
      }
      const t = resignArena(current.state!, seat, now);
      if ('error' in t) return null;
      return this.commitTransition(current, t, 'match.completed', now, null);
    });
  }

  /** Offer, accept or decline a draw of the current game (chess and checkers). */
  draw(user: AccessClaims, id: string, request: DrawRequest, receivedAt = this.now()): Promise<{ version: number; result?: MatchResult }> {
    return this.operate(id, async (found, fresh) => {
      const { m, seat } = await this.playerAt(found, fresh, user, id, request.version);
      const state = this.checkPlaying(m, request.version);
      const now = this.now();
      const fallen = await this.flagFirst(m, state, seat, Math.min(receivedAt, now));
      if (fallen) return fallen;
      const answer = drawArena(state, seat, request.action, now, this.seed);
      switch (answer.kind) {
        case 'refused': {
          const message = {
            not_allowed: ARENA.drawNotAllowed,
            nothing_to_answer: ARENA.drawNothingToAnswer,
            already_offered: ARENA.drawAlreadyOffered,
          }[answer.reason];
          throw conflict(answer.reason === 'not_allowed' ? 'draw_not_allowed' : answer.reason, message);
        }
        case 'offered':
        case 'declined': {
          const next: MatchRecord = { ...m, version: m.version + 1, state: answer.state };
          const type = answer.kind === 'offered' ? 'match.draw_offered' : 'match.draw_declined';
          return (await this.writePlain(m, next, null, [this.matchTopicEvent(next, type, now)])) ? { version: next.version } : STALE;
        }
        case 'accepted':
          return this.commitTransition(m, answer, 'match.draw_accepted', now, null);
      }
    });
  }

  /** A flag fallen by the request's arrival decides first: timeout committed, request refused (409); a move checks its own flag. */
  private flagFirst(m: MatchRecord, state: ArenaState, seat: Seat, now: number, { othersOnly = false } = {}): Promise<Stale | null> | null {
    const fallen = flagFall(state.clock, now);
    if (othersOnly ? !fallen.some((s) => s !== seat) : fallen.length === 0) return null;
    const t = checkFlag(state, now, this.seed);
    return t && this.commitFlag(m, t, seat, now);
  }

  private async commitFlag(m: MatchRecord, t: Transition, seat: Seat, now: number): Promise<Stale | null> {
    const done = await this.commitTransition(m, t, 'match.timeout', now, null);
    if (isStale(done)) return STALE;
    const outcome = t.gameOver?.record.outcome;
    if (outcome && 'winner' in outcome && outcome.winner !== seat) throw conflict('time_out', ARENA.timeUp);
    if (t.matchOutcome) throw conflict('match_over', ARENA.matchOver);
    throw conflict('stale_version', ARENA.changedMeanwhile);
  }

  /** Ends the current game if its flag fell by `now`, or `graceMs` before it (the sweep's: a move in time may be in flight elsewhere). */
  flag(id: string, now = this.now(), { fresh = false, graceMs = 0 } = {}): Promise<boolean> {
    return this.operate(
      id,
      async (m) => {
        if (!m || m.status !== 'in_progress' || !m.state) return false;
        const due = nextFlagAt(m.state.clock);
        const t = graceMs > 0 && due !== null && due >= now - graceMs ? null : checkFlag(m.state, now, this.seed);
        if (!t) {
          this.armTimer(m, due === null ? null : due + graceMs);
          return false;
        }
        const done = await this.commitTransition(m, t, 'match.timeout', now, null);
        return isStale(done) ? STALE : true;
      },
      { fresh },
    );
  }

  /** Past the no-show deadline by `graceMs`: the absent player forfeits, nobody there is a void; who was ready by the deadline counts. */
  noShow(id: string, now = this.now(), graceMs = 0): Promise<boolean> {
    return this.operate(
      id,
      async (m) => {
        if (!m || !WAITING.includes(m.status) || !isWebGame(m.game)) return false;
        if (noShowDeadline({ scheduled_time: m.scheduledTime, created_at: m.createdAt, ready_by: m.readyBy }).getTime() >= now - graceMs)
          return false;
        const done = await this.resolveNoShow(m, now);
        return isStale(done) ? STALE : true;
      },
      { fresh: true },
    );
  }

  private resolveNoShow(m: MatchRecord, now: number) {
    return this.finish(m, null, noShowEnding(m.readyAt), null, now);
  }

  /** Ends every clock and no-show overdue by more than the sweep's grace (arena.sweep.ts). */
  sweep(now = this.now(), batch = 500): Promise<SweepResult> {
    return sweepOverdue(this, this.ctx, now, batch);
  }

  // -------------------------------------------------------------------------------------
  // Reading (arena.reads.ts)

  view(user: AccessClaims, id: string): Promise<MatchView> {
    return viewMatch(this.ctx, user, id, this.now());
  }

  spectate(user: AccessClaims, id: string): Promise<MatchView> {
    return spectateMatch(this.ctx, user, id, this.now());
  }

  replay(user: AccessClaims, id: string): Promise<Replay> {
    return replayMatch(this.ctx, user, id);
  }

  active(user: AccessClaims): Promise<ArenaMatchSummary[]> {
    return activeMatches(this.ctx, user);
  }
}
