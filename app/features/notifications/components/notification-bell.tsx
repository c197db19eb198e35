import { useEffect, useState, type ComponentType } from "react";
import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { bellMessages } from "./bell-messages";

type CountModule = typeof import("./notification-count");

/**
 * The live count brings the Socket.IO client: it is fetched once a signed-in page has hydrated,
 * like the chat badge, so anonymous pages never download it and the server renders no number.
 */
function useLazyCount(pick: (m: CountModule) => ComponentType): ComponentType | null {
  const [Count, setCount] = useState<ComponentType | null>(null);
  useEffect(() => {
    let live = true;
    void import("./notification-count").then((m) => {
      if (live) setCount(() => pick(m));
    });
    return () => {
      live = false;
    };
    // `pick` is a constant selector at each call site.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return Count;
}

/** The header's bell: at every width, outside the folding menu; its badge is the unread count. */
export function NotificationBell({ onNavigate }: { onNavigate?: () => void }) {
  const t = useT(bellMessages);
  const Count = useLazyCount((m) => m.BellCount);
  return (
    <Link
      to="/notifications"
      className="relative inline-flex h-10 w-10 items-center justify-center rounded-full text-slate-700 hover:bg-brand-50 hover:text-brand-800"
      onClick={onNavigate}
      data-testid="notification-bell"
    >
      <svg aria-hidden="true" viewBox="0 0 24 24" width="24" height="24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">
        <path d="M6 8a6 6 0 0 1 12 0c0 7 3 9 3 9H3s3-2 3-9" />
        <path d="M10.3 21a1.94 1.94 0 0 0 3.4 0" />
      </svg>
      <span className="sr-only">{t("bellLabel")}</span>
      {Count ? <Count /> : null}
    </Link>
  );
}

/** The count on the phone's menu button. */
export function MenuNotificationCount() {
  const Count = useLazyCount((m) => m.MenuCount);
  return Count ? <Count /> : null;
}
