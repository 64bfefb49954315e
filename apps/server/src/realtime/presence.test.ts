import { describe, expect, it } from 'vitest';
import { TopicPresence } from './presence.ts';

describe('TopicPresence beats', () => {
  it('spreads the beat: each beat repeats one slot of the topics, every topic once per round of slots', () => {
    const heard: string[] = [];
    const presence = new TopicPresence((hint) => {
      if (!hint.d.payload || (hint.d.payload as { ask?: boolean }).ask) return;
      heard.push(`${hint.d.topic} ${(hint.d.payload as { userId: string }).userId}`);
    }, 3);
    for (const n of [1, 2, 3, 4]) presence.joined(`match:${n}`, `p${n}`);
    presence.joined('match:1', 'q1');

    const beats = [1, 2, 3].map(() => {
      heard.length = 0;
      presence.beat();
      return [...heard];
    });
    expect(beats).toEqual([['match:1 p1', 'match:1 q1', 'match:4 p4'], ['match:2 p2'], ['match:3 p3']]);
    heard.length = 0;
    presence.beat();
    expect(heard).toEqual(['match:1 p1', 'match:1 q1', 'match:4 p4']);

    // Gone from the topic: out of its slot's beats.
    presence.left('match:4', 'p4');
    heard.length = 0;
    for (let i = 0; i < 3; i++) presence.beat();
    expect(heard).toEqual(['match:2 p2', 'match:3 p3', 'match:1 p1', 'match:1 q1']);
  });
});
