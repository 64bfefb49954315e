import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CreateChallengeRequest } from '@versus/domain/challenges';
import { createChallengeRequestSchema } from '@versus/domain/challenges';
import { createChallenge, expireDueChallenges } from './challenges.service.ts';
import { chess, createKit, fortnite, minor, type Kit } from './challenges.test-kit.ts';

let kit: Kit;
beforeAll(async () => {
  kit = await createKit();
});
afterAll(() => kit?.close());
afterEach(() => kit.expectAuditClean());

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

describe('POST /api/challenges', () => {
  it('creates a public challenge with its stake locked in escrow, in one transaction', async () => {
    const alice = await kit.player();
    const before = Date.now();
    const reply = await kit.create(alice, { ...chess, message: '  Good luck!  ' });
    expect(reply.status).toBe(201);
    const { challenge, escrow, message } = reply.body;
    expect(message).toBe('$25 locked in escrow');
    expect(escrow).toEqual({ amount: 25, currency: 'credits' });
    expect(challenge).toMatchObject({
      creatorId: alice.id,
      creator: { id: alice.id, username: alice.username },
      creatorProfile: { avatar: null, isOnline: false, wins: 0, losses: 0, streak: 0, rating: 1500 },
      title: 'Chess Challenge',
      game: 'chess',
      gameName: 'Chess',
      platform: 'web',
      stake: 25,
      payout: 50,
      currency: 'credits',
      skillLevel: 'any',
      matchFormat: 'Best of 3',
      maxParticipants: 2,
      participants: 1,
      duration: 30,
      description: 'Good luck!',
      rules: [],
      status: 'open',
      isPrivate: false,
      code: null,
      acceptedBy: null,
      matchId: null,
      views: 0,
      likes: 0,
      creatorGamertag: null,
    });
    // SPEC §9: expiry = creation + duration (30) in hours; public start 30 minutes ahead.
    const created = new Date(challenge.createdAt).getTime();
    expect(created).toBeGreaterThanOrEqual(before - 1000);
    expect(new Date(challenge.expiresAt!).getTime() - created).toBe(30 * HOUR);
    expect(new Date(challenge.scheduledTime!).getTime() - created).toBe(30 * MINUTE);
    expect(challenge.timeLeft).toMatch(/^1d 5h|1d 6h$/);

    expect(await kit.balance(alice.id)).toEqual({ available: minor(975), escrow: minor(25) });
    const holds = await kit.database.db.query('SELECT user_id, amount, status, challenge_id FROM escrow_holds WHERE challenge_id = $1', [
      challenge.id,
    ]);
    expect(holds).toEqual([{ user_id: alice.id, amount: minor(25), status: 'held', challenge_id: challenge.id }]);

    const feed = await kit.events('challenges');
    expect(feed.at(-1)).toMatchObject({ type: 'challenge.created', payload: { challengeId: challenge.id, status: 'open' } });
    expect((await kit.events(`user:${alice.id}`)).some((e) => e.type === 'challenge.created')).toBe(true);

    const list = await kit.api('GET', '/api/challenges', { as: alice });
    expect(list.body.challenges.map((c) => c.id)).toContain(challenge.id);
  });

  it('creates an external-game challenge with platform and gamertag', async () => {
    const bob = await kit.player();
    const reply = await kit.create(bob, { ...fortnite, title: 'Box fight', skillLevel: 'advanced', rules: ['No snipers', ' '] });
    expect(reply.status).toBe(201);
    expect(reply.body.challenge).toMatchObject({
      title: 'Box fight',
      platform: 'pc',
      creatorGamertag: 'Ninja',
      skillLevel: 'advanced',
      rules: ['No snipers'],
      stake: 50,
    });
    expect(await kit.balance(bob.id)).toEqual({ available: minor(950), escrow: minor(50) });
  });

  it('keeps a chosen schedule slot and honours no-expiry', async () => {
    const carol = await kit.player();
    const at = new Date(Math.ceil((Date.now() + 90 * MINUTE) / (30 * MINUTE)) * 30 * MINUTE).toISOString();
    const reply = await kit.create(carol, { ...chess, scheduledTime: at, noExpiry: true });
    expect(reply.status).toBe(201);
    expect(reply.body.challenge.scheduledTime).toBe(at);
    expect(reply.body.challenge.expiresAt).toBeNull();
    expect(reply.body.challenge.timeLeft).toBeNull();
  });

  it('refuses visitors with SPEC text and changes nothing', async () => {
    const before = await kit.snapshot();
    const reply = await kit.create(undefined as never, chess);
    expect(reply.status).toBe(401);
    expect(reply.body.error.message).toBe('Please sign in to create challenges');
    const forged = await kit.api('POST', '/api/challenges', { body: chess, headers: { authorization: 'Bearer nope' } });
    expect(forged.status).toBe(401);
    expect(forged.body.error.message).toBe('Please sign in to create challenges');
    // Sign-in is checked before the body, as SPEC's submit order says.
    const junk = await kit.api('POST', '/api/challenges', { body: { stake: 'lots' } });
    expect(junk.status).toBe(401);
    expect(await kit.snapshot()).toBe(before);
  });

  const refusals: [string, CreateChallengeRequest | Record<string, unknown>, string, string][] = [
    ['stake 0', { ...chess, stake: 0 }, 'stake', 'Stake must be between $1 and $1000.'],
    ['stake 1001', { ...chess, stake: 1001 }, 'stake', 'Stake must be between $1 and $1000.'],
    ['stake 2.5', { ...chess, stake: 2.5 }, 'stake', 'Stake must be between $1 and $1000.'],
    ['stake as text', { ...chess, stake: '25' }, 'stake', 'Stake must be between $1 and $1000.'],
    ['stake missing', { game: 'chess', duration: 30 }, 'stake', 'Stake must be between $1 and $1000.'],
    ['no gamertag', { ...fortnite, gamertag: undefined }, 'gamertag', 'Please enter your gamertag/username for this platform.'],
    ['blank gamertag', { ...fortnite, gamertag: '   ' }, 'gamertag', 'Please enter your gamertag/username for this platform.'],
    [
      'gamertag before stake',
      { ...fortnite, gamertag: '', stake: 0 },
      'gamertag',
      'Please enter your gamertag/username for this platform.',
    ],
    ['no platform', { ...fortnite, platform: undefined }, 'platform', 'Please choose a platform for this game.'],
    ['unplayable platform', { ...fortnite, game: 'valorant', platform: 'xbox' }, 'platform', 'Valorant cannot be played on Xbox.'],
    ['unknown game', { ...chess, game: 'pong' }, 'game', 'Please choose a game.'],
    ['duration outside the game', { ...chess, duration: 5 }, 'duration', 'Please choose a duration between 10 and 60 minutes.'],
    ['message too long', { ...chess, message: 'x'.repeat(201) }, 'message', 'Message must be at most 200 characters.'],
    [
      'public pool',
      { game: 'ludo', stake: 10, duration: 30, maxParticipants: 3 },
      'maxParticipants',
      'Challenges for more than 2 players must be private.',
    ],
    [
      'pool too big',
      { game: 'ludo', stake: 10, duration: 30, maxParticipants: 5, isPrivate: true },
      'maxParticipants',
      'This game takes 2 to 4 players.',
    ],
    [
      'time in the past',
      { ...chess, scheduledTime: new Date(Date.now() - MINUTE).toISOString() },
      'scheduledTime',
      'Please choose a match time in the future.',
    ],
    ['time not a time', { ...chess, scheduledTime: 'tonight' }, 'scheduledTime', 'Please choose a time for the match.'],
  ];

  it.each(refusals)('refuses %s with a clear 400 and changes nothing', async (_name, body, field, message) => {
    const dave = await kit.player();
    const before = await kit.snapshot();
    const reply = await kit.api('POST', '/api/challenges', { as: dave, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toMatchObject({ message, field });
    expect(await kit.snapshot()).toBe(before);
  });

  it('refuses a stake above the balance with the need and have amounts (Credits)', async () => {
    const erin = await kit.player();
    await kit.setAvailable(erin.id, minor(20));
    const before = await kit.snapshot();
    const reply = await kit.create(erin, { ...chess, stake: 50 });
    expect(reply.status).toBe(409);
    expect(reply.body.error).toMatchObject({
      code: 'insufficient_funds',
      message: 'Insufficient Credits: Need $50.00 but only have $20.00. Please add more credits to create this challenge.',
    });
    expect(await kit.snapshot()).toBe(before);
    expect(await kit.balance(erin.id)).toEqual({ available: minor(20), escrow: 0 });
  });

  it('stakes pcredits for promoters and admins, and says "Insufficient Pcredits"', async () => {
    const promoter = await kit.player({ role: 'promoter' });
    const ok = await kit.create(promoter, chess);
    expect(ok.status).toBe(201);
    expect(ok.body.challenge.currency).toBe('pcredits');
    expect(await kit.balance(promoter.id, 'pcredits')).toEqual({ available: minor(975), escrow: minor(25) });

    const admin = await kit.player({ role: 'admin' });
    await kit.setAvailable(admin.id, 550, 'pcredits');
    const before = await kit.snapshot();
    const refused = await kit.create(admin, { ...chess, stake: 10 });
    expect(refused.status).toBe(409);
    expect(refused.body.error.message).toBe(
      'Insufficient Pcredits: Need $10.00 but only have $5.50. Please add more pcredits to create this challenge.',
    );
    expect(await kit.snapshot()).toBe(before);
  });

  it('lets virtual accounts create private challenges in VTokens only', async () => {
    const vic = await kit.player({ accountType: 'virtual' });
    const before = await kit.snapshot();
    const publicOne = await kit.create(vic, chess);
    expect(publicOne.status).toBe(400);
    expect(publicOne.body.error.message).toBe('Virtual accounts can create private challenges only: share the code with a friend to play.');
    expect(await kit.snapshot()).toBe(before);

    const privateOne = await kit.create(vic, { ...chess, isPrivate: true });
    expect(privateOne.status).toBe(201);
    expect(privateOne.body.challenge.currency).toBe('vtokens');
    expect(privateOne.body.message).toBe('25 VT locked in escrow');
    expect(await kit.balance(vic.id, 'vtokens')).toEqual({ available: minor(475), escrow: minor(25) });
  });

  it('gives a private challenge a unique 6-character code, keeps it off the marketplace, and finds it by code', async () => {
    const frank = await kit.player();
    const reply = await kit.create(frank, { ...chess, isPrivate: true });
    expect(reply.status).toBe(201);
    const { challenge } = reply.body;
    expect(challenge.isPrivate).toBe(true);
    expect(challenge.code).toMatch(/^[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    // Private: the match time is set at acceptance unless chosen.
    expect(challenge.scheduledTime).toBeNull();
    expect((await kit.events('challenges')).some((e) => e.payload.challengeId === challenge.id)).toBe(false);

    const other = await kit.player();
    const list = await kit.api('GET', '/api/challenges', { as: other });
    expect(list.body.challenges.map((c) => c.id)).not.toContain(challenge.id);

    const found = await kit.api('GET', `/api/challenges/code/${challenge.code!.toLowerCase()}`);
    expect(found.status).toBe(200);
    expect(found.body.challenge).toMatchObject({ id: challenge.id, code: challenge.code });

    // By id, a private challenge is its players' only.
    expect((await kit.api('GET', `/api/challenges/${challenge.id}`, { as: other })).status).toBe(404);
    const mine = await kit.api('GET', `/api/challenges/${challenge.id}`, { as: frank });
    expect(mine.status).toBe(200);
    expect(mine.body.challenge.code).toBe(challenge.code);
  });

  it('checks codes: exactly 6 characters, else SPEC text; unknown or closed codes find nothing', async () => {
    for (const bad of ['ABC', 'ABCDEFG', 'AB-DEF']) {
      const reply = await kit.api('GET', `/api/challenges/code/${bad}`);
      expect(reply.status).toBe(400);
      expect(reply.body.error.message).toBe('Please enter a valid 6-character code');
    }
    const unknown = await kit.api('GET', '/api/challenges/code/ZZZZZZ');
    expect(unknown.status).toBe(404);
    expect(unknown.body.error.message).toBe('Challenge not found');

    const gina = await kit.player();
    const { challenge } = (await kit.create(gina, { ...chess, isPrivate: true })).body;
    await kit.database.db.query(`UPDATE challenges SET expires_at = now() - interval '1 minute' WHERE id = $1`, [challenge.id]);
    expect((await kit.api('GET', `/api/challenges/code/${challenge.code}`)).status).toBe(404);
    await kit.database.db.query(`UPDATE challenges SET expires_at = now() + interval '1 hour' WHERE id = $1`, [challenge.id]);
    expect((await kit.api('POST', `/api/challenges/${challenge.id}/cancel`, { as: gina })).status).toBe(200);
    expect((await kit.api('GET', `/api/challenges/code/${challenge.code}`)).status).toBe(404);
  });

  it('draws another code when one is taken', async () => {
    const hank = await kit.player();
    const first = (await kit.create(hank, { ...chess, isPrivate: true })).body.challenge;
    const codes = [first.code!, first.code!, 'NEWC0D'];
    const input = createChallengeRequestSchema.parse({ ...chess, isPrivate: true });
    const result = await createChallenge(kit.ctx, hank.claims, input, { drawCode: () => codes.shift()! });
    expect(result.challenge.code).toBe('NEWC0D');
    expect(codes).toEqual([]);
    expect(await kit.balance(hank.id)).toEqual({ available: minor(950), escrow: minor(50) });
  });

  it('opens a pool for a private challenge of more than 2 players', async () => {
    const ivy = await kit.player();
    const reply = await kit.create(ivy, { game: 'ludo', stake: 10, duration: 30, isPrivate: true, maxParticipants: 4 });
    expect(reply.status).toBe(201);
    expect(reply.body.challenge).toMatchObject({ maxParticipants: 4, participants: 1 });
    const pools = await kit.database.db.query('SELECT max_participants, stake, currency FROM challenge_pools WHERE challenge_id = $1', [
      reply.body.challenge.id,
    ]);
    expect(pools).toEqual([{ max_participants: 4, stake: 10, currency: 'credits' }]);
    // Two players make no pool.
    const duel = await kit.create(ivy, { ...chess, isPrivate: true });
    expect(await kit.database.db.query('SELECT 1 FROM challenge_pools WHERE challenge_id = $1', [duel.body.challenge.id])).toEqual([]);
  });
});

describe('Idempotency-Key', () => {
  it('returns the same challenge on a replay and locks nothing more', async () => {
    const jack = await kit.player();
    const headers = { 'idempotency-key': 'create-1' };
    const first = await kit.create(jack, chess, headers);
    expect(first.status).toBe(201);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const before = await kit.snapshot();
    const second = await kit.create(jack, chess, headers);
    expect(second.status).toBe(201);
    expect(second.headers['idempotent-replayed']).toBe('true');
    expect(second.body.challenge.id).toBe(first.body.challenge.id);
    expect(second.body.message).toBe(first.body.message);
    expect(await kit.snapshot()).toBe(before);
    expect(await kit.balance(jack.id)).toEqual({ available: minor(975), escrow: minor(25) });
  });

  it('answers a replay of a challenge closed since with its state now, not "locked in escrow", and moves nothing', async () => {
    const nora = await kit.player();
    const cancelHeaders = { 'idempotency-key': 'create-then-cancel' };
    const first = await kit.create(nora, chess, cancelHeaders);
    expect(first.body.message).toBe('$25 locked in escrow');
    const cancelled = await kit.api('POST', `/api/challenges/${first.body.challenge.id}/cancel`, { as: nora });
    expect(cancelled.status).toBe(200);
    const afterCancel = await kit.snapshot();
    const replay = await kit.create(nora, chess, cancelHeaders);
    expect(replay.status).toBe(201);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.body.challenge).toMatchObject({ id: first.body.challenge.id, status: 'cancelled' });
    expect(replay.body.message).toBe('This challenge was cancelled; your stake was returned.');
    expect(await kit.snapshot()).toBe(afterCancel);
    expect(await kit.balance(nora.id)).toEqual({ available: minor(1000), escrow: 0 });

    const expireHeaders = { 'idempotency-key': 'create-then-expire' };
    const due = await kit.create(nora, { ...chess, duration: 10 }, expireHeaders);
    expect(await expireDueChallenges(kit.ctx, new Date(Date.now() + 11 * HOUR))).toBe(1);
    const afterExpiry = await kit.snapshot();
    const late = await kit.create(nora, { ...chess, duration: 10 }, expireHeaders);
    expect(late.status).toBe(201);
    expect(late.body.challenge).toMatchObject({ id: due.body.challenge.id, status: 'expired' });
    expect(late.body.message).toBe('This challenge expired; your stake was returned.');
    expect(await kit.snapshot()).toBe(afterExpiry);
    expect(await kit.balance(nora.id)).toEqual({ available: minor(1000), escrow: 0 });
  });

  it('refuses the same key with another request, and keeps keys apart per player', async () => {
    const kate = await kit.player();
    await kit.create(kate, chess, { 'idempotency-key': 'k' });
    const before = await kit.snapshot();
    const other = await kit.create(kate, { ...chess, stake: 30 }, { 'idempotency-key': 'k' });
    expect(other.status).toBe(409);
    expect(other.body.error.message).toBe('This Idempotency-Key was already used for a different challenge.');
    expect(await kit.snapshot()).toBe(before);

    const liam = await kit.player();
    const his = await kit.create(liam, chess, { 'idempotency-key': 'k' });
    expect(his.status).toBe(201);
    expect(his.headers['idempotent-replayed']).toBeUndefined();
  });

  it('makes one challenge of concurrent requests with one key', async () => {
    const mia = await kit.player();
    const replies = await Promise.all(Array.from({ length: 8 }, () => kit.create(mia, fortnite, { 'idempotency-key': 'burst' })));
    expect(replies.map((r) => r.status)).toEqual(Array(8).fill(201));
    expect(new Set(replies.map((r) => r.body.challenge.id)).size).toBe(1);
    expect(replies.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    expect(await kit.balance(mia.id)).toEqual({ available: minor(950), escrow: minor(50) });
    const rows = await kit.database.db.query('SELECT count(*)::int AS n FROM challenges WHERE creator_id = $1', [mia.id]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

describe('OpenAPI', () => {
  it('documents every challenges route with its body and responses', async () => {
    const doc = (
      await kit.api<{ paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, unknown> }>> }>(
        'GET',
        '/api/openapi.json',
      )
    ).body;
    const post = doc.paths['/api/challenges']!.post!;
    expect(post.requestBody).toBeDefined();
    expect(Object.keys(post.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '409']));
    for (const path of [
      '/api/challenges',
      '/api/challenges/mine',
      '/api/challenges/expiring-soon',
      '/api/challenges/code/{code}',
      '/api/challenges/{id}',
      '/api/challenges/{id}/accept',
      '/api/challenges/{id}/cancel',
      '/api/matches/{id}',
    ]) {
      expect(doc.paths[path], path).toBeDefined();
    }
  });
});
