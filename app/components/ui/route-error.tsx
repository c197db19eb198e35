import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { layoutMessages } from "#app/components/layout/messages.ts";

type Translate = ReturnType<typeof useT<keyof (typeof layoutMessages)["ja"]>>;

/**
 * The one mapping from a route error to what the page says (docs/decisions/009). A loader or
 * action that throws an AppError through `withPageErrors` arrives here as route error data
 * `{ code, message }` with its status, the message already in the reader's language. A 404 keeps
 * the site's "page not found" wording; other statuses show the service's message when it has one;
 * anything unexpected shows the general text, never a stack trace.
 */
export function routeErrorText(error: unknown, t: Translate): { title: string; message: string } {
  if (!isRouteErrorResponse(error)) return { title: t("errorTitle"), message: t("errorMessage") };
  const detail = (error.data as { message?: unknown } | null)?.message;
  const given = typeof detail === "string" && detail ? detail : null;
  switch (error.status) {
    case 404:
      return { title: t("notFoundTitle"), message: t("notFoundMessage") };
    case 400:
      return { title: t("badRequestTitle"), message: given ?? t("badRequestMessage") };
    case 401:
    case 403:
      return { title: t("forbiddenTitle"), message: given ?? t("forbiddenMessage") };
    default:
      return { title: t("errorTitle"), message: error.status < 500 && given ? given : t("errorMessage") };
  }
}

/** A route's error boundary body: heading, message and the way home; the site shell stays around it. */
export function RouteError() {
  const error = useRouteError();
  const t = useT(layoutMessages);
  const { title, message } = routeErrorText(error, t);
  return (
    <>
      <title>{`${title} | ${t("siteTitle")}`}</title>
      <meta name="description" content={message} />
      {/* An error page is never a search result. */}
      <meta name="robots" content="noindex" />
      <div className="py-6 text-center">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mt-4 text-slate-600">{message}</p>
        <p className="mt-6">
          <Link to="/" className="text-brand-700 underline">
            {t("backHome")}
          </Link>
        </p>
      </div>
    </>
  );
}
