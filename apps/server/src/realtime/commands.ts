// Client → server commands other than subscriptions: `move` (a move in a live match). The
// feature that plays them registers a handler per app (the arena); the hub asks here, so the
// realtime layer knows nothing about matches. Also each app's hub, for features that deliver
// the events they commit to their own sockets at once (RealtimeHub.publishLocal).
import type { ClientMessageOf, ServerMessageOf } from '@versus/domain/realtime';
import type { AccessClaims } from '../auth/tokens.ts';
import type { AppContext } from '../context.ts';
import type { RealtimeHub } from './hub.ts';

export type MoveCommand = ClientMessageOf<'move'>['d'];
export type MoveAnswer = Omit<ServerMessageOf<'moved'>['d'], 'ref'>;
export type MoveHandler = (user: AccessClaims, move: MoveCommand) => Promise<MoveAnswer>;

const movers = new WeakMap<AppContext, MoveHandler>();

/** The arena plays the moves sent on this app's sockets. */
export function handleMoves(ctx: AppContext, handler: MoveHandler): void {
  movers.set(ctx, handler);
}

export async function playMove(ctx: AppContext, user: AccessClaims, move: MoveCommand): Promise<MoveAnswer> {
  const handler = movers.get(ctx);
  if (!handler) return { matchId: move.matchId, ok: false, status: 503, code: 'unavailable', message: 'Moves cannot be played here.' };
  return handler(user, move);
}

const hubs = new WeakMap<AppContext, RealtimeHub>();

export function setLocalHub(ctx: AppContext, hub: RealtimeHub): void {
  hubs.set(ctx, hub);
}

/** This app's hub, when the realtime feature is registered. */
export function localHub(ctx: AppContext): RealtimeHub | undefined {
  return hubs.get(ctx);
}
