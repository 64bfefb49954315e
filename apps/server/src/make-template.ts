// Build step: a migrated, seeded embedded database, dumped next to the server bundle, so the
// first `npm start` on a new machine loads it instead of creating a database from nothing.
import fs from 'node:fs';
import { openPglite } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { EMBEDDED_TEMPLATE } from './db/open.ts';
import { seedDemo } from './db/seed.ts';

const db = await openPglite('memory://');
await migrate(db);
await seedDemo(db);
fs.writeFileSync(EMBEDDED_TEMPLATE, await db.dump!());
await db.close();
