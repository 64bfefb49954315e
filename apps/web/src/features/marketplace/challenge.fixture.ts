// A valid client-shape challenge for tests, with overrides.
import { GAMES, payoutFor, type GameId } from '@versus/domain/catalogue';
import type { Challenge } from '@versus/domain/challenges';

let n = 0;

export function makeChallenge(overrides: Partial<Challenge> & { game?: GameId } = {}): Challenge {
  n += 1;
  const game = overrides.game ?? 'chess';
  const stake = overrides.stake ?? 25;
  const id = overrides.id ?? `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
  return {
    id,
    creatorId: 'c0000000-0000-4000-8000-000000000001',
    creator: { id: 'c0000000-0000-4000-8000-000000000001', username: 'alice', displayName: 'Alice', avatar: null },
    creatorProfile: { avatar: null, isOnline: false, wins: 3, losses: 1, streak: 2, rating: 5000 },
    title: `${GAMES[game].name} Challenge`,
    game,
    gameName: GAMES[game].name,
    platform: GAMES[game].kind === 'web' ? 'web' : 'pc',
    stake,
    payout: payoutFor(stake),
    currency: 'credits',
    skillLevel: 'any',
    matchFormat: 'Best of 3',
    maxParticipants: 2,
    participants: 1,
    duration: 30,
    description: null,
    rules: [],
    status: 'open',
    isPrivate: false,
    code: null,
    expiresAt: null,
    timeLeft: null,
    scheduledTime: null,
    createdAt: '2025-01-01T12:00:00.000Z',
    updatedAt: '2025-01-01T12:00:00.000Z',
    acceptedBy: null,
    matchId: null,
    views: 0,
    likes: 0,
    creatorGamertag: null,
    ...overrides,
  };
}
