// The Versus server as the notify bench runs it (bench/lib/server.ts), started with --expose-gc.
// On SIGUSR2 it collects garbage twice and prints its memory and event-loop delay as one JSON
// line {"memory": {...}}.
import { answerMemory, startBenchApp } from '../lib/server.ts';

const { loopDelay } = await startBenchApp();
answerMemory('SIGUSR2', loopDelay);
