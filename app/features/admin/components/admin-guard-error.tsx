import { isRouteErrorResponse, Link, useRouteError } from "react-router";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { adminMessages } from "#app/features/admin/messages.ts";

/**
 * Error boundary body of the admin pages: 401 ログインが必要です (with a log-in link back to
 * `returnTo`) and 403 管理者権限がありません, rendered by the server with that status; any other
 * error shows the site's route error.
 */
export function AdminGuardError({ returnTo }: { returnTo: string }) {
  const error = useRouteError();
  const t = useT(adminMessages);
  if (!isRouteErrorResponse(error) || (error.status !== 401 && error.status !== 403)) return <RouteError />;
  const loginRequired = error.status === 401;
  return (
    <section className="py-6 text-center">
      <h1 className="text-2xl font-bold">{loginRequired ? t("loginRequired") : t("forbidden")}</h1>
      <p className="mt-6">
        {loginRequired ? (
          <Link to={`/login?redirectTo=${encodeURIComponent(returnTo)}`} className="text-brand-700 underline">
            {t("loginLink")}
          </Link>
        ) : (
          <Link to="/" className="text-brand-700 underline">
            {t("backHome")}
          </Link>
        )}
      </p>
    </section>
  );
}
