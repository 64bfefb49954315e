// A scripted tic-tac-toe player behind a load balancer that reconnects and resumes as the web app does,
// counting what the cluster tests check: answers, versions seen, resumes.
import crypto from 'node:crypto';
import WebSocket from 'ws';
import { REALTIME_PROTOCOL, parseServerMessage, type ServerMessage } from '@versus/domain/realtime';
import { messageText } from '../realtime/message-text.ts';
import { signUpPayload } from '../realtime/test-socket.ts';

export interface Account {
  id: string;
  token: string;
}

/** One HTTP answer as a client saw it. */
export interface Answer<T = unknown> {
  status: number;
  body: T;
  servedBy: string | null;
  retryAfter: string | null;
}

export interface HttpTally {
  /** Answers by status; `no answer` for a request that got none (connection closed, refused). */
  byStatus: Map<number | 'no answer', number>;
  /** Every 5xx and every request with no answer, with when it happened (performance.now()). */
  failures: { at: number; status: number | 'no answer'; request: string; body: string; retryAfter: string | null }[];
}

export const newTally = (): HttpTally => ({ byStatus: new Map(), failures: [] });

/** HTTP through the proxy; every answer counted in `tally`. */
export class Api {
  constructor(
    readonly base: string,
    readonly tally: HttpTally,
  ) {}

  async call<T>(method: 'GET' | 'POST', path: string, options: { as?: Account; body?: unknown } = {}): Promise<Answer<T> | null> {
    const request = `${method} ${path}`;
    let res: Response;
    try {
      res = await fetch(`${this.base}${path}`, {
        method,
        headers: {
          ...(options.as ? { authorization: `Bearer ${options.as.token}` } : {}),
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
      });
    } catch (error) {
      this.count('no answer');
      this.tally.failures.push({
        at: performance.now(),
        status: 'no answer',
        request,
        body: String((error as Error).cause ?? error),
        retryAfter: null,
      });
      return null;
    }
    const text = await res.text();
    this.count(res.status);
    const retryAfter = res.headers.get('retry-after');
    if (res.status >= 500)
      this.tally.failures.push({ at: performance.now(), status: res.status, request, body: text.slice(0, 300), retryAfter });
    let body: unknown = text;
    try {
      body = JSON.parse(text);
    } catch {
      // Not JSON (a proxy's own error page): kept as text.
    }
    return { status: res.status, body: body as T, servedBy: res.headers.get('x-served-by'), retryAfter };
  }

  /** `call`, tried again after a 503 or no answer (setup steps, not the moves under test): the 2xx answer. */
  async must<T>(
    method: 'GET' | 'POST',
    path: string,
    options: { as?: Account; body?: unknown; retryNoAnswer?: boolean } = {},
  ): Promise<Answer<T>> {
    for (let attempt = 0; attempt < 40; attempt++) {
      const answer = await this.call<T>(method, path, options);
      if (answer && answer.status < 300) return answer;
      const again = answer ? answer.status === 503 : options.retryNoAnswer === true || method === 'GET';
      if (!again) throw new Error(`${method} ${path}: ${answer?.status} ${JSON.stringify(answer?.body)}`);
      await sleep(100);
    }
    throw new Error(`${method} ${path}: no 2xx answer after 40 tries`);
  }

  private count(status: number | 'no answer') {
    this.tally.byStatus.set(status, (this.tally.byStatus.get(status) ?? 0) + 1);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Signs up a real-money player (1,000 credits) through `api`. */
export async function signUpThrough(api: Api, label: string): Promise<Account> {
  const name = `${label}${crypto.randomBytes(4).toString('hex')}`.slice(0, 24);
  const answer = await api.must<{ user: { id: string }; session: { access_token: string } }>('POST', '/api/auth/signup', {
    body: signUpPayload(name),
  });
  return { id: answer.body.user.id, token: answer.body.session.access_token };
}

/** A tic-tac-toe challenge of `creator`'s accepted by `acceptor`: the match id. */
export async function ticTacToeMatch(api: Api, creator: Account, acceptor: Account, stake = 1): Promise<string> {
  const created = await api.must<{ challenge: { id: string } }>('POST', '/api/challenges', {
    as: creator,
    body: { game: 'tic-tac-toe', stake, duration: 5, isPrivate: false },
  });
  const accepted = await api.must<{ match: { id: string } }>('POST', `/api/challenges/${created.body.challenge.id}/accept`, {
    as: acceptor,
    body: {},
  });
  return accepted.body.match.id;
}

/** What a player knows of the match: from its snapshot (GET) and every event since. */
export interface LiveView {
  version: number;
  status: string;
  toMove: number[];
  game: { index: number; view: { cells: (number | null)[]; x: number } } | null;
}

export interface LiveStats {
  /** Events applied, each the next version. */
  events: number;
  /** Versions covered by a reload after a `gap` instead of by events. */
  reloaded: number;
  /** Faults: an event at or below the version already seen, or beyond the next one. */
  duplicates: number;
  skipped: number;
  gaps: number;
  /** Sockets opened after the first, and how long each took from the drop to `subscribed` again. */
  resumes: number;
  resumeMs: number[];
  /** The servers the socket was on, in order (x-served-by of the upgrade). */
  servers: string[];
  /** Close codes of the sockets that dropped. */
  closes: number[];
  /** Events applied, by type. */
  types: Record<string, number>;
}

export type MoveOutcome =
  { kind: 'ok'; version: number } | { kind: 'refused'; status: number; code: string } | { kind: 'unknown'; why: string };

export class LivePlayer {
  view: LiveView | null = null;
  readonly stats: LiveStats = {
    events: 0,
    reloaded: 0,
    duplicates: 0,
    skipped: 0,
    gaps: 0,
    resumes: 0,
    resumeMs: [],
    servers: [],
    closes: [],
    types: {},
  };
  /** The seat this player has in the match. */
  seat = -1;
  /** The version of the match when this player loaded it first: it sees every one after. */
  firstVersion = -1;
  private socket: WebSocket | undefined;
  private subscribed = false;
  private running = true;
  private droppedAt: number | undefined;
  private reloading: Promise<void> | undefined;
  private buffered: { v: number; type: string; payload: LiveView }[] = [];
  private readonly waiters = new Set<() => void>();
  private readonly moves = new Map<string, (outcome: MoveOutcome) => void>();
  private readonly topic: string;

  constructor(
    readonly api: Api,
    readonly wsUrl: string,
    readonly account: Account,
    readonly matchId: string,
  ) {
    this.topic = `match:${matchId}`;
  }

  /** The server the socket is on now. */
  get server(): string | undefined {
    return this.subscribed ? this.stats.servers.at(-1) : undefined;
  }

  /** Loads the match, then follows it; resolves once subscribed. */
  async start(): Promise<void> {
    await this.reload();
    this.open();
    await this.until(() => this.subscribed, 15_000, 'subscribed');
  }

  /** Closes this socket from the client side and opens another (to land on another server). */
  async reconnect(): Promise<void> {
    const socket = this.socket;
    this.subscribed = false;
    this.socket = undefined;
    socket?.removeAllListeners('close');
    socket?.close();
    this.open();
    await this.until(() => this.subscribed, 15_000, 'subscribed');
  }

  stop(): void {
    this.running = false;
    const socket = this.socket;
    this.socket = undefined;
    socket?.close();
  }

  /** Resolves when `check` holds (checked on every change). */
  until(check: () => boolean, timeoutMs = 15_000, what = 'a condition'): Promise<void> {
    return new Promise((resolve, reject) => {
      const look = () => {
        if (!check()) return;
        this.waiters.delete(look);
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.waiters.delete(look);
        reject(
          new Error(
            `${this.account.id.slice(0, 8)}: no ${what} within ${timeoutMs} ms (version ${this.view?.version}, socket on ${this.server})`,
          ),
        );
      }, timeoutMs);
      this.waiters.add(look);
      look();
    });
  }

  private changed(): void {
    for (const look of [...this.waiters]) look();
  }

  private open(): void {
    if (!this.running) return;
    const socket = new WebSocket(this.wsUrl);
    this.socket = socket;
    socket.on('upgrade', (res) => this.stats.servers.push(String(res.headers['x-served-by'] ?? '?')));
    socket.on('open', () => socket.send(JSON.stringify({ t: 'hello', d: { token: this.account.token, protocol: REALTIME_PROTOCOL } })));
    socket.on('message', (data) => this.onMessage(messageText(data)));
    socket.on('error', () => undefined); // 'close' follows
    socket.on('close', (code) => {
      if (socket !== this.socket) return;
      this.subscribed = false;
      this.socket = undefined;
      this.stats.closes.push(code);
      this.droppedAt ??= performance.now();
      for (const [ref, settle] of this.moves) {
        this.moves.delete(ref);
        settle({ kind: 'unknown', why: `socket closed (${code}) before the answer` });
      }
      this.changed();
      if (this.running) setTimeout(() => this.open(), 250);
    });
  }

  private onMessage(text: string): void {
    const parsed = parseServerMessage(text);
    if (!parsed.ok) throw new Error(`not a server message: ${text}`);
    const message: ServerMessage = parsed.message;
    switch (message.t) {
      case 'welcome':
        this.socket?.send(JSON.stringify({ t: 'sub', d: { topic: this.topic, since: this.view!.version } }));
        return;
      case 'subscribed':
        if (message.d.topic !== this.topic) return;
        this.subscribed = true;
        if (this.droppedAt !== undefined) {
          this.stats.resumes++;
          this.stats.resumeMs.push(Math.round(performance.now() - this.droppedAt));
          this.droppedAt = undefined;
        }
        this.changed();
        return;
      case 'event':
        if (message.d.topic !== this.topic) return;
        this.onEvent(message.d.v, message.d.type, message.d.payload as LiveView);
        return;
      case 'gap':
        if (message.d.topic !== this.topic) return;
        this.stats.gaps++;
        void this.reload();
        return;
      case 'moved': {
        const settle = message.d.ref === undefined ? undefined : this.moves.get(message.d.ref);
        if (!settle) return;
        this.moves.delete(message.d.ref!);
        const status = message.d.status ?? 0;
        if (message.d.ok) settle({ kind: 'ok', version: message.d.version! });
        else if (status >= 500) settle({ kind: 'unknown', why: `moved: ${status} ${message.d.code}` });
        else settle({ kind: 'refused', status, code: message.d.code ?? '' });
        return;
      }
      case 'hint':
      case 'pong':
      case 'error': // Nothing this player measures.
        return;
    }
  }

  private onEvent(v: number, type: string, payload: LiveView): void {
    if (this.reloading) {
      this.buffered.push({ v, type, payload });
      return;
    }
    const view = this.view!;
    if (v <= view.version) {
      this.stats.duplicates++;
      return;
    }
    if (v !== view.version + 1) {
      this.stats.skipped++;
      return;
    }
    this.stats.events++;
    this.stats.types[type] = (this.stats.types[type] ?? 0) + 1;
    this.view = { version: v, status: payload.status, toMove: payload.toMove, game: payload.game };
    this.changed();
  }

  /** GET the match (the first time, and after a `gap`); events that come meanwhile wait. */
  private reload(): Promise<void> {
    this.reloading ??= (async () => {
      const answer = await this.api.must<{ match: LiveView & { viewerSeat: number } }>('GET', `/api/matches/${this.matchId}`, {
        as: this.account,
      });
      const match = answer.body.match;
      if (this.view) this.stats.reloaded += Math.max(0, match.version - this.view.version);
      else this.firstVersion = match.version;
      if (!this.view || match.version >= this.view.version) {
        this.view = { version: match.version, status: match.status, toMove: match.toMove, game: match.game };
      }
      this.seat = match.viewerSeat;
      this.reloading = undefined;
      const waiting = this.buffered;
      this.buffered = [];
      for (const { v, type, payload } of waiting) if (v > this.view.version) this.onEvent(v, type, payload);
      this.changed();
    })();
    return this.reloading;
  }

  /** Plays `cell` on the version this player last saw, over its socket (when subscribed) or HTTP. */
  async move(cell: number, over: 'socket' | 'http'): Promise<MoveOutcome> {
    const version = this.view!.version;
    const socket = this.socket;
    if (over === 'socket' && socket && this.subscribed) {
      const ref = crypto.randomUUID();
      return new Promise<MoveOutcome>((resolve) => {
        const timer = setTimeout(() => {
          this.moves.delete(ref);
          resolve({ kind: 'unknown', why: 'no answer on the socket within 10 s' });
        }, 10_000);
        this.moves.set(ref, (outcome) => {
          clearTimeout(timer);
          resolve(outcome);
        });
        socket.send(JSON.stringify({ t: 'move', d: { ref, matchId: this.matchId, move: cell, version } }));
      });
    }
    const answer = await this.api.call<{ match: { version: number }; error?: { code: string } }>(
      'POST',
      `/api/matches/${this.matchId}/moves`,
      {
        as: this.account,
        body: { move: cell, version },
      },
    );
    if (!answer) return { kind: 'unknown', why: 'no HTTP answer' };
    if (answer.status === 200) return { kind: 'ok', version: answer.body.match.version };
    if (answer.status >= 500) return { kind: 'unknown', why: `HTTP ${answer.status}` };
    return { kind: 'refused', status: answer.status, code: answer.body.error?.code ?? '' };
  }
}

export interface MatchTally {
  /** Moves sent, answered as applied, refused, and with no answer (whose fate was then looked up). */
  sent: number;
  acked: number;
  refused: number;
  unknown: number;
  /** Of the unknown ones, those found applied afterwards. */
  landed: number;
  bySocket: number;
  byHttp: number;
}

export const newMatchTally = (): MatchTally => ({ sent: 0, acked: 0, refused: 0, unknown: 0, landed: 0, bySocket: 0, byHttp: 0 });

/** X wins every game on the top row; each move waits until both sockets have shown the one before. `over(n)`: the transport. */
export async function playTicTacToe(
  players: [LivePlayer, LivePlayer],
  tally: MatchTally,
  options: { over?: (n: number) => 'socket' | 'http'; beforeMove?: (n: number, mover: LivePlayer) => Promise<void> } = {},
): Promise<LiveView> {
  const api = players[0].api;
  let expected = players[0].view!.version;
  for (let n = 0; ; n++) {
    await Promise.all(players.map((p) => p.until(() => p.view!.version >= expected, 20_000, `version ${expected}`)));
    const view = players[0].view!;
    if (view.status !== 'in_progress') return view;
    const mover = players.find((p) => view.toMove.includes(p.seat))!;
    await options.beforeMove?.(n, mover);
    const board = mover.view!.game!.view;
    const mine = mover.seat === board.x ? [0, 1, 2] : [3, 4, 6, 7];
    const cell = mine.find((c) => board.cells[c] === null)!;
    const over = options.over?.(n) ?? 'socket';
    tally.sent++;
    if (over === 'socket') tally.bySocket++;
    else tally.byHttp++;
    const outcome = await mover.move(cell, over);
    if (outcome.kind === 'ok') {
      tally.acked++;
      expected = outcome.version;
      continue;
    }
    if (outcome.kind === 'refused') {
      tally.refused++;
      throw new Error(`move ${n} refused: ${outcome.status} ${outcome.code}`);
    }
    // No answer: what the match says now tells whether it was applied.
    tally.unknown++;
    const now = await api.must<{ match: { version: number } }>('GET', `/api/matches/${mover.matchId}`, { as: mover.account });
    if (now.body.match.version > view.version) {
      tally.landed++;
      expected = now.body.match.version;
    }
  }
}
