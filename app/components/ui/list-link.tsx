import { createContext, useContext, type FormEvent, type MouseEvent, type ReactNode } from "react";
import { useNavigate, useSubmit, type NavigateFunction, type SubmitFunction } from "react-router";

const NavigateContext = createContext<NavigateFunction | null>(null);
const SubmitContext = createContext<SubmitFunction | null>(null);

/** Hands one navigate and one submit function to every ListLink and ListForm below it (the root layout sets them once). */
export function ListLinkNavigation({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const submit = useSubmit();
  return (
    <NavigateContext.Provider value={navigate}>
      <SubmitContext.Provider value={submit}>{children}</SubmitContext.Provider>
    </NavigateContext.Provider>
  );
}

/**
 * A link to a path of this site for long lists (offer cards and their card chips, card grids): a
 * plain `<a>` with `<Link>`'s markup whose click navigates in the app like React Router's `<Link>`
 * (replacing the entry when it leads where the reader already is). `<Link>` resolves its path
 * against the route tree and reads the router's state each time it renders, which on a page of
 * offer cards was a tenth of the server's render time and on the card list most of each card's;
 * these paths are absolute already. Modified clicks (new tab, …) stay the browser's.
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
    const here = `${window.location.pathname}${window.location.search}${window.location.hash}`;
    void navigate(to, { replace: to === here });
  };
  // data-discover: React Router loads the route code of links it sees, as for its own <Link>.
  return (
    <a className={className} href={to} onClick={onClick} data-discover="true" {...attributes}>
      {children}
    </a>
  );
}

/**
 * A POST form to a path of this site for long lists (交渉する on each offer): a plain `<form>` whose
 * submission goes through React Router like its `<Form>`'s, which resolves its action against the
 * route tree each time it renders (as `<Link>`, above). Before hydration the browser posts it.
 */
export function ListForm({ action, className, children }: { action: `/${string}`; className?: string; children: ReactNode }) {
  const submit = useContext(SubmitContext);
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    if (!submit || event.defaultPrevented) return;
    event.preventDefault();
    // The pressed button's name and value are part of the form data, as with <Form>.
    const submitter = (event.nativeEvent as SubmitEvent).submitter as HTMLButtonElement | null;
    void submit(submitter ?? event.currentTarget, { method: "post" });
  };
  return (
    <form method="post" action={action} className={className} onSubmit={onSubmit} data-discover="true">
      {children}
    </form>
  );
}
