// Tests' view of the hints (publish.ts hint) sent on one topic: what the hub of every process
// hears, in the order the commits sent them.
import type { Database } from '../db/database.ts';
import { ProcessInbox, REALTIME_CHANNEL } from './process-protocol.ts';
import { hint } from './publish.ts';

export interface Hint {
  type: string;
  payload: unknown;
}

const MARK = 'test.mark';

export interface HintRecorder {
  /** The hints heard so far, once every one sent before the call has arrived (a marker comes back last): "none" can be asserted. */
  heard(): Promise<Hint[]>;
  stop(): Promise<void>;
}

export async function recordHints(db: Database, topic: string): Promise<HintRecorder> {
  const hints: Hint[] = [];
  const marks = new Set<string>();
  const stop = await new ProcessInbox(REALTIME_CHANNEL, console).listen(db, (message) => {
    if (message.t !== 'hint' || message.d.topic !== topic) return;
    if (message.d.type === MARK) marks.add(String(message.d.payload));
    else hints.push({ type: message.d.type, payload: message.d.payload });
  });
  let marked = 0;
  async function sync(): Promise<void> {
    const mark = String(++marked);
    hint(db, topic, MARK, mark);
    const deadline = Date.now() + 5_000;
    while (!marks.has(mark)) {
      if (Date.now() > deadline) throw new Error(`recordHints: the marker on ${topic} never came back`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
  // Hints of work finished before recording began may still be on their way: not ours.
  await sync();
  hints.length = 0;
  return {
    async heard() {
      await sync();
      return [...hints];
    },
    stop,
  };
}
