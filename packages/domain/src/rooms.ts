// Private rooms (SPEC §3, §4, §5, §8, §9): the request checks, the code rules and the wire shapes,
// shared by server and web.
import { z } from 'zod';
import { CURRENCIES, ROOM_RULES } from './constants.ts';
import { GAMES, GAME_IDS, CODE_ALPHABET, isWebGame, type GameId } from './catalogue.ts';
import { ROOMS } from './messages.ts';

/** The fixed bet tiers a room may use (whole units of the creator's currency). */
export const ROOM_BET_TIERS = [5, 10, 20, 50, 100] as const;
export type RoomBetTier = (typeof ROOM_BET_TIERS)[number];

export const ROOM_LIMITS = {
  codeLength: ROOM_RULES.codeLength,
  defaultGame: ROOM_RULES.defaultGame as GameId,
  defaultBetTier: ROOM_RULES.defaultBetTier as RoomBetTier,
  messageMax: 200,
  /** A room nobody joined within this long expires (its stake is released). */
  expiryMs: 30 * 60_000,
  /** A private match still not started this long after its start is ended as void (stakes returned). */
  abandonMs: 30 * 60_000,
  maintenanceMs: ROOM_RULES.maintenanceMs,
} as const;

/** Web games only: the server referees them (the arena). */
export const ROOM_GAMES: readonly GameId[] = GAME_IDS.filter((id) => isWebGame(id));

export const ROOM_STATUSES = ['waiting_for_player', 'both_joined', 'match_created', 'cancelled', 'expired'] as const;
export type RoomStatus = (typeof ROOM_STATUSES)[number];

export const isRoomBetTier = (value: unknown): value is RoomBetTier =>
  typeof value === 'number' && (ROOM_BET_TIERS as readonly number[]).includes(value);

// ---------------------------------------------------------------------------------------
// Codes

export type RoomCodeCheck = { ok: true; code: string } | { ok: false; message: string };

/** SPEC §8: exactly 6 characters ("Room code must be 6 characters"), converted to upper case. */
export function normalizeRoomCode(input: string | null | undefined): RoomCodeCheck {
  const code = (input ?? '').trim().toUpperCase();
  if (code.length !== ROOM_LIMITS.codeLength) return { ok: false, message: ROOMS.codeLength };
  return { ok: true, code };
}

/** True for a code this app could have drawn (6 characters of the unambiguous alphabet). */
export const isDrawableRoomCode = (code: string): boolean =>
  code.length === ROOM_LIMITS.codeLength && [...code].every((c) => CODE_ALPHABET.includes(c));

/** Finds a room code in shared text or a link ("…/join-room/ABC123", "web+versus://join/ABC123"). */
export function roomCodeInText(text: string): string | null {
  const linked = /(?:join-room|join-challenge|join)\/([A-Za-z0-9]{6})(?![A-Za-z0-9])/.exec(text);
  if (linked) return linked[1]!.toUpperCase();
  const bare = /(?<![A-Za-z0-9])([A-Za-z0-9]{6})(?![A-Za-z0-9])/g;
  for (const match of text.matchAll(bare)) {
    const code = match[1]!.toUpperCase();
    if (isDrawableRoomCode(code) && /\d/.test(code)) return code;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// Create

/** Loose on purpose: createRoomRefusal gives SPEC's message for each bad field. */
export const createRoomRequestSchema = z.object({
  gameType: z.string().max(64).nullish(),
  betTier: z.number().nullish(),
  message: z.string().max(10_000).nullish(),
});
export type CreateRoomRequest = z.infer<typeof createRoomRequestSchema>;

export interface NewRoom {
  gameType: GameId;
  betTier: RoomBetTier;
  message: string | null;
}

export type RoomCheck = { ok: true; room: NewRoom } | { ok: false; field: string; message: string };

/** Defaults (tic-tac-toe, 20), then the checks; the message is trimmed and empty becomes null. */
export function checkNewRoom(input: CreateRoomRequest): RoomCheck {
  const gameType = input.gameType ?? ROOM_LIMITS.defaultGame;
  if (!(GAME_IDS as readonly string[]).includes(gameType) || !isWebGame(gameType as GameId)) {
    return { ok: false, field: 'gameType', message: ROOMS.webGamesOnly };
  }
  const betTier = input.betTier ?? ROOM_LIMITS.defaultBetTier;
  if (!isRoomBetTier(betTier)) return { ok: false, field: 'betTier', message: ROOMS.invalidBet };
  const message = input.message?.trim() || null;
  if (message !== null && message.length > ROOM_LIMITS.messageMax) {
    return { ok: false, field: 'message', message: ROOMS.messageTooLong(ROOM_LIMITS.messageMax) };
  }
  return { ok: true, room: { gameType: gameType as GameId, betTier, message } };
}

// ---------------------------------------------------------------------------------------
// Shapes on the wire

const gameIdSchema = z.enum(GAME_IDS);
const personSchema = z.object({ id: z.string(), username: z.string(), displayName: z.string() });

/** A room as its creator (or joiner) sees it. */
export const roomSchema = z.object({
  id: z.string(),
  roomCode: z.string(),
  creatorId: z.string(),
  creator: personSchema,
  joinerId: z.string().nullable(),
  gameType: gameIdSchema,
  gameName: z.string(),
  betTier: z.number(),
  currency: z.enum(CURRENCIES),
  message: z.string().nullable(),
  status: z.enum(ROOM_STATUSES),
  matchId: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
});
export type Room = z.infer<typeof roomSchema>;

/** What the public join screen shows for a waiting room (no sign-in needed). */
export const roomPreviewSchema = z.object({
  roomCode: z.string(),
  gameType: gameIdSchema,
  gameName: z.string(),
  betTier: z.number(),
  currency: z.enum(CURRENCIES),
  message: z.string().nullable(),
  status: z.enum(ROOM_STATUSES),
  creator: z.object({ username: z.string(), displayName: z.string() }),
  expiresAt: z.string(),
});
export type RoomPreview = z.infer<typeof roomPreviewSchema>;

export const roomResponseSchema = z.object({ room: roomSchema });
export const myRoomResponseSchema = z.object({ room: roomSchema.nullable() });
export const roomPreviewResponseSchema = z.object({ room: roomPreviewSchema });
export const createRoomResponseSchema = z.object({
  room: roomSchema,
  escrow: z.object({ amount: z.number(), currency: z.enum(CURRENCIES) }),
  message: z.string(),
});
export const joinRoomResponseSchema = z.object({
  room: roomSchema,
  matchId: z.string(),
  /** Where both players go: /live-arena?match={id}. */
  redirectTo: z.string(),
});
export type CreateRoomResponse = z.infer<typeof createRoomResponseSchema>;
export type JoinRoomResponse = z.infer<typeof joinRoomResponseSchema>;

/** `room.joined` on user:{creatorId} and room:{code} (SPEC §3 join notification). */
export interface RoomJoinedEvent {
  joinerId: string;
  username: string;
  gameType: GameId;
  roomCode: string;
  isPrivateRoom: true;
  betAmount: number;
  matchId: string;
  status: 'match_created';
}

/** `room.cancelled` / `room.expired` on room:{code} and user:{creatorId}. */
export interface RoomClosedEvent {
  roomCode: string;
  status: 'cancelled' | 'expired';
}

export const liveArenaPath = (matchId: string): string => `/live-arena?match=${encodeURIComponent(matchId)}`;
export const gameName = (game: GameId): string => GAMES[game].name;
