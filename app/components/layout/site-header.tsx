import { useEffect, useRef, useState, type ComponentType } from "react";
import { Form, Link, NavLink, useLocation, useSubmit } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { LanguageSwitch } from "./language-switch";
import { MenuNotificationCount, NotificationBell } from "#app/features/notifications/components/notification-bell.tsx";
import { layoutMessages } from "./messages";

export type HeaderViewer = { displayName: string; isAdmin: boolean } | null;

const linkClass = ({ isActive }: { isActive: boolean }) =>
  `block whitespace-nowrap rounded px-2 py-2 hover:bg-brand-50 hover:text-brand-800 md:px-1.5 md:py-1 ${isActive ? "font-bold text-brand-800" : ""}`;

/**
 * docs/product-rules.md §1 header: the title links home, sticky; on small screens the menu folds behind a
 * toggle (aria-expanded/controls, Escape closes and returns focus) and closes when a link is chosen.
 */
export function SiteHeader({ viewer, videoChannelUrl }: { viewer: HeaderViewer; videoChannelUrl: string }) {
  const t = useT(layoutMessages);
  const [open, setOpen] = useState(false);
  const location = useLocation();
  const toggleRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  // Any navigation (a link, log-out, the language switch) closes the menu.
  useEffect(() => {
    setOpen(false);
  }, [location.key]);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>("a, button")?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") {
        setOpen(false);
        toggleRef.current?.focus();
      }
    };
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, [open]);

  const close = () => setOpen(false);
  const submit = useSubmit();

  return (
    <header className="sticky top-0 z-30 border-b border-slate-200 bg-white/95 backdrop-blur">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        {t("skipToContent")}
      </a>
      <div className="mx-auto flex max-w-5xl items-center justify-between gap-4 px-4 py-3">
        <Link to="/" className="shrink-0 whitespace-nowrap text-xl font-bold text-brand-700" onClick={close}>
          {t("siteTitle")}
        </Link>
        {viewer ? (
          <div className="ml-auto md:order-last md:ml-0">
            <NotificationBell onNavigate={close} />
          </div>
        ) : null}
        <button
          ref={toggleRef}
          type="button"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm font-bold md:hidden"
          aria-expanded={open}
          aria-controls="site-menu"
          aria-label={open ? t("menuClose") : t("menuOpen")}
          onClick={() => setOpen((v) => !v)}
        >
          <span aria-hidden="true">{open ? "✕" : "☰"}</span> {t("menu")}
        </button>
        {viewer ? <MenuNotificationCount /> : null}
        <div
          id="site-menu"
          ref={menuRef}
          className={`${open ? "block" : "hidden"} absolute inset-x-0 top-full border-b border-slate-200 bg-white px-4 pb-4 shadow-lg md:static md:block md:border-0 md:bg-transparent md:p-0 md:shadow-none`}
        >
          <nav aria-label={t("mainMenu")}>
            <ul className="flex flex-col gap-1 text-base md:flex-row md:flex-wrap md:items-center md:gap-x-1 md:text-sm">
              <li><NavLink to="/cards" className={linkClass} onClick={close}>{t("cards")}</NavLink></li>
              <li><NavLink to="/articles" className={linkClass} onClick={close}>{t("articles")}</NavLink></li>
              <li><NavLink to="/deck-recipes" className={linkClass} onClick={close}>{t("deckRecipes")}</NavLink></li>
              <li><NavLink to="/trades" className={linkClass} onClick={close}>{t("trades")}</NavLink></li>
              <li><NavLink to="/friends" className={linkClass} onClick={close}>{t("friends")}</NavLink></li>
              <li>
                <a href={videoChannelUrl} target="_blank" rel="noopener noreferrer" className={linkClass({ isActive: false })} onClick={close}>
                  {t("videoChannel")}
                  <span className="sr-only">{t("newTab")}</span>
                  <span aria-hidden="true"> ↗</span>
                </a>
              </li>
              {viewer ? (
                <>
                  <li><NavLink to="/collection" className={linkClass} onClick={close}>{t("collection")}</NavLink></li>
                  <li>
                    {/* The unread-chat badge sits inside this link. */}
                    <NavLink to="/profile" className={linkClass} onClick={close}>{t("profile")}<LazyUnreadBadge /></NavLink>
                  </li>
                  {viewer.isAdmin ? (
                    <li><NavLink to="/admin" className={linkClass} onClick={close}>{t("admin")}</NavLink></li>
                  ) : null}
                  <li>
                    <Form
                      method="post"
                      action="/logout"
                      onSubmit={(event) => {
                        // Each feature's own log-out side effects (features/*/log-out.ts), before the
                        // session ends; the page stays while they run.
                        event.preventDefault();
                        const form = event.currentTarget;
                        close();
                        void runLogOutEffects().finally(() => void submit(form));
                      }}
                    >
                      <button type="submit" className="block w-full whitespace-nowrap rounded px-2 py-2 text-left hover:bg-brand-50 hover:text-brand-800 md:px-1.5 md:py-1">
                        {t("logout")}
                      </button>
                    </Form>
                  </li>
                </>
              ) : (
                <li><NavLink to="/login" className={linkClass} onClick={close}>{t("login")}</NavLink></li>
              )}
              <li className="pt-2 md:pl-1 md:pt-0">
                <LanguageSwitch onChoose={close} />
              </li>
            </ul>
          </nav>
        </div>
      </div>
    </header>
  );
}

/**
 * The unread badge brings the Socket.IO client (about 16 KB gzip): it is fetched only once a
 * signed-in page has hydrated, so anonymous pages never download it. The server renders nothing
 * here either way (the count is per user and never part of a page).
 */
function LazyUnreadBadge() {
  const [Badge, setBadge] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    void import("#app/features/chat/components/unread-badge.tsx").then((m) => {
      if (live) setBadge(() => m.UnreadBadge);
    });
    return () => {
      live = false;
    };
  }, []);
  return Badge ? <Badge /> : null;
}

/**
 * What features do when a player logs out, each in its own module (public: `log-out.ts`). Loaded
 * on demand: anonymous pages never need them. A failing one does not stop the log-out.
 */
const LOG_OUT_EFFECTS = [() => import("#app/features/chat/log-out.ts"), () => import("#app/features/push/log-out.ts"), () => import("#app/features/collection/log-out.ts")];

function runLogOutEffects(): Promise<unknown> {
  return Promise.allSettled(LOG_OUT_EFFECTS.map((load) => load().then((feature) => feature.onLogOut())));
}
