import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CHALLENGE_STATUSES,
  acceptRefusal,
  canChallengeMove,
  checkNewChallenge,
  createChallengeRequestSchema,
  isOpenForBrowsing,
  isPool,
  listChallengesQuerySchema,
  participantCount,
  stakeCurrencyFor,
  stakeText,
  type AcceptableChallenge,
  type CreateChallengeRequest,
} from './challenges.ts';

const now = new Date('2025-03-01T12:00:00Z');
const parse = (body: CreateChallengeRequest) => createChallengeRequestSchema.parse(body);
const check = (body: CreateChallengeRequest) => checkNewChallenge(parse(body), now);

describe('checkNewChallenge', () => {
  const chess: CreateChallengeRequest = { game: 'chess', stake: 25, duration: 30 };
  const fortnite: CreateChallengeRequest = { game: 'fortnite', platform: 'pc', gamertag: 'Ninja', stake: 25, duration: 30 };

  it('accepts a web game with no platform and no gamertag, and an external game with both', () => {
    expect(check(chess)).toBeNull();
    expect(check({ ...chess, platform: 'web' })).toBeNull();
    expect(check(fortnite)).toBeNull();
  });

  it('applies the defaults', () => {
    const input = parse(chess);
    expect(input).toMatchObject({ noExpiry: false, isPrivate: false, maxParticipants: 2, skillLevel: 'any', rules: [] });
  });

  it('requires a supported platform for external games', () => {
    expect(check({ ...fortnite, platform: null })).toEqual({ field: 'platform', message: 'Please choose a platform for this game.' });
    expect(check({ ...fortnite, game: 'valorant', platform: 'xbox' })).toEqual({
      field: 'platform',
      message: 'Valorant cannot be played on Xbox.',
    });
    expect(check({ ...chess, platform: 'pc' })?.field).toBe('platform');
  });

  it('requires a gamertag off the web, with SPEC message', () => {
    for (const gamertag of [undefined, null, '', '   ']) {
      expect(check({ ...fortnite, gamertag })).toEqual({
        field: 'gamertag',
        message: 'Please enter your gamertag/username for this platform.',
      });
    }
    expect(check({ ...fortnite, gamertag: 'x'.repeat(65) })?.field).toBe('gamertag');
  });

  it('requires a whole stake from 1 to 1000, with SPEC message', () => {
    for (const stake of [0, -1, 1001, 2.5]) {
      expect(check({ ...chess, stake })).toEqual({ field: 'stake', message: 'Stake must be between $1 and $1000.' });
    }
    expect(checkNewChallenge({ ...parse(chess), stake: Number.NaN }, now)?.message).toBe('Stake must be between $1 and $1000.');
    // A stake that is not a number at all gets the same text from the schema.
    const wrongType = createChallengeRequestSchema.safeParse({ ...chess, stake: '25' });
    expect(wrongType.success ? null : wrongType.error.issues[0]?.message).toBe('Stake must be between $1 and $1000.');
    fc.assert(fc.property(fc.integer({ min: 1, max: 1000 }), (stake) => check({ ...chess, stake }) === null));
  });

  it('checks the gamertag before the stake (SPEC submit order)', () => {
    expect(check({ ...fortnite, gamertag: '', stake: 0 })?.field).toBe('gamertag');
  });

  it('keeps the duration within the game times', () => {
    expect(check({ ...chess, duration: 9 })).toEqual({ field: 'duration', message: 'Please choose a duration between 10 and 60 minutes.' });
    expect(check({ ...chess, duration: 61 })?.field).toBe('duration');
    expect(check({ ...chess, duration: 30.5 })?.field).toBe('duration');
  });

  it('allows pools only private and up to the game size', () => {
    expect(check({ ...chess, maxParticipants: 3, isPrivate: true })).toEqual({
      field: 'maxParticipants',
      message: 'This game takes 2 to 2 players.',
    });
    const ludo: CreateChallengeRequest = { game: 'ludo', stake: 10, duration: 30 };
    expect(check({ ...ludo, maxParticipants: 4, isPrivate: true })).toBeNull();
    expect(check({ ...ludo, maxParticipants: 4 })).toEqual({
      field: 'maxParticipants',
      message: 'Challenges for more than 2 players must be private.',
    });
    expect(check({ ...ludo, maxParticipants: 5, isPrivate: true })?.field).toBe('maxParticipants');
    expect(check({ ...ludo, maxParticipants: 1 })?.field).toBe('maxParticipants');
    expect(isPool({ isPrivate: true, maxParticipants: 3 })).toBe(true);
    expect(isPool({ isPrivate: false, maxParticipants: 3 })).toBe(false);
    expect(isPool({ isPrivate: true, maxParticipants: 2 })).toBe(false);
  });

  it('limits the message to 200 characters', () => {
    expect(check({ ...chess, message: 'x'.repeat(200) })).toBeNull();
    expect(check({ ...chess, message: 'x'.repeat(201) })).toEqual({ field: 'message', message: 'Message must be at most 200 characters.' });
  });

  it('accepts a scheduled time from now up to the last slot only', () => {
    expect(check({ ...chess, scheduledTime: '2025-03-01T12:30:00Z' })).toBeNull();
    expect(check({ ...chess, scheduledTime: '2025-03-02T00:30:00Z' })).toBeNull();
    expect(check({ ...chess, scheduledTime: '2025-03-01T11:59:00Z' })).toEqual({
      field: 'scheduledTime',
      message: 'Please choose a match time in the future.',
    });
    expect(check({ ...chess, scheduledTime: '2025-03-02T01:00:00Z' })?.field).toBe('scheduledTime');
    expect(createChallengeRequestSchema.safeParse({ ...chess, scheduledTime: 'tomorrow' }).success).toBe(false);
  });
});

describe('currency', () => {
  it('stakes VTokens for virtual accounts, pcredits for promoters and admins, credits otherwise', () => {
    expect(stakeCurrencyFor({ role: 'user', accountType: 'real' })).toBe('credits');
    expect(stakeCurrencyFor({ role: 'promoter', accountType: 'real' })).toBe('pcredits');
    expect(stakeCurrencyFor({ role: 'admin', accountType: 'real' })).toBe('pcredits');
    expect(stakeCurrencyFor({ role: 'admin', accountType: 'virtual' })).toBe('vtokens');
  });

  it('writes a whole stake as the creation toast does', () => {
    expect(stakeText(25, 'credits')).toBe('$25');
    expect(stakeText(25, 'pcredits')).toBe('$25');
    expect(stakeText(25, 'vtokens')).toBe('25 VT');
  });
});

describe('acceptRefusal', () => {
  const open: AcceptableChallenge = {
    status: 'open',
    creatorId: 'creator',
    acceptedBy: null,
    matchId: null,
    currency: 'credits',
    expiresAt: new Date('2025-03-01T13:00:00Z'),
  };
  const me = { userId: 'me', currency: 'credits' as const };

  it('lets another player of the same currency accept an open, unexpired challenge', () => {
    expect(acceptRefusal(open, me, now)).toBeNull();
    expect(acceptRefusal({ ...open, expiresAt: null }, me, now)).toBeNull();
  });

  it('names the race lost when someone accepted first', () => {
    expect(acceptRefusal({ ...open, status: 'accepted', acceptedBy: 'x', matchId: 'm' }, me, now)).toEqual({
      status: 409,
      code: 'already_accepted',
      message: 'This challenge has already been accepted by another player.',
    });
  });

  it('refuses closed, own, expired and other-currency challenges with SPEC texts', () => {
    for (const status of ['cancelled', 'expired', 'completed'] as const) {
      expect(acceptRefusal({ ...open, status }, me, now)?.message).toBe('This challenge is no longer available.');
    }
    expect(acceptRefusal(open, { ...me, userId: 'creator' }, now)).toMatchObject({
      status: 403,
      message: 'You cannot accept your own challenge',
    });
    expect(acceptRefusal({ ...open, expiresAt: now }, me, now)?.message).toBe('This challenge is no longer available.');
    expect(acceptRefusal(open, { ...me, currency: 'pcredits' }, now)).toMatchObject({
      status: 422,
      code: 'currency_mismatch',
      message: 'This challenge is staked in credits, but your account uses pcredits.',
    });
  });
});

describe('lifecycle helpers', () => {
  it('moves challenges only along SPEC transitions', () => {
    expect(canChallengeMove('open', 'accepted')).toBe(true);
    expect(canChallengeMove('open', 'expired')).toBe(true);
    expect(canChallengeMove('accepted', 'open')).toBe(false);
    for (const s of CHALLENGE_STATUSES) expect(canChallengeMove('expired', s)).toBe(false);
  });

  it('counts participants as 1 plus joined, or the full max once accepted', () => {
    expect(participantCount('open', 2, 0)).toBe(1);
    expect(participantCount('open', 4, 2)).toBe(3);
    expect(participantCount('accepted', 4, 1)).toBe(4);
    expect(participantCount('completed', 2, 0)).toBe(2);
  });

  it('browses only open, unmatched, unaccepted, unexpired challenges', () => {
    const base = { status: 'open' as const, matchId: null, acceptedBy: null, expiresAt: null };
    expect(isOpenForBrowsing(base, now)).toBe(true);
    expect(isOpenForBrowsing({ ...base, matchId: 'm' }, now)).toBe(false);
    expect(isOpenForBrowsing({ ...base, acceptedBy: 'u' }, now)).toBe(false);
    expect(isOpenForBrowsing({ ...base, expiresAt: now }, now)).toBe(false);
    expect(isOpenForBrowsing({ ...base, status: 'cancelled' }, now)).toBe(false);
  });
});

describe('list query', () => {
  it('coerces stake bounds from the query string and refuses nonsense', () => {
    expect(listChallengesQuerySchema.parse({ minStake: '10', maxStake: '100', game: 'chess' })).toEqual({
      minStake: 10,
      maxStake: 100,
      game: 'chess',
    });
    expect(listChallengesQuerySchema.safeParse({ minStake: '0' }).success).toBe(false);
    expect(listChallengesQuerySchema.safeParse({ game: 'pong' }).success).toBe(false);
  });
});
