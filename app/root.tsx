import type { ReactNode } from "react";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
  useRouteLoaderData,
} from "react-router";
import type { Route } from "./+types/root";
import "./app.css";
import { LocaleContext, localeFromRequest, type Locale } from "./lib/i18n";
import { useNonce } from "./lib/nonce";

export async function loader({ request }: Route.LoaderArgs) {
  return { locale: localeFromRequest(request) };
}

export const SITE_TITLE = "トレポケ";

export function Layout({ children }: { children: ReactNode }) {
  const nonce = useNonce();
  const locale: Locale = useRouteLoaderData<typeof loader>("root")?.locale ?? "ja";
  return (
    <html lang={locale}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#ea580c" />
        <Meta />
        <Links />
      </head>
      <body className="min-h-screen flex flex-col">
        <LocaleContext.Provider value={locale}>{children}</LocaleContext.Provider>
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

function Header() {
  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="text-xl font-bold text-brand-700">
          {SITE_TITLE}
        </Link>
        <nav aria-label="メインメニュー">
          <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm">
            <li><Link to="/cards" className="hover:underline">カードデータベース</Link></li>
            <li><Link to="/articles" className="hover:underline">記事</Link></li>
            <li><Link to="/deck-recipes" className="hover:underline">デッキレシピ</Link></li>
            <li><Link to="/trades" className="hover:underline">トレード</Link></li>
            <li><Link to="/login" className="hover:underline">ログイン</Link></li>
          </ul>
        </nav>
      </div>
    </header>
  );
}

function Footer() {
  return (
    <footer className="mt-12 border-t border-slate-200 bg-white">
      <div className="mx-auto flex max-w-5xl flex-col gap-2 px-4 py-6 text-sm text-slate-600">
        <nav aria-label="フッターメニュー">
          <ul className="flex gap-4">
            <li><Link to="/" className="hover:underline">HOME</Link></li>
            <li><Link to="/privacy-policy" className="hover:underline">プライバシーポリシー</Link></li>
            <li><Link to="/terms" className="hover:underline">利用規約</Link></li>
          </ul>
        </nav>
        <p>© {new Date().getFullYear()} {SITE_TITLE}</p>
      </div>
    </footer>
  );
}

export default function App() {
  return (
    <>
      <Header />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-6">
        <Outlet />
      </main>
      <Footer />
    </>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  let title = "エラーが発生しました";
  let message = "時間をおいてもう一度お試しください。";
  if (isRouteErrorResponse(error) && error.status === 404) {
    title = "ページが見つかりません";
    message = "お探しのページは移動または削除された可能性があります。";
  } else if (isRouteErrorResponse(error) && error.status === 403) {
    title = "アクセスできません";
    message = "このページを表示する権限がありません。";
  }
  return (
    <>
      <title>{`${title} | ${SITE_TITLE}`}</title>
      <Header />
      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-4 py-12 text-center">
        <h1 className="text-2xl font-bold">{title}</h1>
        <p className="mt-4 text-slate-600">{message}</p>
        <p className="mt-6">
          <Link to="/" className="text-brand-700 underline">トップページへ戻る</Link>
        </p>
      </main>
      <Footer />
    </>
  );
}
