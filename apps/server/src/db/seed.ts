import type { Database } from './database.ts';
import { demoUsersSeeder } from '../auth/demo.seed.ts';
import { demoChallengesSeeder } from '../challenges/demo.seed.ts';
import type { Seeder } from './seeder.ts';

/** Features add their demo data here; each seeder runs once per database. */
export const seeders: Seeder[] = [demoUsersSeeder, demoChallengesSeeder];

export async function seedDemo(db: Database): Promise<void> {
  await db.query(`CREATE TABLE IF NOT EXISTS demo_seeds (name text PRIMARY KEY, seeded_at timestamptz NOT NULL DEFAULT now())`);
  for (const seeder of seeders) {
    const [done] = await db.query('SELECT 1 FROM demo_seeds WHERE name = $1', [seeder.name]);
    if (done) continue;
    await seeder.run(db);
    await db.query('INSERT INTO demo_seeds (name) VALUES ($1) ON CONFLICT DO NOTHING', [seeder.name]);
  }
}
