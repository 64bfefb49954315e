// Demo players' open challenges, so a newcomer's marketplace is not empty; fixed keys make a second run a
// no-op.
import { createChallengeRequestSchema, type CreateChallengeRequest } from '@versus/domain/challenges';
import type { Database } from '../db/database.ts';
import type { Seeder } from '../db/seeder.ts';
import { findPlayerByUsername } from './challenges.repository.ts';
import { createChallenge } from './challenges.service.ts';
import { ChallengeListCache } from './challenges.cache.ts';

// The embedded database is seeded when the server is built, perhaps days before its first
// start, so most demo challenges never expire.
const DEMO_CHALLENGES: readonly { username: string; request: CreateChallengeRequest }[] = [
  {
    username: 'alice',
    request: { game: 'chess', stake: 25, duration: 30, noExpiry: true, message: 'Rapid, best of 3. Bring your best opening.' },
  },
  {
    username: 'bob',
    request: {
      game: 'fortnite',
      platform: 'pc',
      gamertag: 'BobBuilds',
      stake: 50,
      duration: 40,
      noExpiry: true,
      message: 'Zero build duos warm-up, then 1v1.',
    },
  },
  { username: 'carol', request: { game: 'tic-tac-toe', stake: 10, duration: 5, noExpiry: true } },
  {
    username: 'alice',
    request: {
      game: 'fifa-24',
      platform: 'playstation',
      gamertag: 'AliceFC',
      stake: 100,
      duration: 30,
      noExpiry: true,
      skillLevel: 'advanced',
    },
  },
  { username: 'bob', request: { game: 'rock-paper-scissors', stake: 5, duration: 5, noExpiry: true, message: 'Quick one?' } },
  { username: 'carol', request: { game: 'valorant', platform: 'pc', gamertag: 'carolaim#EUW', stake: 75, duration: 45, noExpiry: true } },
  { username: 'carol', request: { game: 'checkers', stake: 20, duration: 20, noExpiry: false } },
];

export const demoChallengesSeeder: Seeder = {
  name: 'demo-challenges',
  async run(db: Database) {
    for (const [index, { username, request }] of DEMO_CHALLENGES.entries()) {
      const player = await findPlayerByUsername(db, username);
      // The demo user was not created (its email belonged to someone already): skip theirs.
      if (!player) continue;
      await createChallenge(
        { db, challengeList: new ChallengeListCache() },
        { userId: player.id, role: player.role, accountType: player.account_type },
        createChallengeRequestSchema.parse(request),
        { idempotencyKey: `demo-challenge-${index}` },
      );
    }
  },
};
