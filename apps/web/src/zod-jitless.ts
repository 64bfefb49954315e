// Imported first by main.tsx so zod never probes `new Function`, which the CSP refuses and reports
// as a violation even though zod catches it.
import { config } from 'zod';

config({ jitless: true });
