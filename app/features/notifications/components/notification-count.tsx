import { useEffect, useState } from "react";
import { useLocation } from "react-router";
import { subscribeUnreadChanges } from "#app/features/chat/components/chat-unread-events.ts";
import { useT } from "#app/lib/i18n.tsx";
import { bellMessages } from "./bell-messages";

/**
 * The signed-in user's unread notification count, kept live in the browser: read from
 * /api/notifications/count on load, on every navigation and whenever the chat socket says the
 * user's chat moved (a message or step from a partner, a room read in any tab); set from the
 * socket's `notice:unread` when a notification of any kind is written. One request at a time; a
 * change during a request asks once more afterwards.
 */
let count = 0;
const listeners = new Set<(n: number) => void>();
let unsubscribe: (() => void) | null = null;
let inFlight = false;
let again = false;

function show(unread: number): void {
  if (unread === count) return;
  count = unread;
  for (const listener of listeners) listener(count);
}

async function refresh(): Promise<void> {
  if (inFlight) {
    again = true;
    return;
  }
  inFlight = true;
  try {
    const res = await fetch("/api/notifications/count", { headers: { accept: "application/json" }, credentials: "same-origin" });
    if (res.ok) {
      const body = (await res.json()) as { unread?: unknown };
      if (typeof body.unread === "number") show(body.unread);
    }
  } catch {
    // Offline for a moment: the next event or navigation asks again.
  } finally {
    inFlight = false;
    if (again) {
      again = false;
      void refresh();
    }
  }
}

function useUnreadNotifications(): number {
  const [n, setN] = useState(count);
  const location = useLocation();
  useEffect(() => {
    listeners.add(setN);
    if (!unsubscribe) unsubscribe = subscribeUnreadChanges((update) => {
      // A request under way may answer the count from before this notice: ask again after it.
      if (update && !inFlight) show(update.unread);
      else void refresh();
    });
    setN(count);
    return () => {
      listeners.delete(setN);
      if (listeners.size === 0 && unsubscribe) {
        unsubscribe();
        unsubscribe = null;
      }
    };
  }, []);
  // A page may have read notifications (opening a room, 既読にする): ask again after each navigation.
  useEffect(() => {
    void refresh();
  }, [location.key]);
  return n;
}

const shown = (n: number) => (n > 99 ? "99+" : String(n));
const TITLE_COUNT = /^\(\d+\+?\) /;

/** The count on the bell, read out with it; also keeps `(3) トレポケ` in the document title. */
export function BellCount() {
  const t = useT(bellMessages);
  const n = useUnreadNotifications();
  const location = useLocation();
  useEffect(() => {
    const base = document.title.replace(TITLE_COUNT, "");
    document.title = n > 0 ? `(${shown(n)}) ${base}` : base;
  }, [n, location.key]);
  if (n <= 0) return null;
  return (
    <span
      className="absolute -right-1.5 -top-1 inline-flex min-w-[1.25rem] items-center justify-center rounded-full bg-red-700 px-1 text-xs font-bold leading-5 text-white"
      data-testid="notification-count"
    >
      <span aria-hidden="true">{shown(n)}</span>
      <span className="sr-only">{t("menuUnread", { count: n })}</span>
    </span>
  );
}

/**
 * The same count on the corner of the phone's menu button. A sibling drawn over the button, not
 * inside it: the button's name stays メニューを開く, and the bell says the count to screen readers.
 */
export function MenuCount() {
  const n = useUnreadNotifications();
  if (n <= 0) return null;
  return (
    <span
      className="pointer-events-none relative z-10 -mb-6 -ml-7 -mt-8 inline-flex min-w-[1.25rem] items-center justify-center rounded-full bg-red-700 px-1 text-xs font-bold leading-5 text-white md:hidden"
      aria-hidden="true"
      data-testid="menu-notification-count"
    >
      {shown(n)}
    </span>
  );
}
