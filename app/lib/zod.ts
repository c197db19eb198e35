import { z } from "zod";

/**
 * The project's zod: import `z` from here, never from "zod" (lint enforces it). Zod compiles
 * object parsers with `new Function` when it may, and probes for that when a schema is created;
 * under our CSP (no 'unsafe-eval') the probe is a reported violation on every page with a form.
 * jitless must be set before the first schema exists, which importing it from here guarantees.
 */
z.config({ jitless: true });

export { z };
