import { useEffect, useRef } from "react";
import { useLocation } from "react-router";

/**
 * The first-party page script (docs/decisions/020): one page view per navigation, client-side ones
 * included, and the time the page was visible when it is hidden or left. Nothing is stored on
 * the device; a browser that sends Global Privacy Control or Do Not Track sends nothing.
 */
const ENDPOINT = "/api/event";

type Hit = { t: "pv" | "en"; u: string; r?: string; w?: number; e?: number; d?: boolean };

function send(hit: Hit) {
  // keepalive: the request outlives the page, so the last engagement of a visit still arrives.
  fetch(ENDPOINT, { method: "POST", body: JSON.stringify(hit), keepalive: true, credentials: "same-origin" }).catch(() => {});
}

function optedOut() {
  const nav = navigator as Navigator & { globalPrivacyControl?: boolean };
  return nav.globalPrivacyControl === true || nav.doNotTrack === "1";
}

export function PageTracker() {
  const { pathname, search } = useLocation();
  const current = useRef<{ u: string; since: number | null; ms: number } | null>(null);
  const firstView = useRef(true);

  useEffect(() => {
    if (optedOut()) return;
    const report = () => {
      const page = current.current;
      if (!page) return;
      if (page.since !== null) page.ms += performance.now() - page.since;
      page.since = document.visibilityState === "visible" ? performance.now() : null;
      if (page.ms >= 1000) send({ t: "en", u: page.u, e: Math.round(page.ms) });
      page.ms = 0;
    };
    const onVisibility = () => {
      const page = current.current;
      if (document.visibilityState === "hidden") report();
      else if (page) page.since = performance.now();
    };
    document.addEventListener("visibilitychange", onVisibility);
    window.addEventListener("pagehide", report);
    return () => {
      document.removeEventListener("visibilitychange", onVisibility);
      window.removeEventListener("pagehide", report);
    };
  }, []);

  useEffect(() => {
    if (optedOut()) return;
    const previous = current.current;
    if (previous) {
      if (previous.since !== null) previous.ms += performance.now() - previous.since;
      if (previous.ms >= 1000) send({ t: "en", u: previous.u, e: Math.round(previous.ms) });
    }
    const u = pathname + search;
    send({ t: "pv", u, r: firstView.current ? document.referrer || undefined : undefined, w: screen.width, d: navigator.webdriver || undefined });
    firstView.current = false;
    current.current = { u, since: document.visibilityState === "visible" ? performance.now() : null, ms: 0 };
  }, [pathname, search]);

  return null;
}
