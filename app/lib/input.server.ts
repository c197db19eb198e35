import busboy from "busboy";
import { bodyLimitFor, formatBytes } from "./body-limits";
import { pageUrlOf } from "./data-url";
import { AppError } from "./errors";
import { defineMessages } from "./i18n";
import { parseQuery } from "./query";
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
 *   limit (lib/body-limits.ts, the table the edge refuses by as well). Multipart is parsed while
 *   it streams in: a file part is held once, as the File the form hands on, never also as the
 *   whole body (an image upload is up to 10 MB).
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
  /** The route's own refusal for a body of a kind it does not take (e.g. the uploads' "no file"). */
  notAccepted?: () => AppError;
};

/** The request's input (query for GET/HEAD, the body otherwise), parsed by `schema`. */
export async function readInput<S extends z.ZodType, K extends string = never>(request: Request, schema: S, options: ReadOptions<K> = {}): Promise<z.output<S>> {
  return parseInput(await readRaw(request, options), schema, options);
}

/** The query string as an object (a repeated parameter becomes a list), without React Router's own `_routes`. */
export function queryOf(request: Request): Record<string, string | string[]> {
  return entriesToObject(pageUrlOf(request).searchParams);
}

/**
 * The request's query through `schema`, whatever the method (an action's `?token=` too): the edge's
 * one query reader (lib/query.ts says how a page's and an endpoint's schema differ).
 */
export function readQuery<S extends z.ZodType, K extends string = never>(request: Request, schema: S, options: ParseOptions<K> = {}): z.output<S> {
  return parseQuery(pageUrlOf(request).searchParams, schema, options);
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
  if (!kind || (options.accept && !options.accept.includes(kind))) throw options.notAccepted ? options.notAccepted() : new InputError("unreadable");
  if (kind === "multipart") {
    const form = await readMultipart(request, type, options.tooLarge);
    return options.fromForm ? options.fromForm(form) : entriesToObject(form);
  }
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

/** The refusal for a body past the path's limit, and the limit. */
function bodyLimitOf(request: Request, tooLarge?: () => AppError): { maxBytes: number; refuse: () => AppError } {
  // The page's limit for its `.data` form posts too, as at the edge (server/body-limit.ts).
  const { maxBytes } = bodyLimitFor(pageUrlOf(request).pathname);
  return { maxBytes, refuse: () => (tooLarge ? tooLarge() : new InputError("too_large", { max: formatBytes(maxBytes) })) };
}

/**
 * The body's chunks as they arrive, counted against the path's limit (lib/body-limits.ts): a
 * declared length past it is refused unread, a stream that passes it is left unread from there
 * (the 413 answer closes the connection rather than draining it).
 */
async function* bodyChunks(request: Request, tooLarge?: () => AppError): AsyncGenerator<Uint8Array> {
  const { maxBytes, refuse } = bodyLimitOf(request, tooLarge);
  if (Number(request.headers.get("content-length") ?? "0") > maxBytes) throw refuse();
  if (!request.body) return;
  const reader = request.body.getReader();
  let size = 0;
  for (;;) {
    let read: ReadableStreamReadResult<Uint8Array>;
    try {
      read = await reader.read();
    } catch {
      // The client went away mid-body (ECONNRESET, aborted): a refusal, not a server failure.
      throw new InputError("unreadable");
    }
    const { done, value } = read;
    if (done) return;
    size += value.byteLength;
    if (size > maxBytes) {
      // Not cancelled: cancelling destroys the socket under Express before the 413 can be sent.
      reader.releaseLock();
      throw refuse();
    }
    yield value;
  }
}

/** The body's bytes, counted against the path's limit as they arrive (see bodyChunks). */
export async function readBodyBytes(request: Request, tooLarge?: () => AppError): Promise<Uint8Array<ArrayBuffer>> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of bodyChunks(request, tooLarge)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

function drained(parser: busboy.Busboy): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      parser.off("drain", done).off("error", done).off("close", done);
      resolve();
    };
    parser.on("drain", done).on("error", done).on("close", done);
  });
}

/**
 * A multipart body parsed as it streams in (busboy), into the FormData the web's own parser would
 * give: text fields as strings, file parts as Files. Only a file part's own bytes are kept, each
 * once; the body as a whole is never held. Broken framing is unreadable (400), like JSON that
 * does not parse.
 */
async function readMultipart(request: Request, type: string, tooLarge?: () => AppError): Promise<FormData> {
  const form = new FormData();
  const { maxBytes } = bodyLimitOf(request);
  let parser: busboy.Busboy;
  try {
    // busboy's own limits (1 MB per field, 100-byte names) would cut values silently: the body limit bounds them.
    parser = busboy({ headers: { "content-type": type }, defParamCharset: "utf8", limits: { fieldSize: maxBytes, fieldNameSize: maxBytes } });
  } catch {
    throw new InputError("unreadable");
  }
  let failed: unknown = null;
  const finished = new Promise<void>((resolve) => {
    parser.on("close", resolve);
    parser.on("error", (error) => {
      failed ??= error;
      resolve();
    });
  });
  parser.on("field", (name, value) => form.append(name, value));
  parser.on("file", (name, stream, info) => {
    const chunks: Uint8Array<ArrayBuffer>[] = [];
    // A part cut short fails the parser too; that error is the one answered.
    stream.on("error", () => {});
    stream.on("data", (chunk: Buffer<ArrayBuffer>) => chunks.push(chunk));
    stream.on("end", () => form.append(name, new File(chunks, info.filename ?? "", { type: info.mimeType })));
  });
  try {
    for await (const chunk of bodyChunks(request, tooLarge)) {
      if (failed) break;
      if (!parser.write(chunk) && !failed) await drained(parser);
    }
  } catch (error) {
    parser.destroy();
    throw error;
  }
  if (!failed) parser.end();
  await finished;
  if (failed) throw new InputError("unreadable");
  return form;
}

function entriesToObject(entries: Iterable<[string, FormDataEntryValue]>): Record<string, string | string[]>;
function entriesToObject(entries: Iterable<[string, FormDataEntryValue]>): Record<string, unknown> {
  // No prototype: a field named __proto__ or constructor is just a field.
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const [key, value] of entries) {
    const seen = out[key];
    if (seen === undefined) out[key] = value;
    else if (Array.isArray(seen)) seen.push(value);
    else out[key] = [seen, value];
  }
  return out;
}
