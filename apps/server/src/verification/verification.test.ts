// Verification on real PostgreSQL: requests reach the admin queue, only admins review them, and approval
// sets the flags.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFY_TEXT } from '@versus/domain/verification';
import { createSocialKit, type Player, type SocialKit } from '../social/social.test-kit.ts';

let kit: SocialKit;
let admin: Player;
beforeAll(async () => {
  kit = await createSocialKit();
  admin = await kit.admin();
});
afterAll(async () => kit?.close());

const identity = { fullName: 'Social Player', dateOfBirth: '1995-06-15', documentType: 'passport', documentLast4: 'ab12' };
const me = async (p: Player) => (await kit.api('GET', '/api/auth/user', { as: p })).body.user;
const pendingFor = async (p: Player) =>
  (
    (await kit.api('GET', '/api/admin/verification', { as: admin })).body.requests as { id: string; kind: string; user: { id: string } }[]
  ).filter((r) => r.user.id === p.id);

describe('player side', () => {
  it('links a gamertag (review requested), refuses bad input, and unlinks', async () => {
    const p = await kit.signUp();
    const linked = await kit.api('PUT', '/api/verification/gamertags/xbox', { as: p, body: { gamertag: '  Master Chief ' } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.provider).toBe('manual');
    expect(linked.body.gamertags).toMatchObject([{ platform: 'xbox', gamertag: 'Master Chief', verified: false }]);
    expect(linked.body.requests).toMatchObject([{ kind: 'xbox', status: 'pending', gamertag: 'Master Chief' }]);
    const again = await kit.api('PUT', '/api/verification/gamertags/xbox', { as: p, body: { gamertag: 'Master Chief' } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(VERIFY_TEXT.alreadyPending);
    const empty = await kit.api('PUT', '/api/verification/gamertags/steam', { as: p, body: { gamertag: '  ' } });
    expect(empty.status).toBe(400);
    expect(empty.body.error.message).toBe(VERIFY_TEXT.gamertagRequired);
    expect((await kit.api('PUT', '/api/verification/gamertags/steam', { as: p, body: { gamertag: 'x'.repeat(33) } })).status).toBe(400);
    expect((await kit.api('PUT', '/api/verification/gamertags/nintendo', { as: p, body: { gamertag: 'Mario' } })).status).toBe(404);
    expect((await kit.api('PUT', '/api/verification/gamertags/xbox', { body: { gamertag: 'x' } })).status).toBe(401);
    expect((await kit.api('GET', '/api/verification')).status).toBe(401);

    // Changing it withdraws the old request and asks again.
    const changed = await kit.api('PUT', '/api/verification/gamertags/xbox', { as: p, body: { gamertag: 'Arbiter' } });
    expect(changed.body.requests).toMatchObject([{ kind: 'xbox', status: 'pending', gamertag: 'Arbiter' }]);
    expect((await pendingFor(p)).map((r) => r.kind)).toEqual(['xbox']);

    const unlinked = await kit.api('DELETE', '/api/verification/gamertags/xbox', { as: p });
    expect(unlinked.status).toBe(200);
    expect(unlinked.body.gamertags).toEqual([]);
    expect(await pendingFor(p)).toEqual([]);
    expect((await kit.api('DELETE', '/api/verification/gamertags/xbox', { as: p })).status).toBe(404);
  });

  it('the identity check refuses minors and bad input in order, then waits for review once', async () => {
    const p = await kit.signUp();
    const cases: [Record<string, string>, string, string][] = [
      [{ fullName: ' ' }, VERIFY_TEXT.fullNameRequired, 'fullName'],
      [{ dateOfBirth: '2020-02-30' }, VERIFY_TEXT.dateOfBirthRequired, 'dateOfBirth'],
      // A year 0 is a date to JavaScript but not to PostgreSQL, which has none.
      [{ dateOfBirth: '0000-01-01' }, VERIFY_TEXT.dateOfBirthRequired, 'dateOfBirth'],
      [{ dateOfBirth: `${new Date().getUTCFullYear() - 17}-01-01` }, VERIFY_TEXT.mustBeAdult, 'dateOfBirth'],
      [{ documentType: 'library_card' }, VERIFY_TEXT.documentRequired, 'documentType'],
      [{ documentLast4: '12' }, VERIFY_TEXT.documentLast4Invalid, 'documentLast4'],
    ];
    for (const [patch, message, field] of cases) {
      const r = await kit.api('POST', '/api/verification/identity', { as: p, body: { ...identity, ...patch } });
      expect(r.status, message).toBe(400);
      expect(r.body.error).toMatchObject({ message, field });
    }
    expect(await pendingFor(p)).toEqual([]);
    expect((await kit.api('POST', '/api/verification/identity', { as: p, body: identity })).status).toBe(200);
    expect((await kit.api('POST', '/api/verification/identity', { as: p, body: identity })).status).toBe(409);
    expect((await pendingFor(p)).map((r) => r.kind)).toEqual(['identity']);
  });
});

describe('admin review queue', () => {
  it('is admin-only: anonymous 401, players 403, nothing changes', async () => {
    const p = await kit.signUp();
    await kit.api('PUT', '/api/verification/gamertags/steam', { as: p, body: { gamertag: 'gaben' } });
    const [request] = await pendingFor(p);
    const calls: ['GET' | 'POST', string][] = [
      ['GET', '/api/admin/verification'],
      ['POST', `/api/admin/verification/${request!.id}/approve`],
      ['POST', `/api/admin/verification/${request!.id}/reject`],
    ];
    for (const [method, url] of calls) {
      expect((await kit.api(method, url, { body: { reason: 'x' } })).status, url).toBe(401);
      const plain = await kit.api(method, url, { as: p, body: { reason: 'x' } });
      expect(plain.status, url).toBe(403);
      expect(plain.body.error.code).toBe('forbidden');
    }
    expect((await pendingFor(p)).map((r) => r.id)).toEqual([request!.id]);
    expect((await me(p)).verified.steam).toBe(false);
  });

  it('an admin cannot review their own request', async () => {
    expect((await kit.api('PUT', '/api/verification/gamertags/steam', { as: admin, body: { gamertag: 'AdminSteam' } })).status).toBe(200);
    const own = (await pendingFor(admin)).find((r) => r.kind === 'steam')!.id;
    const refused = await kit.api('POST', `/api/admin/verification/${own}/approve`, { as: admin, body: {} });
    expect(refused.status).toBe(403);
    expect(refused.body.error.message).toBe(VERIFY_TEXT.ownRequest);
    expect((await kit.api('POST', `/api/admin/verification/${own}/reject`, { as: admin, body: { reason: 'mine' } })).status).toBe(403);
  });

  it('approval sets each flag; all and verificationCompletedAt once identity and every linked platform are verified', async () => {
    const p = await kit.signUp();
    await kit.api('PUT', '/api/verification/gamertags/xbox', { as: p, body: { gamertag: 'Chief117' } });
    await kit.api('PUT', '/api/verification/gamertags/playstation', { as: p, body: { gamertag: 'Kratos' } });
    await kit.api('POST', '/api/verification/identity', { as: p, body: identity });
    const requests = await pendingFor(p);
    const id = (kind: string) => requests.find((r) => r.kind === kind)!.id;

    const approvedXbox = await kit.api('POST', `/api/admin/verification/${id('xbox')}/approve`, { as: admin, body: {} });
    expect(approvedXbox.status, JSON.stringify(approvedXbox.body)).toBe(200);
    expect(approvedXbox.body.verified).toEqual({ xbox: true, playstation: false, steam: false, identity: false, all: false });
    expect((await kit.api('POST', `/api/admin/verification/${id('xbox')}/approve`, { as: admin, body: {} })).status).toBe(409);

    const noReason = await kit.api('POST', `/api/admin/verification/${id('playstation')}/reject`, { as: admin, body: {} });
    expect(noReason.status).toBe(400);
    expect(noReason.body.error.message).toBe(VERIFY_TEXT.reasonRequired);
    const rejected = await kit.api('POST', `/api/admin/verification/${id('playstation')}/reject`, {
      as: admin,
      body: { reason: 'Name does not match' },
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.request).toMatchObject({ status: 'rejected', reason: 'Name does not match' });

    await kit.api('POST', `/api/admin/verification/${id('identity')}/approve`, { as: admin, body: {} });
    let user = await me(p);
    expect(user.verified).toEqual({ xbox: true, playstation: false, steam: false, identity: true, all: false });
    expect(user.verificationCompletedAt).toBeNull();
    const state = await kit.api('GET', '/api/verification', { as: p });
    expect(state.body.requests.find((r: { kind: string }) => r.kind === 'playstation')).toMatchObject({
      status: 'rejected',
      reason: 'Name does not match',
    });

    // The player fixes PlayStation and it is approved: everything linked is verified.
    await kit.api('PUT', '/api/verification/gamertags/playstation', { as: p, body: { gamertag: 'Kratos_GoW' } });
    const [ps] = (await pendingFor(p)).filter((r) => r.kind === 'playstation');
    const done = await kit.api('POST', `/api/admin/verification/${ps!.id}/approve`, { as: admin, body: {} });
    expect(done.body.verified).toEqual({ xbox: true, playstation: true, steam: false, identity: true, all: true });
    user = await me(p);
    expect(user.verified.all).toBe(true);
    const completedAt = user.verificationCompletedAt as string;
    expect(completedAt).toBeTruthy();
    // A new gamertag clears its platform and `all`, but the completion date stays.
    await kit.api('PUT', '/api/verification/gamertags/xbox', { as: p, body: { gamertag: 'NewChief' } });
    user = await me(p);
    expect(user.verified).toMatchObject({ xbox: false, all: false });
    expect(user.verificationCompletedAt).toBe(completedAt);
    expect((await kit.events(`user:${p.id}`)).map((e) => e.type)).toContain('verification.updated');
    const notes = (await kit.api('GET', '/api/notifications', { as: p })).body.notifications.map((n: { type: string; message: string }) => [
      n.type,
      n.message,
    ]);
    expect(notes).toContainEqual(['account_update', 'Your Xbox gamertag is verified.']);
    expect(notes).toContainEqual(['account_update', 'Your PlayStation ID was not verified: Name does not match']);
  });
});
