// Match reminders on real PostgreSQL: written with the match, sent once with two workers at once, skipped
// once it stops waiting, recovered after a restart.
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NOTIFICATION_PREFERENCES, NOTIFICATION_EVENTS, type Notification } from '@versus/domain/notifications';
import { buildApp } from '../../app.ts';
import { openPostgres, type Database } from '../../db/database.ts';
import { signUp } from '../../realtime/test-socket.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { upsertPreferences } from '../notifications.repository.ts';
import { preferencesOf } from '../notifications.service.ts';
import { remindersOf } from './reminders.repository.ts';
import { planTimerReminders, runDueReminders, type ReminderContext } from './reminders.worker.ts';

const log = pino({ level: 'silent' });
const MINUTE = 60_000;
let t: TestApp;
// Two more pools on the same database: two more server processes.
let processA: Database;
let processB: Database;
let alice: { userId: string; token: string };
let bob: { userId: string; token: string };

beforeAll(async () => {
  t = await createTestApp();
  processA = openPostgres(t.database.url, { max: 3 });
  processB = openPostgres(t.database.url, { max: 3 });
  alice = await signUp(t.app, 'alice');
  bob = await signUp(t.app, 'bob');
});

afterAll(async () => {
  await processA?.close();
  await processB?.close();
  await t?.close();
});

// Each test looks at its own match: what earlier tests left scheduled is set aside.
beforeEach(async () => {
  await t.database.db.query(
    `UPDATE match_reminders SET status = 'skipped', outcome = 'test_reset', processed_at = now() WHERE status = 'scheduled'`,
  );
});

const worker = (db: Database): ReminderContext => ({ db, log, preferencesOf });

async function makeMatch(scheduled: Date, options: { createdAt?: Date; status?: string; game?: string } = {}): Promise<string> {
  const [row] = await t.database.db.query<{ id: string }>(
    `INSERT INTO matches (player1_id, player2_id, game_type, platform, stake, bet_amount, currency, status, scheduled_time, created_at)
     VALUES ($1, $2, $6, $7, 10, 10, 'credits', $3, $4, $5) RETURNING id`,
    [
      alice.userId,
      bob.userId,
      options.status ?? 'pending',
      scheduled,
      options.createdAt ?? new Date(),
      options.game ?? 'chess',
      options.game && options.game !== 'chess' ? 'playstation' : 'web',
    ],
  );
  return row!.id;
}

/** The reminder notifications published for a match (what each user's sockets receive). */
async function reminderEvents(matchId: string, type = 'match_reminder'): Promise<Notification[]> {
  const rows = await t.database.db.query<{ payload: Notification }>(
    `SELECT payload FROM realtime_events
      WHERE type = $1 AND payload->>'type' = $3 AND payload->>'matchId' = $2
      ORDER BY created_at, version`,
    [NOTIFICATION_EVENTS.created, matchId, type],
  );
  return rows.map((r) => r.payload);
}

/** Both workers, several rounds each, all at once, at the instant `at`. */
async function runBothConcurrently(at: Date) {
  const runs = await Promise.all(
    Array.from({ length: 3 }, () => [runDueReminders(worker(processA), () => at), runDueReminders(worker(processB), () => at)]).flat(),
  );
  return runs.reduce((sum, r) => ({ sent: sum.sent + r.sent, skipped: sum.skipped + r.skipped, failed: sum.failed + r.failed }), {
    sent: 0,
    skipped: 0,
    failed: 0,
  });
}

describe('reminder rows', () => {
  it('are written with the match: 1 hour before, at the start and 5 minutes after, for both players', async () => {
    const start = new Date(Date.now() + 3 * 60 * MINUTE);
    const id = await makeMatch(start);
    const rows = await remindersOf(t.database.db, id);
    expect(rows).toHaveLength(6);
    const due = (kind: string) => rows.filter((r) => r.kind === kind).map((r) => new Date(r.due_at).getTime());
    expect(due('before_1h')).toEqual([start.getTime() - 60 * MINUTE, start.getTime() - 60 * MINUTE]);
    expect(due('at_start')).toEqual([start.getTime(), start.getTime()]);
    expect(due('closing_5m')).toEqual([start.getTime() + 5 * MINUTE, start.getTime() + 5 * MINUTE]);
    expect(new Set(rows.map((r) => r.user_id))).toEqual(new Set([alice.userId, bob.userId]));
    expect(rows.every((r) => r.status === 'scheduled')).toBe(true);

    // Rescheduling moves the reminders that have not gone out.
    const later = new Date(start.getTime() + 30 * MINUTE);
    await t.database.db.query('UPDATE matches SET scheduled_time = $2 WHERE id = $1', [id, later]);
    const moved = await remindersOf(t.database.db, id);
    expect(moved.filter((r) => r.kind === 'at_start').map((r) => new Date(r.due_at).getTime())).toEqual([later.getTime(), later.getTime()]);

    // Moved into the past (say, by an admin): the rows follow, and the worker sends only the latest.
    const past = new Date(Date.now() - 10 * MINUTE);
    await t.database.db.query('UPDATE matches SET scheduled_time = $2 WHERE id = $1', [id, past]);
    const pastRows = await remindersOf(t.database.db, id);
    expect(pastRows).toHaveLength(6);
    expect(pastRows.every((r) => new Date(r.due_at).getTime() < Date.now())).toBe(true);
    expect(await runDueReminders(worker(processA))).toEqual({ sent: 2, skipped: 4, failed: 0 });
    expect((await reminderEvents(id)).map((n) => n.metadata?.['reminderKind'])).toEqual(['closing_5m', 'closing_5m']);
  });

  it('skip the times already past when the match is made (a match starting now gets only "window closing")', async () => {
    const now = new Date();
    const id = await makeMatch(now, { createdAt: now });
    expect((await remindersOf(t.database.db, id)).map((r) => r.kind)).toEqual(['closing_5m', 'closing_5m']);
  });

  it('do not exist for a match whose transaction rolled back', async () => {
    let matchId = '';
    await expect(
      t.database.db.transaction(async (tx) => {
        const [row] = await tx.query<{ id: string }>(
          `INSERT INTO matches (player1_id, player2_id, game_type, platform, stake, bet_amount, currency, scheduled_time)
           VALUES ($1, $2, 'chess', 'web', 10, 10, 'credits', now() + interval '2 hours') RETURNING id`,
          [alice.userId, bob.userId],
        );
        matchId = row!.id;
        expect(await remindersOf(tx, matchId)).toHaveLength(6);
        throw new Error('the accept failed');
      }),
    ).rejects.toThrow('the accept failed');
    expect(await remindersOf(t.database.db, matchId)).toHaveLength(0);
  });
});

describe('the worker', () => {
  it('sends each reminder once with two workers running at once', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const id = await makeMatch(start);

    // Nothing is due yet.
    expect(await runBothConcurrently(new Date(start.getTime() - 61 * MINUTE))).toEqual({ sent: 0, skipped: 0, failed: 0 });

    const hourBefore = await runBothConcurrently(new Date(start.getTime() - 60 * MINUTE + 1000));
    expect(hourBefore).toEqual({ sent: 2, skipped: 0, failed: 0 });
    let events = await reminderEvents(id);
    expect(events).toHaveLength(2);
    expect(new Set(events.map((n) => n.userId))).toEqual(new Set([alice.userId, bob.userId]));
    const forAlice = events.find((n) => n.userId === alice.userId)!;
    expect(forAlice).toMatchObject({ title: 'Match in 1 Hour', priority: 'normal', urgent: false, matchId: id, creatorId: bob.userId });
    expect(forAlice.metadata).toMatchObject({ reminderKind: 'before_1h', minutesUntil: 60 });
    expect(forAlice.targetUrl).toBe(`/live-arena?match=${id}`);

    expect(await runBothConcurrently(new Date(start.getTime() + 1000))).toEqual({ sent: 2, skipped: 0, failed: 0 });
    expect(await runBothConcurrently(new Date(start.getTime() + 5 * MINUTE + 1000))).toEqual({ sent: 2, skipped: 0, failed: 0 });
    // And never again.
    expect(await runBothConcurrently(new Date(start.getTime() + 60 * MINUTE))).toEqual({ sent: 0, skipped: 0, failed: 0 });

    events = await reminderEvents(id);
    expect(events).toHaveLength(6);
    const kinds = events
      .map((n) => `${n.userId === alice.userId ? 'alice' : 'bob'}:${String(n.metadata?.['reminderKind'])}:${n.priority}`)
      .sort();
    expect(kinds).toEqual([
      'alice:at_start:critical',
      'alice:before_1h:normal',
      'alice:closing_5m:critical',
      'bob:at_start:critical',
      'bob:before_1h:normal',
      'bob:closing_5m:critical',
    ]);
    expect(events.filter((n) => n.metadata?.['reminderKind'] !== 'before_1h').every((n) => n.urgent)).toBe(true);
    const rows = await remindersOf(t.database.db, id);
    expect(rows.every((r) => r.status === 'sent' && r.notification_id !== null)).toBe(true);
    expect(new Set(rows.map((r) => r.notification_id))).toEqual(new Set(events.map((n) => n.id)));
  });

  it('says the minutes left when the "1 hour" reminder goes out late, with the timer priority', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const id = await makeMatch(start);
    expect(await runDueReminders(worker(processA), () => new Date(start.getTime() - 10 * MINUTE))).toMatchObject({ sent: 2 });
    const events = await reminderEvents(id, 'match_starting_soon');
    expect(events).toHaveLength(2);
    expect(events[0]).toMatchObject({
      title: 'Match Starting Soon',
      message: 'Your Chess match starts in 10 minutes.',
      priority: 'high',
      urgent: true,
    });
    expect(events[0]!.metadata).toMatchObject({ reminderKind: 'before_1h', minutesUntil: 10 });
    expect(await runDueReminders(worker(processA), () => new Date(start.getTime() + 1000))).toMatchObject({ sent: 2 });
    expect((await reminderEvents(id)).map((n) => n.priority)).toEqual(['critical', 'critical']);
  });

  it('reminds an accepted match too', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const id = await makeMatch(start, { status: 'accepted' });
    expect(await runDueReminders(worker(processA), () => new Date(start.getTime() + 1000))).toMatchObject({ sent: 2 });
    expect((await reminderEvents(id)).map((n) => n.metadata?.['reminderKind'])).toEqual(['at_start', 'at_start']);
  });

  it('reminds an external match its scheduled start set in progress (play on the platform, then report), not one begun early', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const bySchedule = await makeMatch(start, { game: 'fifa-24' });
    const early = await makeMatch(start, { game: 'fifa-24' });
    await t.database.db.query(`UPDATE matches SET status = 'in_progress', started_at = scheduled_time WHERE id = $1`, [bySchedule]);
    await t.database.db.query(
      `UPDATE matches SET status = 'in_progress', started_at = scheduled_time - interval '30 minutes' WHERE id = $1`,
      [early],
    );
    expect(await runDueReminders(worker(processA), () => new Date(start.getTime() + 1000))).toMatchObject({ sent: 2, failed: 0 });
    const sent = await reminderEvents(bySchedule);
    expect(sent.map((n) => n.metadata?.['reminderKind'])).toEqual(['at_start', 'at_start']);
    expect(sent[0]!.message).toContain('Play it on your platform, then report the result in My Matches.');
    expect(sent[0]!.message).not.toContain('Join now');
    expect(await reminderEvents(early)).toHaveLength(0);
  });

  it('skips the reminders of a match that is no longer pending or accepted', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const completed = await makeMatch(start);
    const cancelled = await makeMatch(start);
    await t.database.db.query(`UPDATE matches SET status = 'completed', winner_id = player1_id WHERE id = $1`, [completed]);
    await t.database.db.query(`UPDATE matches SET status = 'cancelled' WHERE id = $1`, [cancelled]);

    const result = await runBothConcurrently(new Date(start.getTime() - 60 * MINUTE + 1000));
    expect(result).toEqual({ sent: 0, skipped: 4, failed: 0 });
    expect(await reminderEvents(completed)).toHaveLength(0);
    expect(await reminderEvents(cancelled)).toHaveLength(0);
    const rows = (await remindersOf(t.database.db, completed)).filter((r) => r.kind === 'before_1h');
    expect(rows.map((r) => [r.status, r.outcome])).toEqual([
      ['skipped', 'match_completed'],
      ['skipped', 'match_completed'],
    ]);
  });

  it('honours a player who turned match reminders off', async () => {
    const off = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as typeof DEFAULT_NOTIFICATION_PREFERENCES;
    off.match.reminders = false;
    await upsertPreferences(t.database.db, bob.userId, JSON.stringify(off), new Date());
    try {
      const start = new Date(Date.now() + 2 * 60 * MINUTE);
      const id = await makeMatch(start);
      expect(await runDueReminders(worker(processA), () => new Date(start.getTime() - 60 * MINUTE + 1000))).toEqual({
        sent: 1,
        skipped: 1,
        failed: 0,
      });
      expect((await reminderEvents(id)).map((n) => n.userId)).toEqual([alice.userId]);
      const bobs = (await remindersOf(t.database.db, id)).filter((r) => r.user_id === bob.userId && r.kind === 'before_1h');
      expect(bobs.map((r) => [r.status, r.outcome])).toEqual([['skipped', 'preference_off']]);
    } finally {
      await upsertPreferences(t.database.db, bob.userId, JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES), new Date());
    }
  });

  it('counts a failing reminder, carries on with the others, and gives it up after 5 attempts', async () => {
    const start = new Date(Date.now() + 2 * 60 * MINUTE);
    const id = await makeMatch(start);
    const failing: ReminderContext = {
      db: processA,
      log,
      preferencesOf: async (db, userId) => {
        if (userId === bob.userId) throw new Error('preferences unreadable');
        return preferencesOf(db, userId);
      },
    };
    const at = () => new Date(start.getTime() + 1000);
    // (The hour reminders, also due, are superseded by "at start".)
    expect(await runDueReminders(failing, at)).toEqual({ sent: 1, skipped: 2, failed: 1 });
    for (let i = 2; i <= 5; i++) expect(await runDueReminders(failing, at)).toEqual({ sent: 0, skipped: 0, failed: 1 });
    expect(await runDueReminders(failing, at)).toEqual({ sent: 0, skipped: 0, failed: 0 });
    const bobs = (await remindersOf(t.database.db, id)).filter((r) => r.user_id === bob.userId && r.kind === 'at_start');
    expect(bobs.map((r) => [r.status, r.outcome])).toEqual([['skipped', 'failed']]);
    expect((await reminderEvents(id)).map((n) => n.userId)).toEqual([alice.userId]);
  });

  it('recovers reminders that fell due while every process was down, once, on the next start', async () => {
    // The match was made 2 hours ago, to start 1 minute ago: its "1 hour before" and "at start"
    // reminders came due while no server ran; "window closing" is still ahead.
    const now = Date.now();
    const id = await makeMatch(new Date(now - MINUTE), { createdAt: new Date(now - 2 * 60 * MINUTE) });
    expect((await remindersOf(t.database.db, id)).filter((r) => new Date(r.due_at).getTime() <= now)).toHaveLength(4);
    // The job's schedule says it is overdue (the processes were down past its period).
    await t.database.db.query(`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 minute' WHERE name = 'notifications.reminders'`);

    // Two processes start at once, with jobs on.
    const config = { ...t.config, runJobs: true };
    const [one, two] = await Promise.all([
      buildApp({ config, db: processA, logger: false }),
      buildApp({ config, db: processB, logger: false }),
    ]);
    await Promise.all([one.ready(), two.ready()]);
    try {
      const deadline = Date.now() + 10_000;
      while ((await remindersOf(t.database.db, id)).some((r) => r.kind !== 'closing_5m' && r.status === 'scheduled')) {
        if (Date.now() > deadline) throw new Error('the reminders were not recovered');
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await Promise.all([one.close(), two.close()]);
    }
    const rows = await remindersOf(t.database.db, id);
    // The latest due one is sent; the stale "1 hour before" is not sent an hour late.
    expect(rows.filter((r) => r.kind === 'at_start').map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(rows.filter((r) => r.kind === 'before_1h').map((r) => [r.status, r.outcome])).toEqual([
      ['skipped', 'superseded'],
      ['skipped', 'superseded'],
    ]);
    expect(rows.filter((r) => r.kind === 'closing_5m').map((r) => r.status)).toEqual(['scheduled', 'scheduled']);
    expect(await reminderEvents(id)).toHaveLength(2);

    // Restarted again: nothing is sent twice.
    await t.database.db.query(`UPDATE scheduled_jobs SET next_run_at = now() - interval '1 minute' WHERE name = 'notifications.reminders'`);
    const again = await buildApp({ config, db: processA, logger: false });
    await again.ready();
    await new Promise((resolve) => setTimeout(resolve, 300));
    await again.close();
    expect(await reminderEvents(id)).toHaveLength(2);
  });
});

describe("a player's own reminder timings", () => {
  const who = (userId: string) => (userId === alice.userId ? 'alice' : 'bob');
  /** Timers planned for the other tests' matches are set aside. */
  const setAsideOthers = (matchId: string) =>
    t.database.db.query(
      `UPDATE match_reminders SET status = 'skipped', outcome = 'test_reset', processed_at = now()
        WHERE status = 'scheduled' AND match_id <> $1`,
      [matchId],
    );

  it('are planned ahead (default 15 and 5 minutes; 60 is the fixed hour reminder), once, and sent as "starting soon"', async () => {
    const custom = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as typeof DEFAULT_NOTIFICATION_PREFERENCES;
    custom.match.reminderMinutes = [30, 10];
    await upsertPreferences(t.database.db, bob.userId, JSON.stringify(custom), new Date());
    try {
      const now = new Date();
      const start = new Date(now.getTime() + 2 * 60 * MINUTE);
      const id = await makeMatch(start);
      // Two planners (two processes) at once write each timer once.
      await Promise.all([planTimerReminders({ db: processA }, now), planTimerReminders({ db: processB }, now)]);
      expect(await planTimerReminders({ db: processA }, now)).toBe(0);
      await setAsideOthers(id);
      const timers = (await remindersOf(t.database.db, id)).filter((r) => r.kind === 'timer');
      expect(timers.map((r) => `${who(r.user_id)}:${r.minutes_before}`).sort()).toEqual(['alice:15', 'alice:5', 'bob:10', 'bob:30']);
      for (const r of timers) expect(new Date(r.due_at).getTime()).toBe(start.getTime() - r.minutes_before * MINUTE);

      const at = (minutesBefore: number) => () => new Date(start.getTime() - minutesBefore * MINUTE + 1000);
      expect(await runDueReminders(worker(processA), at(60))).toEqual({ sent: 2, skipped: 0, failed: 0 });
      for (const minutes of [30, 15, 10, 5]) {
        expect(await runDueReminders(worker(processA), at(minutes)), `${minutes}`).toEqual({ sent: 1, skipped: 0, failed: 0 });
      }
      const soon = await reminderEvents(id, 'match_starting_soon');
      expect(soon.map((n) => `${who(n.userId)}:${n.message}:${n.priority}`)).toEqual([
        'bob:Your Chess match starts in 30 minutes.:normal',
        'alice:Your Chess match starts in 15 minutes.:high',
        'bob:Your Chess match starts in 10 minutes.:high',
        'alice:Your Chess match starts in 5 minutes.:critical',
      ]);
      expect(soon[0]!.metadata).toMatchObject({ reminderKind: 'timer', reminderKey: 'timer:30', minutesUntil: 30 });
    } finally {
      await upsertPreferences(t.database.db, bob.userId, JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES), new Date());
    }
  });

  it('removed after planning are skipped when due', async () => {
    const now = new Date();
    const start = new Date(now.getTime() + 2 * 60 * MINUTE);
    const id = await makeMatch(start);
    await planTimerReminders({ db: processA }, now);
    await setAsideOthers(id);
    expect(await runDueReminders(worker(processA), () => new Date(start.getTime() - 60 * MINUTE + 1000))).toMatchObject({ sent: 2 });
    const changed = JSON.parse(JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES)) as typeof DEFAULT_NOTIFICATION_PREFERENCES;
    changed.match.reminderMinutes = [60, 5];
    await upsertPreferences(t.database.db, alice.userId, JSON.stringify(changed), new Date());
    try {
      expect(await runDueReminders(worker(processA), () => new Date(start.getTime() - 15 * MINUTE + 1000))).toEqual({
        sent: 1,
        skipped: 1,
        failed: 0,
      });
      const rows = (await remindersOf(t.database.db, id)).filter((r) => r.kind === 'timer' && r.minutes_before === 15);
      expect(rows.map((r) => `${who(r.user_id)}:${r.status}:${r.outcome}`).sort()).toEqual([
        'alice:skipped:preference_changed',
        'bob:sent:sent',
      ]);
    } finally {
      await upsertPreferences(t.database.db, alice.userId, JSON.stringify(DEFAULT_NOTIFICATION_PREFERENCES), new Date());
    }
  });
});
