import { useCallback, type MouseEvent, type ReactNode } from "react";
import { createPath, useLocation, useNavigate } from "react-router";

export type CardLinkClick = (event: MouseEvent<HTMLAnchorElement>) => void;

/**
 * For a grid of many cards: what React Router's <Link> does on a click — a plain left click (no
 * modifier key) navigates in the app, replacing the entry when it leads where the reader already
 * is; any other click is the browser's — with the router's hooks called once for the grid instead
 * of once per card (a <Link> resolves its path and reads the router's state on every render).
 * Only for links within the app, to a path that starts with "/".
 */
export function useCardLinkClick(): CardLinkClick {
  const navigate = useNavigate();
  const location = useLocation();
  const here = createPath(location);
  return useCallback(
    (event) => {
      if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
      const href = event.currentTarget.getAttribute("href");
      if (!href) return;
      event.preventDefault();
      void navigate(href, { replace: href === here });
    },
    [navigate, here],
  );
}

/** A card's link in a grid: the markup of a <Link> to the same path (route discovery included), clicked through useCardLinkClick. */
export function CardLink({ href, onClick, className, children }: { href: string; onClick: CardLinkClick; className?: string; children: ReactNode }) {
  return (
    <a className={className} href={href} onClick={onClick} data-discover="true">
      {children}
    </a>
  );
}
