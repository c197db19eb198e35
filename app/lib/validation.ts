import { AppError } from "./errors";
import { defineMessages, translate, type Catalogue, type Locale, type Params } from "./i18n";
import type { z } from "./zod";

/**
 * The one place a zod failure becomes messages. Every schema's issue message is a key of its
 * feature's catalogue (a SPEC.md text); `fieldMessages` keeps the first problem of each field and
 * translates it, filling `{max}` / `{min}` from the issue itself (or the field's own limit). zod's
 * own messages (a wrong type, a missing object) are not keys: they read as the catalogue's
 * `fallback` text. Plain TypeScript, so the editors use it for instant feedback too.
 */
export type FieldMessageOptions<K extends string> = {
  /** The catalogue key for an issue whose message is not one of the catalogue's keys. */
  fallback: K;
  /** Limits shown in a message's {max} when the issue does not carry one (a refine). */
  max?: Partial<Record<string, number>>;
  /** Fields the form does not show are left out (their problem still fails the input). */
  only?: readonly string[];
  /** The field an issue without a path belongs to (a check of the whole object). */
  root?: string;
};

export function fieldMessages<K extends string>(error: z.ZodError, translateKey: (key: K, params: Params) => string, catalogueKeys: Record<K, unknown>, options: FieldMessageOptions<K>): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const field = String(issue.path[0] ?? options.root ?? "");
    if (!field || fields[field] !== undefined) continue;
    if (options.only && !options.only.includes(field)) continue;
    const key = (issue.message in catalogueKeys ? issue.message : options.fallback) as K;
    const carried = issue as { maximum?: unknown; minimum?: unknown };
    const params: Params = { max: options.max?.[field] ?? (typeof carried.maximum === "number" ? carried.maximum : 0) };
    if (typeof carried.minimum === "number") params.min = carried.minimum;
    fields[field] = translateKey(key, params);
  }
  return fields;
}

const validationMessages = defineMessages({
  ja: { invalid: "入力内容を確認してください" },
  en: { invalid: "Please check what you entered" },
});

/**
 * Input that broke its schema: 400 `invalid_input`, with the reader's message for each field at
 * fault. Its message is the first field's, so a client that shows only `error` still says what
 * is wrong. Thrown by the input reader (lib/input.server.ts); answered by the refusal writer.
 */
export class ValidationError extends AppError<string> {
  override name = "ValidationError";

  /** `code`: `invalid_input`, or the code an API has always answered for it (the trade rules' `invalid_request`). */
  constructor(
    readonly fields: Record<string, string>,
    readonly fallbackMessage?: string,
    code = "invalid_input",
  ) {
    super(validationMessages, { [code]: [400, "invalid"] }, code);
  }

  override text(locale: Locale): string {
    return Object.values(this.fields)[0] ?? this.fallbackMessage ?? super.text(locale);
  }

  override fieldTexts(): Record<string, string> {
    return this.fields;
  }

  /** A zod failure of a schema whose messages are keys of `catalogue`, in the reader's language. */
  static fromZod<K extends string>(error: z.ZodError, catalogue: Catalogue<K>, locale: Locale, options: FieldMessageOptions<K> & { code?: string }): ValidationError {
    const translateKey = (key: K, params: Params) => translate(catalogue, locale, key, params);
    return new ValidationError(fieldMessages(error, translateKey, catalogue.ja, { ...options, root: options.root ?? "form" }), translateKey(options.fallback, {}), options.code);
  }
}
