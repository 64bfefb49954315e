import type { Database } from './database.ts';

/** A feature's demo data, run once per database by seed.ts. */
export interface Seeder {
  name: string;
  run(db: Database): Promise<void>;
}
