import { createContext, useContext, type MouseEvent, type ReactNode } from "react";
import { useNavigate, type NavigateFunction } from "react-router";

const NavigateContext = createContext<NavigateFunction | null>(null);

/** Hands one navigate function to every ListLink below it (the root layout sets it once). */
export function ListLinkNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  return <NavigateContext.Provider value={navigate}>{children}</NavigateContext.Provider>;
}

/**
 * A link to a path of this site for long lists (offer cards and their card chips): a plain `<a>`
 * whose click navigates in the app like React Router's `<Link>`. `<Link>` resolves its path against
 * the route tree each time it renders, which on a page of offer cards was a tenth of the server's
 * render time; these paths are absolute already. Modified clicks (new tab, …) stay the browser's.
 */
export function ListLink({
  to,
  className,
  children,
  ...attributes
}: {
  to: `/${string}`;
  className?: string;
  children: ReactNode;
  "aria-label"?: string;
  "data-testid"?: string;
}) {
  const navigate = useContext(NavigateContext);
  const onClick = (event: MouseEvent<HTMLAnchorElement>) => {
    if (!navigate || event.defaultPrevented || event.button !== 0 || event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    void navigate(to);
  };
  // data-discover: React Router loads the route code of links it sees, as for its own <Link>.
  return (
    <a href={to} className={className} onClick={onClick} data-discover="true" {...attributes}>
      {children}
    </a>
  );
}
