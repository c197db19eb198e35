import { translate, type Catalogue, type Locale, type Params } from "./i18n";

/**
 * The one application error (docs/decisions/009). A service throws it when a request breaks a
 * rule; `code` is stable and snake_case (clients and sockets may branch on it), `status` is the
 * HTTP status, and the message is the feature's catalogue text for `code`, filled with `params`.
 * JSON APIs answer it through `withJsonErrors` (lib/api.server.ts), pages through
 * `withPageErrors` and the route error boundary (components/ui/route-error.tsx).
 *
 * A feature declares its codes once and subclasses with its catalogue:
 *
 *   const CHAT_ERRORS = { not_found: [404, "errorNotFound"], … } as const satisfies ErrorTable<ChatMessageKey>;
 *   export class ChatError extends AppError<keyof typeof CHAT_ERRORS> {
 *     constructor(code: keyof typeof CHAT_ERRORS, params?: Params) { super(chatMessages, CHAT_ERRORS, code, params); }
 *   }
 */
export type ErrorTable<K extends string> = Record<string, readonly [status: number, messageKey: K]>;

export class AppError<C extends string = string> extends Error {
  override name = "AppError";
  readonly status: number;
  readonly #catalogue: Catalogue<string>;
  readonly #messageKey: string;

  constructor(
    catalogue: Catalogue<string>,
    table: Record<C, readonly [number, string]>,
    readonly code: C,
    readonly params: Params = {},
  ) {
    super(code);
    const [status, messageKey] = table[code];
    this.status = status;
    this.#catalogue = catalogue;
    this.#messageKey = messageKey;
  }

  /** The reader's message. A feature with composed messages (e.g. a list of row problems) overrides it. */
  text(locale: Locale): string {
    return translate(this.#catalogue, locale, this.#messageKey, this.params);
  }

  /** The reader's message for each form field at fault, when the error names fields. */
  fieldTexts(_locale: Locale): Record<string, string> | undefined {
    return undefined;
  }
}

/** What a failed request shows: the status, the stable code, the localised message and the fields at fault. */
export type ErrorAnswer = { status: number; code: string; message: string; fields?: Record<string, string> };

/** A refusal as a page or form receives it (route error data, a form action's answer). */
export type PageRefusal = { code: string; message: string; fields?: Record<string, string> };

export function describeAppError(error: AppError, locale: Locale): ErrorAnswer {
  const fields = error.fieldTexts(locale);
  return { status: error.status, code: error.code, message: error.text(locale), ...(fields && Object.keys(fields).length ? { fields } : {}) };
}
