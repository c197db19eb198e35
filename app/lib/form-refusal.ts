import type { PageRefusal } from "./errors";

/**
 * Reading the one page refusal shape `{ code, message, fields? }` (lib/api.server.ts `formError`,
 * `formRefusal`) at a form: a refusal that names fields shows each message at its field; one that
 * names none (or names the whole form, `form`) shows its message above the form.
 */

/** The refusal in a form action's answer, if the answer is one. */
export function refusalOf(answer: unknown): PageRefusal | undefined {
  if (typeof answer !== "object" || answer === null) return undefined;
  if (!("code" in answer) || !("message" in answer)) return undefined;
  const { code, message } = answer;
  if (typeof code !== "string" || typeof message !== "string") return undefined;
  const fields = "fields" in answer ? textRecord(answer.fields) : undefined;
  return { code, message, ...(fields ? { fields } : {}) };
}

/** A JSON API's refusal `{error, code, fields?}` (lib/api.server.ts) read as the page refusal. */
export function jsonRefusalOf(body: unknown): PageRefusal | undefined {
  if (typeof body !== "object" || body === null || !("error" in body)) return undefined;
  const { error } = body;
  return refusalOf({ ...body, message: error });
}

/** The message shown above the form: the refusal's own when it names no field, or the `form` field's. */
export function formMessage(refusal: PageRefusal | undefined): string | undefined {
  if (!refusal) return undefined;
  return refusal.fields ? refusal.fields.form : refusal.message;
}

/** The message shown at `field`, if the refusal names it. */
export function fieldMessage(refusal: PageRefusal | undefined, field: string): string | undefined {
  return refusal?.fields?.[field];
}

function textRecord(value: unknown): Record<string, string> | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const out: Record<string, string> = {};
  for (const [key, text] of Object.entries(value)) if (typeof text === "string") out[key] = text;
  return Object.keys(out).length ? out : undefined;
}
