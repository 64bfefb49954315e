// Before the reveal, no socket message to the opponent or a spectator and no API answer holds the
// other player's throw. Real sockets (the `ws` package) on a listening app.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MatchEvent, MatchView } from '@versus/domain/arena';
import { TestSocket, listen } from '../realtime/test-socket.ts';
import { createKit, type Kit, type Player } from './arena.test-kit.ts';

let kit: Kit;
let url: string;
const sockets: TestSocket[] = [];

beforeAll(async () => {
  kit = await createKit();
  url = await listen(kit.app);
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await kit?.close();
});

async function follow(player: Player, ...topicList: string[]): Promise<TestSocket> {
  const socket = await TestSocket.signedIn(url, player.token);
  sockets.push(socket);
  for (const topic of topicList) {
    socket.send({ t: 'sub', d: { topic } });
    await socket.next('subscribed');
  }
  return socket;
}

/** Takes events until one of `type` arrives (on any topic the socket follows). */
async function nextEvent(socket: TestSocket, type: string) {
  for (;;) {
    const [event] = await socket.events(1);
    if (event!.type === type) return event!;
  }
}

/** Every frame a socket got, as text. */
const heard = (socket: TestSocket) => JSON.stringify(socket.received);

/** A player's own view with its legal moves (which name every throw) left out. */
const withoutLegal = (view: MatchView) =>
  JSON.stringify({ ...view, game: { ...view.game, view: { ...(view.game!.view as object), legal: [] } } });

describe('rock-paper-scissors secrecy', () => {
  it('keeps a throw from the opponent and spectators until both are in, over sockets and the API', async () => {
    const alice = await kit.player('rpsa');
    const bob = await kit.player('rpsb');
    const carol = await kit.player('rpsc');
    const id = await kit.match('rock-paper-scissors', alice, bob);
    const aliceSocket = await follow(alice, `match:${id}`, `user:${alice.id}`);
    const bobSocket = await follow(bob, `match:${id}`, `user:${bob.id}`, `arena-join:${id}`);
    const carolSocket = await follow(carol, `match:${id}`);
    // A spectator may not follow the players' arrivals, nor a player's own stream.
    carolSocket.send({ t: 'sub', d: { topic: `arena-join:${id}` } });
    expect((await carolSocket.next('error')).d.code).toBe('forbidden_topic');

    const view = await kit.start(id, alice, bob);
    expect(view.toMove.sort()).toEqual([0, 1]);
    await nextEvent(bobSocket, 'match.started');
    const aliceSeat = view.players.findIndex((p) => p.id === alice.id);

    // Alice throws rock over her socket.
    aliceSocket.send({ t: 'move', d: { ref: 'r1', matchId: id, move: 'rock', version: view.version } });
    const moved = await aliceSocket.next('moved');
    expect(moved.d).toEqual({ ref: 'r1', matchId: id, ok: true, version: view.version + 1 });

    // Bob and Carol hear that Alice threw — not what.
    const bobEvent = await nextEvent(bobSocket, 'match.move');
    const payload = bobEvent.payload as MatchEvent;
    expect(payload.move).toMatchObject({ seat: aliceSeat, notation: `Player ${aliceSeat + 1} threw` });
    expect(payload.game!.view).toMatchObject({ throws: [null, null] });
    await nextEvent(carolSocket, 'match.move');
    for (const socket of [bobSocket, carolSocket]) {
      await socket.settle();
      expect(heard(socket)).not.toMatch(/"rock"/i);
    }
    // Nor do the API answers to Bob, a spectator or anyone's replay request.
    const bobView = await kit.view(id, bob);
    expect((bobView.game!.view as { throws: unknown[]; thrown: boolean[] }).throws[aliceSeat]).toBeNull();
    expect((bobView.game!.view as { thrown: boolean[] }).thrown[aliceSeat]).toBe(true);
    expect(withoutLegal(bobView)).not.toMatch(/"rock"/i);
    const spectated = await kit.api('GET', `/api/spectate/${id}`, { as: carol });
    expect(spectated.raw).not.toMatch(/"rock"/i);
    expect((await kit.api('GET', `/api/matches/${id}/replay`, { as: bob })).status).toBe(409);
    expect((await kit.api('GET', `/api/arena/matches`, { as: bob })).raw).not.toMatch(/"rock"/i);
    // Alice sees her own throw.
    expect(((await kit.view(id, alice)).game!.view as { throws: unknown[] }).throws[aliceSeat]).toBe('rock');

    // Throwing twice is refused; a stale version too (both over the socket, with the HTTP codes).
    aliceSocket.send({ t: 'move', d: { ref: 'r2', matchId: id, move: 'paper', version: view.version + 1 } });
    expect((await aliceSocket.next('moved')).d).toMatchObject({
      ref: 'r2',
      ok: false,
      status: 409,
      code: 'not_your_turn',
      message: 'You have already thrown.',
    });
    aliceSocket.send({ t: 'move', d: { ref: 'r3', matchId: id, move: 'paper', version: view.version } });
    expect((await aliceSocket.next('moved')).d).toMatchObject({ ref: 'r3', ok: false, status: 409, code: 'stale_version' });
    // A spectator's socket move is refused like its HTTP one.
    carolSocket.send({ t: 'move', d: { matchId: id, move: 'paper', version: view.version + 1 } });
    expect((await carolSocket.next('moved')).d).toMatchObject({ ok: false, status: 403 });

    // Bob throws scissors: both are revealed to everyone, and Alice has won game 1.
    const reveal = await kit.move(id, bob, 'scissors', { version: view.version + 1 });
    expect(reveal.status, reveal.raw).toBe(200);
    const revealed = (await nextEvent(carolSocket, 'match.move')).payload as MatchEvent;
    const over = revealed.gameOver!;
    expect(over.summary.outcome).toEqual({ winner: aliceSeat, reason: 'throw' });
    const throws: unknown[] = [null, null];
    throws[aliceSeat] = 'rock';
    throws[1 - aliceSeat] = 'scissors';
    expect(over.view).toMatchObject({ throws });
    // Game 2 has begun, its throws secret again.
    expect(revealed.game).toMatchObject({ index: 1, view: { throws: [null, null] } });
  });

  it('a drawn throw is replayed; three make the match a draw', async () => {
    const alice = await kit.player('rpda');
    const bob = await kit.player('rpdb');
    const id = await kit.match('rock-paper-scissors', alice, bob, { stake: 10 });
    let view = await kit.start(id, alice, bob);
    for (let game = 0; game < 3; game++) {
      expect((await kit.move(id, alice, 'paper', { version: view.version })).status).toBe(200);
      const reply = await kit.move(id, bob, 'paper', { version: view.version + 1 });
      expect(reply.status, reply.raw).toBe(200);
      view = reply.body.match;
    }
    expect(view.result).toMatchObject({ outcome: 'draw', reason: 'drawn-game-cap', lastGameReason: 'same-throw' });
    expect(await kit.balance(alice.id)).toEqual({ available: 100_000, escrow: 0 });
    await kit.expectAuditClean();
  });
});

describe('moves over the socket', () => {
  it("with ack 'errors', an applied move is answered by its event only; a refused one still by moved", async () => {
    const alice = await kit.player('acka');
    const bob = await kit.player('ackb');
    const id = await kit.match('tic-tac-toe', alice, bob);
    const view = await kit.start(id, alice, bob);
    const mover = kit.mover(view, [alice, bob]);
    const socket = await follow(mover, `match:${id}`);
    socket.send({ t: 'move', d: { ref: 'q1', matchId: id, move: 4, version: view.version, ack: 'errors' } });
    const event = await nextEvent(socket, 'match.move');
    expect((event.payload as MatchEvent).version).toBe(view.version + 1);
    socket.send({ t: 'move', d: { ref: 'q2', matchId: id, move: 0, version: view.version + 1, ack: 'errors' } });
    expect((await socket.next('moved')).d).toMatchObject({ ref: 'q2', ok: false, status: 409, code: 'not_your_turn' });
    await socket.settle();
    expect(socket.received.filter((m) => m.t === 'moved')).toEqual([]);
  });
});

describe('AI rock-paper-scissors', () => {
  it('plays each player against their own committed computer; the throws stay secret until both are in', async () => {
    const alice = await kit.player('aira');
    const bob = await kit.player('airb');
    const id = await kit.match('ai-rock-paper-scissors', alice, bob, { stake: 10 });
    const bobSocket = await follow(bob, `match:${id}`);
    const view = await kit.start(id, alice, bob);
    const aliceSeat = view.players.findIndex((p) => p.id === alice.id);
    await kit.move(id, alice, 'rock', { version: view.version });
    const mine = (await kit.view(id, alice)).game!.view as { sides: ({ throws: unknown[]; seed: string | null } | null)[] };
    expect(mine.sides[aliceSeat]!.throws[0]).toBe('rock');
    expect(mine.sides[aliceSeat]!.seed).toMatch(/^[0-9a-f]{64}$/);
    const theirs = (await kit.view(id, bob)).game!.view as { sides: unknown[]; thrown: boolean[] };
    expect(theirs.sides[aliceSeat]).toBeNull();
    expect(theirs.thrown[aliceSeat]).toBe(true);
    await nextEvent(bobSocket, 'match.move');
    await bobSocket.settle();
    expect(heard(bobSocket)).not.toMatch(/"rock"/i);
  });
});
