import type { PageRefusal } from "./errors";
import { jsonRefusalOf } from "./form-refusal";
import type { z } from "./zod";

/**
 * The browser's one way to change something through a JSON API (the admin panels, the editors,
 * the settings): it sends the request and reads the answer into a typed result, never a cast.
 *
 *   const sent = await send("/api/admin/decks", { method: "POST", json: payload }, DeckSavedAnswer);
 *   if (!sent.ok) return showRefusal(sent.refusal); // { code, message, fields? } or undefined
 *   use(sent.data);                                    // what DeckSavedAnswer parsed
 *
 * A refusal is the edge's one JSON shape `{error, code, fields?}` (lib/api.server.ts), read as the
 * page refusal `{code, message, fields?}` so a form shows the message and each field's message at
 * its field (lib/form-refusal.ts) just as it does for a page action's answer. A network failure, or
 * a successful answer that is not what `answer` expects, throws: the caller's catch reports it.
 */
export type SendResult<T> = { ok: true; status: number; data: T } | { ok: false; status: number; refusal: PageRefusal | undefined };

export type SendOptions = {
  method?: "POST" | "PUT" | "PATCH" | "DELETE";
  /** A JSON body. */
  json?: unknown;
  /** A multipart body (a file upload). */
  form?: FormData;
  signal?: AbortSignal;
  /** Let the request finish after the page is left (log-out). */
  keepalive?: boolean;
};

/** A successful answer that is not the shape the caller expects. */
export class UnexpectedAnswerError extends Error {
  override name = "UnexpectedAnswerError";
  constructor(url: string, status: number) {
    super(`HTTP ${status}: unexpected answer from ${url}`);
  }
}

/**
 * What reads a successful answer: a zod schema (most callers), or `answerChecked` for a page that
 * should not download zod's runtime for the sake of reading a few fields (docs/decisions/027).
 */
export type AnswerReader<T> = { safeParse(value: unknown): { success: true; data: T } | { success: false } };

/** An AnswerReader from a type guard written by hand. */
export function answerChecked<T>(isAnswer: (value: unknown) => value is T): AnswerReader<T> {
  return { safeParse: (value) => (isAnswer(value) ? { success: true, data: value } : { success: false }) };
}

export function send(url: string, options?: SendOptions): Promise<SendResult<unknown>>;
export function send<S extends z.ZodType>(url: string, options: SendOptions, answer: S): Promise<SendResult<z.output<S>>>;
export function send<T>(url: string, options: SendOptions, answer: AnswerReader<T>): Promise<SendResult<T>>;
export async function send(url: string, options: SendOptions = {}, answer?: AnswerReader<unknown>): Promise<SendResult<unknown>> {
  const headers: Record<string, string> = { Accept: "application/json" };
  if (options.json !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(url, {
    method: options.method ?? "POST",
    headers,
    body: options.form ?? (options.json === undefined ? undefined : JSON.stringify(options.json)),
    signal: options.signal,
    keepalive: options.keepalive,
    credentials: "same-origin",
  });
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) return { ok: false, status: response.status, refusal: jsonRefusalOf(body) };
  if (!answer) return { ok: true, status: response.status, data: body };
  const parsed = answer.safeParse(body);
  if (!parsed.success) throw new UnexpectedAnswerError(url, response.status);
  return { ok: true, status: response.status, data: parsed.data };
}

/**
 * A GET of a JSON API the page reads (a list, a record to edit): the answer parsed by `answer`.
 * Anything but a success, or an answer of another shape, throws for the caller's catch.
 */
export async function load<S extends z.ZodType>(url: string, answer: S, options: { signal?: AbortSignal } = {}): Promise<z.output<S>> {
  const response = await fetch(url, { signal: options.signal, headers: { Accept: "application/json" }, credentials: "same-origin" });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  const parsed = answer.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new UnexpectedAnswerError(url, response.status);
  return parsed.data;
}
