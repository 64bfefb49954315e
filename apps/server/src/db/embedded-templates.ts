// Build step: migrated embedded databases dumped beside the bundle, so a first start loads one instead of
// creating and seeding (bench/startup).
import fs from 'node:fs';
import { openPglite } from './database.ts';
import { migrate } from './migrate.ts';
import { embeddedTemplate, TEMPLATE_DIR } from './open.ts';
import { seedDemo } from './seed.ts';

/** Writes the plain template (no accounts at all) and the demo one (the same, plus demo data). */
export async function writeEmbeddedTemplates(dir = TEMPLATE_DIR): Promise<void> {
  const db = await openPglite('memory://');
  try {
    await migrate(db);
    fs.writeFileSync(embeddedTemplate(false, dir), await db.dump!());
    await seedDemo(db);
    fs.writeFileSync(embeddedTemplate(true, dir), await db.dump!());
  } finally {
    await db.close();
  }
}
