// The servers bench/marketplace/run.ts measures, in a process of their own so the load
// generator does not share their event loop:
//   listing  — the real Versus app (buildApp: auth hook, zod validation and serialization,
//              the marketplace route with its 15 s cache);
//   uncached — the same app on its own database handle with the list cache turned off, so
//              every request runs the listing query (the partial-index scan);
//   bare     — a bare Fastify route doing one trivial query (SELECT 1) on a pool of its own;
//   noauth   — a bare Fastify route serving the same cached list body (listOpenChallengesBody)
//              without the app around it: what the bearer-token check and the rest cost.
// Prints one JSON line with the ports and a viewer's access token, then serves until killed.
import Fastify from 'fastify';
import { buildApp } from '../../apps/server/src/app.ts';
import { signAccessToken } from '../../apps/server/src/auth/tokens.ts';
import { listOpenChallengesBody } from '../../apps/server/src/challenges/challenges.service.ts';
import { loadConfig } from '../../apps/server/src/config.ts';
import { openPostgres } from '../../apps/server/src/db/database.ts';
import type { AccountType, Role } from '@versus/domain';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required');
const POOL = Number(process.env.BENCH_POOL ?? 10);

const config = loadConfig({ LOG_LEVEL: 'warn', WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false', DATABASE_URL: url });

const db = openPostgres(url, { max: POOL });
const app = await buildApp({ config, db });
await app.listen({ port: 0, host: '127.0.0.1' });

const uncachedDb = openPostgres(url, { max: POOL });
const uncached = await buildApp({ config, db: uncachedDb });
uncached.services.challengeList.ttlMs = 0;
await uncached.listen({ port: 0, host: '127.0.0.1' });

const bareDb = openPostgres(url, { max: POOL });
const bare = Fastify({ logger: { level: 'warn' } });
bare.get('/bare', async () => {
  const [row] = await bareDb.query<{ one: number }>('SELECT 1 AS one');
  return row;
});
await bare.listen({ port: 0, host: '127.0.0.1' });

const noauth = Fastify({ logger: { level: 'warn' } });
noauth.get('/list', async (_request, reply) =>
  reply.type('application/json; charset=utf-8').send(await listOpenChallengesBody(app.services, {})),
);
await noauth.listen({ port: 0, host: '127.0.0.1' });

const [viewer] = await db.query<{ id: string; role: Role; account_type: AccountType }>(
  `SELECT id, role, account_type FROM profiles ORDER BY username LIMIT 1`,
);
if (!viewer) throw new Error('no players in the bench database');
const session = await signAccessToken(app.services, {
  userId: viewer.id,
  role: viewer.role,
  accountType: viewer.account_type,
  sessionId: crypto.randomUUID(),
});

const port = (server: { server: import('node:net').Server }) => (server.server.address() as import('node:net').AddressInfo).port;
process.stdout.write(
  `${JSON.stringify({ listing: port(app), uncached: port(uncached), bare: port(bare), noauth: port(noauth), token: session.access_token })}\n`,
);

async function shutdown() {
  await Promise.all([app.close(), uncached.close(), bare.close(), noauth.close()]);
  await Promise.all([db.close(), uncachedDb.close(), bareDb.close()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
