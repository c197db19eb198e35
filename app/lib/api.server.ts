import { data } from "react-router";
import { AppError, describeAppError, type ErrorAnswer, type PageRefusal } from "./errors";
import { InputError } from "./input.server";
import type { AppContext } from "./context";
import { defineMessages, localeFromCookie, type Locale } from "./i18n";
import { errorFields, requestLog } from "./logger.server";

/**
 * The one refusal writer (docs/architecture.md "Input at the edge"). An AppError — a service's
 * rule, the input reader's ValidationError or InputError, the guards' refusals — becomes:
 *
 * - JSON: `{"error": message, "code": code, "fields"?: {field: message}}` with its status
 *   (`errorResponse`, `withJsonErrors`);
 * - page error data: `{code, message, fields?}` with its status (`pageError`, `withPageErrors`),
 *   shown by the route's error boundary or the form (`formError`);
 * - a socket ack: `{ok: false, code, message}` (`socketRefusal`).
 *
 * Routes never build error JSON themselves: they throw an AppError (or return `errorResponse`).
 */

const httpMessages = defineMessages({
  ja: {
    methodNotAllowed: "このURLではその操作はできません",
    notFound: "見つかりません",
    internal: "サーバーでエラーが発生しました。時間をおいてもう一度お試しください。",
  },
  en: {
    methodNotAllowed: "This URL does not take that method",
    notFound: "Not found",
    internal: "Something went wrong on the server. Please try again later.",
  },
});

const HTTP_ERRORS = {
  method_not_allowed: [405, "methodNotAllowed"],
  not_found: [404, "notFound"],
  internal: [500, "internal"],
} as const;

/** Refusals that belong to HTTP itself rather than to a feature. */
export class HttpError extends AppError<keyof typeof HTTP_ERRORS> {
  override name = "HttpError";
  constructor(
    code: keyof typeof HTTP_ERRORS,
    readonly headers: Record<string, string> = {},
  ) {
    super(httpMessages, HTTP_ERRORS, code);
  }
}

/** 405 naming the methods the route takes. */
export function methodNotAllowed(allow: string): HttpError {
  return new HttpError("method_not_allowed", { Allow: allow });
}

/** The JSON body of a refusal: `{"error", "code", "fields"?}`. */
export function refusalBody({ code, message, fields }: ErrorAnswer): { error: string; code: string; fields?: Record<string, string> } {
  return { error: message, code, ...(fields ? { fields } : {}) };
}

/** The one JSON answer of an AppError, with its status (or `status`). */
export function errorResponse(error: AppError, locale: Locale, status = error.status): Response {
  const headers: Record<string, string> = { "Cache-Control": "no-store", ...(error instanceof HttpError ? error.headers : {}) };
  // A body past its limit, or one the reader stopped in (a broken multipart part, a client gone),
  // is left unread: close the connection rather than drain it.
  if (status === 413 || (error instanceof InputError && error.code === "unreadable")) headers.Connection = "close";
  return Response.json(refusalBody(describeAppError(error, locale)), { status, headers });
}

/**
 * Wraps a JSON API route's loader or action: an AppError becomes its JSON answer in the caller's
 * language, an unexpected failure answers 500 `internal` instead of React Router's plain-text page;
 * responses a route throws on purpose (redirects) pass unchanged.
 */
export function withJsonErrors<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R | Response> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof Response || isThrownData(error)) throw error;
      if (error instanceof AppError) return errorResponse(error, localeOf(args));
      requestLog(contextOf(args)).error("unhandled error", errorFields(error));
      return errorResponse(new HttpError("internal"), localeOf(args));
    }
  };
}

/**
 * Wraps a page's loader or action: an AppError is thrown on as route error data
 * `{ code, message, fields? }` with its status, which the route's error boundary shows
 * (components/ui/route-error.tsx). Anything else passes unchanged.
 */
export function withPageErrors<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof AppError) throw pageError(error, localeOf(args));
      throw error;
    }
  };
}

/** The route error data of an AppError, for a page that catches it itself. */
export function pageError(error: AppError, locale: Locale) {
  const { status, code, message, fields } = describeAppError(error, locale);
  return data({ code, message, ...(fields ? { fields } : {}) }, { status });
}

/** A socket event's refusal: the ack `{ok: false, code, message}`. */
export function socketRefusal(error: AppError, locale: Locale): { ok: false; code: string; message: string } {
  const { code, message } = describeAppError(error, locale);
  return { ok: false, code, message };
}

/** Loaders and actions get `{ request }` first; the answer speaks the caller's language. */
function localeOf(args: unknown[]): Locale {
  const request = (args[0] as { request?: unknown } | undefined)?.request;
  return localeFromCookie(request instanceof Request ? request.headers.get("cookie") : null);
}

function contextOf(args: unknown[]): AppContext | undefined {
  return (args[0] as { context?: AppContext } | undefined)?.context;
}

function isThrownData(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}

/**
 * A form action's answer for an AppError: the page shape `{ code, message, fields?, …extra }` with
 * its status, shown at the form (lib/form-refusal.ts). Anything else is rethrown (to the error
 * boundary, or as the response it is).
 */
export function formError<E extends Record<string, unknown> = Record<never, never>>(error: unknown, locale: Locale, extra?: E) {
  if (!(error instanceof AppError)) throw error;
  return formRefusal(describeAppError(error, locale), extra);
}

/**
 * A form action's answer for a refusal that did not start as an AppError (a message the auth
 * library wrote): the same page shape and status as `formError`.
 */
export function formRefusal<E extends Record<string, unknown> = Record<never, never>>({ status, code, message, fields }: ErrorAnswer, extra?: E) {
  const refusal: PageRefusal = { code, message, ...(fields && Object.keys(fields).length ? { fields } : {}) };
  return data({ ...(extra as E), ...refusal }, { status });
}

/**
 * A JSON endpoint: a GET API as one function of the request and the load context. Its route
 * module exports `endpointLoader(endpoint)`; server/json-api.ts answers the hottest ones straight
 * from Express with `answerEndpoint` — the same function and the same error mapping either way.
 */
export type JsonEndpoint = (request: Request, context: AppContext) => Promise<Response>;

export function endpointLoader(endpoint: JsonEndpoint) {
  return withJsonErrors(({ request, context }: { request: Request; context: AppContext }) => endpoint(request, context));
}

/** The endpoint's answer outside React Router: a thrown Response (401, 403) is the answer. */
export async function answerEndpoint(endpoint: JsonEndpoint, request: Request, context: AppContext): Promise<Response> {
  try {
    return await endpointLoader(endpoint)({ request, context });
  } catch (thrown) {
    if (thrown instanceof Response) return thrown;
    throw thrown;
  }
}
