// Build step (run by build.mjs from dist/): the embedded-database templates, see db/embedded-templates.ts.
import { writeEmbeddedTemplates } from './db/embedded-templates.ts';

await writeEmbeddedTemplates();
