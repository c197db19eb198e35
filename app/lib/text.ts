import { z } from "./zod";

/**
 * The one rule for text that arrives from outside (form fields, JSON bodies, socket payloads):
 * PostgreSQL's text cannot hold U+0000 (it answers "invalid byte sequence", a 500), and a lone
 * UTF-16 surrogate is not text. Such input is refused as a bad request, never stored or queried.
 */
const UNSAFE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

export function isSafeText(value: string): boolean {
  return !UNSAFE_TEXT.test(value);
}

/**
 * Text for a one-line field (a note, a label): safe text without control characters, line breaks
 * and tabs included. An <input> cannot hold them, so only a hand-made request sends them; they are
 * refused, not silently dropped.
 */
export function isPlainLine(value: string): boolean {
  return isSafeText(value) && !/\p{Cc}/u.test(value);
}

/** z.string() with the rule; `message` is the schema's own catalogue key for a bad or missing value. */
export function safeString(message = "badRequest") {
  return z.string({ error: message }).refine(isSafeText, message);
}
