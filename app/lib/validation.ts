import { AppError } from "./errors";
import { defineMessages, translate, type Catalogue, type Locale, type Params } from "./i18n";
import type { z } from "./zod";

/**
 * The one place a zod failure becomes messages. Every schema's issue message is a key of its
 * feature's catalogue (a docs/product-rules.md text); the first problem of each field is kept, with `{max}` /
 * `{min}` taken from the issue itself (or the field's own limit). zod's own messages (a wrong
 * type, a missing object) are not keys: they read as the catalogue's `fallback` text. Plain
 * TypeScript, so the editors use it for instant feedback too.
 */
export type FieldMessageOptions<K extends string> = {
  /** The catalogue key for an issue whose message is not one of the catalogue's keys. */
  fallback: K;
  /** Limits shown in a message's {max} when the issue does not carry one (a refine). */
  max?: Partial<Record<string, number>>;
  /** Limits shown in a message's {min} when the issue does not carry one (a length range's upper miss). */
  min?: Partial<Record<string, number>>;
  /** Fields the form does not show are left out (their problem still fails the input). */
  only?: readonly string[];
  /** The field an issue without a path belongs to (a check of the whole object). */
  root?: string;
};

type FieldIssue<K extends string> = { key: K; params: Params };

function fieldIssues<K extends string>(error: z.ZodError, catalogueKeys: Record<K, unknown>, options: FieldMessageOptions<K>): Record<string, FieldIssue<K>> {
  const fields: Record<string, FieldIssue<K>> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? options.root ?? "");
    if (!field || fields[field] !== undefined) continue;
    if (options.only && !options.only.includes(field)) continue;
    const key = (issue.message in catalogueKeys ? issue.message : options.fallback) as K;
    const carried = issue as { maximum?: unknown; minimum?: unknown };
    const params: Params = { max: options.max?.[field] ?? (typeof carried.maximum === "number" ? carried.maximum : 0) };
    const min = options.min?.[field] ?? carried.minimum;
    if (typeof min === "number") params.min = min;
    fields[field] = { key, params };
  }
  return fields;
}

/** The first problem of each field as its catalogue key, for a form that translates as it renders. */
export function fieldKeys<K extends string>(error: z.ZodError, catalogueKeys: Record<K, unknown>, options: FieldMessageOptions<K>): Record<string, K> {
  return Object.fromEntries(Object.entries(fieldIssues(error, catalogueKeys, options)).map(([field, { key }]) => [field, key]));
}

/** The first problem of each field, translated: `{ title: "タイトルを入力してください" }`. */
export function fieldMessages<K extends string>(error: z.ZodError, translateKey: (key: K, params: Params) => string, catalogueKeys: Record<K, unknown>, options: FieldMessageOptions<K>): Record<string, string> {
  return Object.fromEntries(Object.entries(fieldIssues(error, catalogueKeys, options)).map(([field, { key, params }]) => [field, translateKey(key, params)]));
}

const validationMessages = defineMessages({
  ja: { unreadable: "リクエストの形式が正しくありません" },
  en: { unreadable: "The request is not in the expected format" },
});

/**
 * Input that broke its schema: 400 `invalid_input`, with a message for each field at fault in the
 * reader's language (translated when answered, so a service can throw it without a locale). Its
 * message is the first field's, so a client that shows only `error` still says what is wrong.
 * Thrown by `parseInput` and the input reader (lib/input.server.ts); answered by the refusal writer.
 */
export class ValidationError extends AppError<string> {
  override name = "ValidationError";
  readonly #fields: Record<string, FieldIssue<string>>;
  readonly #catalogue: Catalogue<string>;
  readonly #fallback: string;

  /** `code`: `invalid_input`, or the code an API has always answered for it (the trade rules' `invalid_request`). */
  constructor(fields: Record<string, FieldIssue<string>>, catalogue: Catalogue<string>, fallback: string, code = "invalid_input") {
    super(catalogue, { [code]: [400, fallback] }, code);
    this.#fields = fields;
    this.#catalogue = catalogue;
    this.#fallback = fallback;
  }

  override text(locale: Locale): string {
    const first = Object.values(this.#fields)[0];
    return translate(this.#catalogue, locale, first?.key ?? this.#fallback, first?.params);
  }

  override fieldTexts(locale: Locale): Record<string, string> {
    return Object.fromEntries(Object.entries(this.#fields).map(([field, { key, params }]) => [field, translate(this.#catalogue, locale, key, params)]));
  }

  /** One field at fault, with its catalogue key. */
  static field<K extends string>(field: string, catalogue: Catalogue<K>, key: K): ValidationError {
    return new ValidationError({ [field]: { key, params: {} } }, catalogue as Catalogue<string>, key);
  }
}

export type ParseOptions<K extends string> = {
  /** The catalogue the schema's messages are keys of (default: a generic "not in the expected format"). */
  messages?: Catalogue<K>;
  /** The code of the ValidationError (default `invalid_input`). */
  code?: string;
} & Partial<FieldMessageOptions<K>>;

/** Checks `value` against `schema`: the parsed value, or a ValidationError naming each field. */
export function parseInput<S extends z.ZodType, K extends string = never>(value: unknown, schema: S, options: ParseOptions<K> = {}): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw validationError(parsed.error, options);
}

/** The ValidationError of a zod failure, for an action that looks at the failure before refusing. */
export function validationError<K extends string = never>(error: z.ZodError, options: ParseOptions<K> = {}): ValidationError {
  const catalogue = (options.messages ?? validationMessages) as Catalogue<string>;
  const fallback = options.fallback ?? "unreadable";
  return new ValidationError(fieldIssues(error, catalogue.ja, { ...options, fallback, root: options.root ?? "form" }), catalogue, fallback, options.code);
}
