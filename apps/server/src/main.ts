import { buildApp } from './app.ts';
import { loadConfig, type Config } from './config.ts';
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

const app = await buildApp({ config, db });
await app.listen({ port: config.port, host: config.host });
app.log.info({ database: db.kind, ms: Math.round(performance.now() - startedAt) }, `Versus is running on http://localhost:${config.port}`);

let closing = false;
async function shutdown(signal: string) {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: draining requests and sockets');
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
