import type { ReactNode } from "react";
import {
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useLocation,
  useNavigation,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { layoutMessages } from "#app/components/layout/messages.ts";
import { SiteFooter } from "#app/components/layout/site-footer.tsx";
import { SiteHeader, type HeaderViewer } from "#app/components/layout/site-header.tsx";
import { ListLinkNavigation } from "#app/components/ui/list-link.tsx";
import { CardImageBaseUrlContext } from "#app/features/cards/components/card-image-base-url.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { getSiteSettings } from "#app/features/settings/settings.server.ts";
import { getViewer } from "#app/features/users/session.server.ts";
import { PageTracker } from "#app/features/analytics/components/page-tracker.tsx";
import { bodyLanguageMarker, LocaleContext, localeFromRequest, useT, type Locale } from "#app/lib/i18n.tsx";
import { useNonce } from "#app/lib/nonce.tsx";
import type { SiteHead } from "#app/lib/seo.ts";

/**
 * Every page: the chosen language, who is signed in (what the header needs, nothing more), the
 * video-channel link from configuration, the year for the footer (server time, so the
 * hydrated page shows the same text) and what every page's head needs: the site's origin and the
 * admin's site settings (lib/seo.ts).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const [viewer, settings] = await Promise.all([getViewer(request, context), getSiteSettings(context.db)]);
  const site: SiteHead = { url: context.env.siteUrl, settings };
  return {
    site,
    locale: localeFromRequest(request),
    viewer: viewer ? { displayName: viewer.displayName, isAdmin: viewer.isAdmin, suspended: viewer.suspended } : null,
    videoChannelUrl: context.env.videoChannelUrl,
    cardImageBaseUrl: context.env.cardImageBaseUrl,
    year: new Date().getFullYear(),
  };
}

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const root = useRouteLoaderData<typeof loader>("root");
  const locale: Locale = root?.locale ?? "ja";
  const marker = bodyLanguageMarker(locale);
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#ea580c" />
        <link rel="manifest" href="/manifest.webmanifest" />
        <link rel="apple-touch-icon" href="/icons/apple-touch-icon.png" />
        <Meta />
        <Links />
      </head>
      <body className={`min-h-screen flex flex-col${marker.className ? ` ${marker.className}` : ""}`} data-translated={marker["data-translated"]}>
        <LocaleContext.Provider value={locale}>
          <CardImageBaseUrlContext.Provider value={root?.cardImageBaseUrl ?? null}>{children}</CardImageBaseUrlContext.Provider>
        </LocaleContext.Provider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const root = useRouteLoaderData<typeof loader>("root");
  const location = useLocation();
  const t = useT(layoutMessages);
  const viewer: HeaderViewer = root?.viewer ?? null;
  // docs/product-rules.md §1: the footer is hidden on admin paths.
  const isAdminPath = location.pathname === "/admin" || location.pathname.startsWith("/admin/");
  // docs/product-rules.md §2: Loading... while the next page (its code, its data, who is signed in) is not known
  // yet. A server-rendered page is known at once, so this shows only on client navigations.
  const loading = useNavigation().state === "loading";
  return (
    <>
      {loading ? (
        <p role="status" className="fixed left-1/2 top-2 z-50 -translate-x-1/2 rounded-full bg-slate-800 px-4 py-1 text-sm font-bold text-white shadow">
          {t("loading")}
        </p>
      ) : null}
      <SiteHeader viewer={viewer} videoChannelUrl={root?.videoChannelUrl ?? "https://www.youtube.com/"} />
      {root?.viewer?.suspended ? (
        <p role="status" className="bg-red-700 px-4 py-2 text-center text-sm font-medium text-white">
          {t("suspendedBanner")}
        </p>
      ) : null}
      <main id="main" tabIndex={-1} className="mx-auto w-full max-w-5xl flex-1 px-4 py-6 focus:outline-none">
        <ListLinkNavigation>{children}</ListLinkNavigation>
      </main>
      {isAdminPath ? null : <SiteFooter year={root?.year ?? new Date().getFullYear()} />}
    </>
  );
}

export default function App() {
  return (
    <Shell>
      <Outlet />
      <PageTracker />
    </Shell>
  );
}

export function ErrorBoundary() {
  return (
    <Shell>
      <RouteError />
    </Shell>
  );
}
