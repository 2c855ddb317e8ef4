// The AI SDK builds zod schemas when its modules load, and zod's first object schema
// probes whether it may compile checks with `new Function`. The page's CSP has no
// 'unsafe-eval', so the browser refuses the probe and logs a CSP error on every load.
// Jitless checks never probe. Imported before 'ai' (modules run in import order).
import { config } from 'zod/v4/core';

config({ jitless: true });
