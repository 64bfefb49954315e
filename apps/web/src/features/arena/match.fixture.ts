// A match view and events for tests: a chess match between Alice (seat 0) and Bob (seat 1),
// seen by Alice, one move into game 1.
import type { ArenaPlayer, MatchEvent, MatchView } from '@versus/domain/arena';

const player = (seat: 0 | 1, id: string, username: string): ArenaPlayer => ({
  seat,
  id,
  username,
  displayName: username,
  avatar: null,
  gamertag: null,
  ready: true,
  readyAt: '2030-01-01T10:00:00.000Z',
  lastSeenAt: '2030-01-01T10:00:00.000Z',
  rating: { value: 1500, provisional: true, games: 0 },
  level: 1,
  wins: 0,
  losses: 0,
  streak: 0,
});

export const AFTER_E4 = 'rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1';

export function matchView(over: Partial<MatchView> = {}): MatchView {
  return {
    id: 'm1',
    challengeId: 'c1',
    player1Id: 'alice',
    player2Id: 'bob',
    player1: { id: 'alice', username: 'alice', displayName: 'alice', avatar: null },
    player2: { id: 'bob', username: 'bob', displayName: 'bob', avatar: null },
    winnerId: null,
    gameType: 'chess',
    platform: 'web',
    stake: 10,
    betAmount: 10,
    currency: 'credits',
    status: 'in_progress',
    matchFormat: 'Best of 3',
    skillLevel: 'any',
    scheduledTime: null,
    createdAt: '2030-01-01T09:59:00.000Z',
    player1Gamertag: null,
    player2Gamertag: null,
    isPrivate: false,
    roomCode: null,
    gameName: 'Chess',
    version: 4,
    viewerSeat: 0,
    players: [player(0, 'alice', 'alice'), player(1, 'bob', 'bob')],
    payout: 20,
    tournament: null,
    noShowDeadline: null,
    startedAt: '2030-01-01T10:00:01.000Z',
    completedAt: null,
    series: {
      wins: [0, 0],
      draws: 0,
      played: 0,
      winsNeeded: 2,
      maxDrawnGames: 3,
      games: [{ index: 0, firstSeat: 0, commitment: 'abc', seed: null, outcome: null }],
    },
    game: { index: 0, firstSeat: 0, commitment: 'abc', toMove: [1], view: { fen: AFTER_E4, legal: [] } },
    clock: { initialMs: 300_000, incrementMs: 3_000, remainingMs: [300_000, 300_000], running: [1], at: 1_000, flagged: null },
    timeControl: { initialMs: 300_000, incrementMs: 3_000 },
    toMove: [1],
    yourTurn: false,
    drawOffer: null,
    canOfferDraw: true,
    moves: [{ seq: 1, gameIndex: 0, seat: 0, notation: 'e4', at: '2030-01-01T10:00:02.000Z', remainingMs: [300_000, 300_000] }],
    result: null,
    serverNow: 1_000,
    ...over,
  };
}

/** Bob answers 1...e5: version 5. */
export function moveEvent(over: Partial<MatchEvent> = {}): MatchEvent {
  return {
    matchId: 'm1',
    version: 5,
    status: 'in_progress',
    ready: [true, true],
    score: [0, 0],
    draws: 0,
    game: { index: 0, firstSeat: 0, commitment: 'abc', toMove: [0], view: { fen: 'after e5', legal: [] } },
    clock: { initialMs: 300_000, incrementMs: 3_000, remainingMs: [300_000, 298_000], running: [0], at: 3_000, flagged: null },
    toMove: [0],
    drawOffer: null,
    move: { seq: 2, gameIndex: 0, seat: 1, notation: 'e5', at: '2030-01-01T10:00:04.000Z', remainingMs: [300_000, 298_000] },
    ...over,
  };
}
