import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { openDatabase } from './db/open.ts';
import { migrate } from './db/migrate.ts';
import { seedDemo } from './db/seed.ts';

const startedAt = performance.now();
const config = loadConfig();
const db = await openDatabase(config).catch((error: Error) => {
  console.error(error.message);
  process.exit(1);
});
await migrate(db);
if (config.seedDemo) await seedDemo(db);

const app = await buildApp({ config, db });
await app.listen({ port: config.port, host: config.host });
app.log.info(
  { database: db.kind, ms: Math.round(performance.now() - startedAt) },
  `Versus is running on http://localhost:${config.port}`,
);

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
