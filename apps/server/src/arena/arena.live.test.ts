// match:{id} is numbered by its match and not stored: its events reach this process's sockets and, whole, the other processes';
// a socket that resumes gets what its hub still holds, or a gap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchEvent } from '@versus/domain/arena';
import type { App } from '../context.ts';
import { announce } from '../realtime/publish.ts';
import { TestSocket, listen } from '../realtime/test-socket.ts';
import { createKit, type Kit, type Player } from './arena.test-kit.ts';

let kit: Kit;
let url: string;
let other: App;
let otherUrl: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  kit = await createKit();
  url = await listen(kit.app);
  other = await kit.anotherApp();
  otherUrl = await listen(other);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await kit?.close();
});

/** A socket of `player` on `at`, following `topic` (from `since` when given): the version it was told. */
async function follow(player: Player, topic: string, { at = url, since }: { at?: string; since?: number } = {}) {
  const socket = await TestSocket.signedIn(at, player.token);
  sockets.push(socket);
  socket.send({ t: 'sub', d: since === undefined ? { topic } : { topic, since } });
  const subscribed = await socket.next('subscribed');
  return { socket, v: subscribed.d.v };
}

/** Plays tic-tac-toe cells by whoever is to move; the versions after each move. */
async function play(id: string, players: [Player, Player], cells: number[], app?: App): Promise<number[]> {
  const versions: number[] = [];
  for (const cell of cells) {
    const view = await kit.view(id, players[0], app);
    const reply = await kit.move(id, kit.mover(view, players), cell, { version: view.version, ...(app ? { app } : {}) });
    expect(reply.status, reply.raw).toBe(200);
    versions.push(reply.body.match.version);
  }
  return versions;
}

async function startedMatch() {
  const alice = await kit.player('livea');
  const bob = await kit.player('liveb');
  const id = await kit.match('tic-tac-toe', alice, bob);
  const players: [Player, Player] = [alice, bob];
  const view = await kit.start(id, alice, bob);
  return { id, alice, bob, players, view };
}

describe('match:{id}, numbered by the match', () => {
  it('carries each change at the match version, here and in another process, and stores no event for it', async () => {
    const { id, alice, bob, players, view } = await startedMatch();
    const topic = `match:${id}`;
    const here = await follow(alice, topic);
    const there = await follow(bob, topic, { at: otherUrl });
    expect(here.v).toBe(view.version);
    expect(there.v).toBe(view.version);

    const versions = await play(id, players, [0, 4, 8]);
    expect(versions).toEqual([view.version + 1, view.version + 2, view.version + 3]);
    for (const { socket } of [here, there]) {
      const events = await socket.events(3);
      expect(events.map((e) => [e.topic, e.v, e.type])).toEqual(versions.map((v) => [topic, v, 'match.move']));
      expect(events.map((e) => (e.payload as MatchEvent).version)).toEqual(versions);
    }
    // Nothing of the match's topic in the event store; its version is the match's.
    const db = kit.test.database.db;
    expect(await db.query('SELECT version FROM realtime_events WHERE topic = $1', [topic])).toEqual([]);
    expect(await db.query('SELECT version FROM realtime_topics WHERE topic = $1', [topic])).toEqual([]);
    expect((await kit.view(id, bob)).version).toBe(versions.at(-1));
    // The arrivals and the players' own streams are stored as before.
    expect((await kit.events(`arena-join:${id}`)).map((e) => e.type)).toEqual(['player_joined', 'player_joined']);
    // And the tests' tap heard the match's events as the other process did.
    expect((await kit.events(topic)).map((e) => e.type)).toEqual([
      'match.ready',
      'match.started',
      'match.move',
      'match.move',
      'match.move',
    ]);
  });

  it('a socket resuming within what its hub holds gets the events it missed; from further back, a gap and then live', async () => {
    const { id, alice, bob, players, view } = await startedMatch();
    const topic = `match:${id}`;
    // Bob follows on this process from the start: its hub keeps the match's latest events.
    const watcher = await follow(bob, topic);
    const versions = await play(id, players, [0, 4]);
    await watcher.socket.events(2);

    // Alice comes back after missing both moves: they are replayed from memory, then she is live.
    const resumed = await follow(alice, topic, { since: view.version });
    expect(resumed.v).toBe(versions.at(-1));
    expect((await resumed.socket.events(2)).map((e) => e.v)).toEqual(versions);
    await resumed.socket.settle();
    expect(resumed.socket.received.filter((m) => m.t === 'gap')).toEqual([]);

    // From before this hub followed the match (its ready and start): a gap; she reloads the view.
    const behind = await follow(alice, topic, { since: view.version - 2 });
    expect((await behind.socket.next('gap')).d).toEqual({ topic });
    expect(behind.v).toBe(versions.at(-1));

    // On a process that holds nothing of the match: a gap too, then every later move live.
    const elsewhere = await follow(alice, topic, { at: otherUrl, since: view.version });
    await elsewhere.socket.next('gap');
    const next = await play(id, players, [8]);
    for (const { socket } of [watcher, resumed, behind, elsewhere]) expect((await socket.events(1)).map((e) => e.v)).toEqual(next);
  });

  it("sends a match's events to the other processes only once one of them follows it", async () => {
    const { id, alice, bob, players } = await startedMatch();
    const topic = `match:${id}`;
    const db = kit.test.database.db;
    await db.query('UPDATE matches SET followers = NULL WHERE id = $1', [id]); // not even the tests' tap
    const here = await follow(alice, topic);
    const followers = async () =>
      (await db.query<{ followers: string[] | null }>('SELECT followers FROM matches WHERE id = $1', [id]))[0]!.followers;
    expect(await followers()).toHaveLength(1); // this process's hub

    // Followed here only: this process's sockets hear the move, nothing goes to the others.
    const first = await play(id, players, [0]);
    expect((await here.socket.events(1)).map((e) => e.v)).toEqual(first);
    expect((await kit.events(topic)).filter((e) => e.type === 'match.move')).toEqual([]);

    // Another process follows it: from then on every change travels, whole.
    const there = await follow(bob, topic, { at: otherUrl });
    expect(there.v).toBe(first[0]);
    expect(await followers()).toHaveLength(2);
    const next = await play(id, players, [4, 8]);
    for (const { socket } of [here, there]) expect((await socket.events(2)).map((e) => e.v)).toEqual(next);
    expect((await kit.events(topic)).filter((e) => e.type === 'match.move')).toHaveLength(2);
    // Following again records nothing new.
    await follow(bob, topic, { at: otherUrl });
    expect(await followers()).toHaveLength(2);
  });

  it('an event too large to travel reaches its followers as a gap, and the next one is live again', async () => {
    const { id, alice, players, view } = await startedMatch();
    const topic = `match:${id}`;
    const here = await follow(alice, topic);
    const there = await follow(alice, topic, { at: otherUrl });
    // As a change of the match would announce it, at the match's next version (the store's
    // version moves with it, as that change's own write would).
    await kit.test.database.db.transaction(async (tx) => {
      await tx.query('UPDATE matches SET version = version + 1 WHERE id = $1', [id]);
      announce(tx, topic, view.version + 1, 'match.huge', JSON.stringify({ filler: 'x'.repeat(9000) }));
    });
    for (const { socket } of [here, there]) expect((await socket.next('gap')).d).toEqual({ topic });
    const versions = await play(id, players, [0]);
    for (const { socket } of [here, there]) {
      expect((await socket.events(1)).map((e) => e.v)).toEqual(versions);
      expect(JSON.stringify(socket.received)).not.toContain('xxxx');
    }
  });
});
