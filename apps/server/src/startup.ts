// What a server does before it listens: open and migrate its database, seed the demo if asked,
// and, in production, refuse a database where anyone could sign in with a published password.
import { demoAccountsWithPublishedPassword } from './auth/demo.seed.ts';
import type { Config } from './config.ts';
import type { Database } from './db/database.ts';
import { migrate } from './db/migrate.ts';
import { openDatabase } from './db/open.ts';
import { seedDemo } from './db/seed.ts';

/** A reason not to start that the operator must act on: main prints its message, not a stack. */
export class StartRefused extends Error {}

export function demoAccountsRefusal(emails: readonly string[]): string {
  return (
    `Versus will not start with NODE_ENV=production while demo accounts keep the passwords published in its README ` +
    `(anyone could sign in as them): ${emails.join(', ')}. Give each a new password with ` +
    '`npm run admin -- password --email <email>`, or use a database without demo data.'
  );
}

export async function prepareDatabase(config: Config, templateDir?: string): Promise<Database> {
  const db = await openDatabase(config, templateDir).catch((error: Error) => {
    throw new StartRefused(error.message, { cause: error });
  });
  try {
    await migrate(db);
    if (config.seedDemo) await seedDemo(db);
    if (config.production) {
      const exposed = await demoAccountsWithPublishedPassword(db);
      if (exposed.length > 0) throw new StartRefused(demoAccountsRefusal(exposed));
    }
    return db;
  } catch (error) {
    await db.close();
    throw error;
  }
}
