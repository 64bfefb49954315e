// Imported first by main.tsx, before any schema is built: zod then never probes `new Function`
// (its fast path), which the Content-Security-Policy refuses and reports as a violation even
// though zod catches the error. Schemas parse the same, a little slower.
import { config } from 'zod';

config({ jitless: true });
