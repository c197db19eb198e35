import { data } from "react-router";
import { AppError, describeAppError } from "./errors";
import type { AppContext } from "./context";
import { localeFromCookie, type Locale } from "./i18n";
import { errorFields, requestLog } from "./logger.server";

/** The one JSON answer of an AppError: `{"error": message, "code": code}` with its status (DESIGN.md §5). */
export function errorResponse(error: AppError, locale: Locale, status = error.status): Response {
  const { code, message } = describeAppError(error, locale);
  return Response.json({ error: message, code }, { status });
}

/**
 * Wraps a JSON API route's loader or action: an AppError becomes its JSON answer in the caller's
 * language, an unexpected failure answers `{"error": "Internal Server Error"}` with status 500
 * instead of React Router's plain-text page; responses a route throws on purpose (401, 403, 404,
 * redirects) pass unchanged.
 */
export function withJsonErrors<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R | Response> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof Response || isThrownData(error)) throw error;
      if (error instanceof AppError) return errorResponse(error, localeOf(args));
      requestLog(contextOf(args)).error("unhandled error", errorFields(error));
      return Response.json({ error: "Internal Server Error" }, { status: 500 });
    }
  };
}

/**
 * Wraps a page's loader or action: an AppError is thrown on as route error data
 * `{ code, message }` with its status, which the route's error boundary shows
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
  const { status, code, message } = describeAppError(error, locale);
  return data({ code, message }, { status });
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
 * A form action's answer for an AppError: `{ error: message, code, …extra }` with its status, shown
 * at the form. Anything else is rethrown (to the error boundary, or as the response it is).
 */
export function formError<E extends Record<string, unknown> = Record<never, never>>(error: unknown, locale: Locale, extra?: E) {
  if (!(error instanceof AppError)) throw error;
  const { status, code, message } = describeAppError(error, locale);
  return data({ ...(extra as E), error: message, code }, { status });
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
