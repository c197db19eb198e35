import { parseInput, type ParseOptions } from "./validation";
import type { z } from "./zod";

/**
 * The one query reader: a URL's query string through the zod schema of what the page or endpoint
 * takes. A parameter given twice counts once, with its first value (as `URLSearchParams.get`
 * reads it). A page's schema falls back field by field with `.catch(…)`, so a hand-edited or stale
 * link still opens the page; an endpoint's schema refuses (ValidationError, 400 `invalid_input`).
 * Loaders and actions read it through `readQuery` (lib/input.server.ts); a component that has only
 * the browser's URL (the admin's tabs) calls this directly.
 */
export function parseQuery<S extends z.ZodType, K extends string = never>(params: URLSearchParams, schema: S, options: ParseOptions<K> = {}): z.output<S> {
  // No prototype: a parameter named __proto__ or constructor is just a parameter.
  const query = Object.create(null) as Record<string, string>;
  for (const [key, value] of params) if (!(key in query)) query[key] = value;
  return parseInput(query, schema, options);
}
