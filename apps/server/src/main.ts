import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
import { Lifecycle } from './lifecycle.ts';
import { prepareDatabase, StartRefused } from './startup.ts';

const startedAt = performance.now();
/** Refusals (bad settings, a held data folder, demo passwords in production) end here, plainly. */
function refuse(error: unknown): never {
  if (!(error instanceof StartRefused)) throw error;
  console.error(error.message);
  process.exit(1);
}
let config: Config;
try {
  config = loadConfig();
} catch (error) {
  refuse(new StartRefused((error as Error).message));
}
const db = await prepareDatabase(config).catch(refuse);

const lifecycle = new Lifecycle();
const app = await buildApp({ config, db, lifecycle });
await app.listen({ port: config.port, host: config.host });
app.log.info({ database: db.kind, ms: Math.round(performance.now() - startedAt) }, `Versus is running on http://localhost:${config.port}`);

let closing = false;
let endGrace: (() => void) | undefined;
async function shutdown(signal: NodeJS.Signals) {
  if (closing) {
    // A second signal cuts the drain short.
    endGrace?.();
    return;
  }
  closing = true;
  lifecycle.drain();
  // SIGTERM (a rolling restart, an orchestrator) drains: /api/ready fails at once and the process
  // keeps serving until the load balancer has taken it out. Ctrl-C (SIGINT) closes at once.
  const graceMs = signal === 'SIGTERM' ? config.drainGraceMs : 0;
  if (graceMs > 0) {
    app.log.info({ signal, graceMs }, 'draining: /api/ready answers 503, requests are still served');
    await new Promise<void>((resolve) => {
      endGrace = resolve;
      setTimeout(resolve, graceMs);
    });
  }
  app.log.info({ signal }, 'shutting down: finishing requests, closing sockets with 1012');
  const force = setTimeout(() => process.exit(1), 10_000);
  force.unref();
  try {
    await app.close();
    await db.close();
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));
