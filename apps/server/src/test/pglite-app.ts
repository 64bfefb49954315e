// An API-only app on a fresh in-memory PGlite (the embedded database of `npm start`), migrated,
// and a way to call it with a bearer token.
import { buildApp, type App } from '../app.ts';
import { loadConfig } from '../config.ts';
import { openPglite, type Database } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';

/** A request as `token`'s: its status and parsed body (the test reads what it expects there). */
const caller = (app: App) => async (token: string, method: 'GET' | 'POST', url: string, payload?: object) => {
  const res = await app.inject({ method, url, headers: { authorization: `Bearer ${token}` }, ...(payload ? { payload } : {}) });
  return { status: res.statusCode, body: res.json() };
};

export interface PgliteApp {
  db: Database;
  app: App;
  call: ReturnType<typeof caller>;
  close(): Promise<void>;
}

/** A fresh in-memory PGlite with every migration applied. */
export async function openMigratedPglite(): Promise<Database> {
  const db = await openPglite('memory://');
  await migrate(db);
  return db;
}

export async function createPgliteApp(): Promise<PgliteApp> {
  const db = await openMigratedPglite();
  const app = await buildApp({ config: loadConfig({ WEB_DIR: '', SEED_DEMO: 'false', RUN_JOBS: 'false' }), db, logger: false });
  await app.ready();
  return {
    db,
    app,
    call: caller(app),
    async close() {
      await app.close();
      await db.close();
    },
  };
}
