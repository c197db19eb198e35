import { bodyLimitFor, formatBytes } from "./body-limits";
import { AppError } from "./errors";
import { defineMessages } from "./i18n";
import { parseInput, type ParseOptions } from "./validation";
import type { z } from "./zod";

/**
 * The one input reader of the edge. A loader, action, JSON API or socket event hands it what came
 * in and the zod schema of what it accepts; it answers the parsed value or throws one AppError:
 *
 *   const input = await readInput(request, ArticleCreateSchema, { messages: articlesMessages, fallback: "errInvalid" });
 *
 * - GET/HEAD read the query string; other methods read the body: JSON, a urlencoded form or
 *   multipart, by its Content-Type, through one reader that counts the bytes against the path's
 *   limit (lib/body-limits.ts, the table the edge refuses by as well).
 * - A body past the limit → 413 `too_large`; one that is not what it says (broken JSON, a
 *   Content-Type the route does not take, bytes that are not UTF-8) → 400 `unreadable`; a value that breaks the schema →
 *   ValidationError (400 `invalid_input`, a message per field in the reader's language).
 *
 * The refusal writer (lib/api.server.ts) turns any of them into the JSON, page or socket answer.
 */

const inputMessages = defineMessages({
  ja: {
    unreadable: "リクエストの形式が正しくありません",
    tooLarge: "送信された内容が大きすぎます（上限 {max}）。内容を減らしてもう一度お試しください。",
  },
  en: {
    unreadable: "The request is not in the expected format",
    tooLarge: "What you sent is too large (at most {max}). Please send less and try again.",
  },
});

const INPUT_ERRORS = {
  unreadable: [400, "unreadable"],
  too_large: [413, "tooLarge"],
} as const;

/** A body the reader could not read at all (before any schema looked at it). */
export class InputError extends AppError<keyof typeof INPUT_ERRORS> {
  override name = "InputError";
  constructor(code: keyof typeof INPUT_ERRORS, params?: { max: string }) {
    super(inputMessages, INPUT_ERRORS, code, params);
  }
}

export type BodyKind = "json" | "form" | "multipart";

export type ReadOptions<K extends string> = ParseOptions<K> & {
  /** The body kinds the route takes (default: all three); another Content-Type is unreadable (400). */
  accept?: readonly BodyKind[];
  /** Turns a read form into the schema's shape (repeated fields, "id*count" pairs). */
  fromForm?: (form: FormData) => unknown;
  /** The route's own refusal for a body past its limit (e.g. the uploads' "10MBまで"). */
  tooLarge?: () => AppError;
};

/** The request's input (query for GET/HEAD, the body otherwise), parsed by `schema`. */
export async function readInput<S extends z.ZodType, K extends string = never>(request: Request, schema: S, options: ReadOptions<K> = {}): Promise<z.output<S>> {
  return parseInput(await readRaw(request, options), schema, options);
}

/** The query string as an object (a repeated parameter becomes a list). */
export function queryOf(request: Request): Record<string, string | string[]> {
  return entriesToObject(new URL(request.url).searchParams);
}

async function readRaw(request: Request, options: ReadOptions<string>): Promise<unknown> {
  if (request.method === "GET" || request.method === "HEAD") return queryOf(request);
  const type = request.headers.get("content-type") ?? "";
  const kind: BodyKind | null = /^application\/json\b/i.test(type)
    ? "json"
    : /^application\/x-www-form-urlencoded\b/i.test(type)
      ? "form"
      : /^multipart\/form-data\s*;\s*boundary=/i.test(type)
        ? "multipart"
        : null;
  if (!kind || (options.accept && !options.accept.includes(kind))) throw new InputError("unreadable");
  const bytes = await readBodyBytes(request, options.tooLarge);
  if (kind === "json") {
    try {
      return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
    } catch {
      throw new InputError("unreadable");
    }
  }
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new InputError("unreadable");
  }
  return options.fromForm ? options.fromForm(form) : entriesToObject(form);
}

/**
 * The body's bytes, counted as they arrive against the path's limit (lib/body-limits.ts): a
 * declared length past it is refused unread, a stream that passes it is left unread from there
 * (the 413 answer closes the connection rather than draining it).
 */
export async function readBodyBytes(request: Request, tooLarge?: () => AppError): Promise<Uint8Array<ArrayBuffer>> {
  const { maxBytes } = bodyLimitFor(new URL(request.url).pathname);
  const refuse = () => (tooLarge ? tooLarge() : new InputError("too_large", { max: formatBytes(maxBytes) }));
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw refuse();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not cancelled: cancelling destroys the socket under Express before the 413 can be sent.
      reader.releaseLock();
      throw refuse();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function entriesToObject(entries: Iterable<[string, FormDataEntryValue]>): Record<string, string | string[]>;
function entriesToObject(entries: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
  // No prototype: a field named __proto__ or constructor is just a field.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) {
    const seen = out[key];
    out[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return out;
}
