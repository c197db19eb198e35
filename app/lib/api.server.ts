/**
 * Wraps a JSON API route's loader or action so an unexpected failure answers
 * `{"error": "Internal Server Error"}` with status 500 (DESIGN.md §5) instead of React Router's
 * plain-text page; responses a route throws on purpose (401, 403, 404, redirects) pass unchanged.
 */
export function withJsonErrors<A extends unknown[], R>(handler: (...args: A) => Promise<R>): (...args: A) => Promise<R | Response> {
  return async (...args: A) => {
    try {
      return await handler(...args);
    } catch (error) {
      if (error instanceof Response || isThrownData(error)) throw error;
      console.error(error);
      return Response.json({ error: "Internal Server Error" }, { status: 500 });
    }
  };
}

function isThrownData(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { type?: unknown }).type === "DataWithResponseInit";
}
