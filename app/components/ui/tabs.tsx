import { useRef, type KeyboardEvent, type ReactNode } from "react";
import { Link } from "react-router";

export type TabItem<T extends string> = {
  id: T;
  label: ReactNode;
  /** Shown after the label, e.g. a marker for a tab whose fields have errors. */
  badge?: ReactNode;
};

/** The index of the tab a key moves to from `index` among `count` tabs, or null for other keys. */
export function tabAfterKey(key: string, index: number, count: number): number | null {
  if (count === 0) return null;
  const last = count - 1;
  if (key === "ArrowRight") return index >= last ? 0 : index + 1;
  if (key === "ArrowLeft") return index <= 0 ? last : index - 1;
  if (key === "Home") return 0;
  if (key === "End") return last;
  return null;
}

type TabListProps<T extends string> = {
  /** The tablist's accessible name. */
  label: string;
  tabs: readonly TabItem<T>[];
  selected: T;
  /** Called when a tab is chosen by click or by keyboard. */
  onSelect: (id: T) => void;
  /** The id of a tab element (its panel's aria-labelledby names it). */
  tabId: (id: T) => string;
  /** The id of the panel a tab controls (one shared panel: the same id for every tab). */
  panelId: (id: T) => string;
  /** Tabs that are links (a tab per URL): the href of each; a click follows it, keys call onSelect. */
  href?: (id: T) => string;
  className?: string;
  tabClassName: (selected: boolean) => string;
};

/**
 * The one tablist (WAI-ARIA tabs pattern, automatic activation): only the selected tab is in the
 * tab order; Left and Right arrows move to the previous and next tab (wrapping), Home and End to the
 * first and last, and each move selects the tab it lands on. The caller renders the panel(s) with
 * role="tabpanel", the id `panelId` gives and aria-labelledby the selected tab's `tabId`.
 */
export function TabList<T extends string>({ label, tabs, selected, onSelect, tabId, panelId, href, className, tabClassName }: TabListProps<T>) {
  const refs = useRef(new Map<T, HTMLElement>());

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Alt+Left is the browser's "back", Ctrl/Meta+arrows move by word: not ours.
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    // From the focused tab: with link tabs the selection follows only once the new page has
    // loaded, so a second quick press must move on from where the focus already is.
    const focused = tabs.findIndex((tab) => refs.current.get(tab.id) === event.target);
    const from = focused >= 0 ? focused : tabs.findIndex((tab) => tab.id === selected);
    const next = tabAfterKey(event.key, from, tabs.length);
    if (next === null) return;
    event.preventDefault();
    const target = tabs[next].id;
    refs.current.get(target)?.focus();
    onSelect(target);
  };

  const keep = (id: T) => (element: HTMLElement | null) => {
    if (element) refs.current.set(id, element);
    else refs.current.delete(id);
  };

  return (
    <div role="tablist" aria-label={label} onKeyDown={onKeyDown} className={className}>
      {tabs.map((tab) => {
        const isSelected = tab.id === selected;
        const common = { id: tabId(tab.id), className: tabClassName(isSelected) };
        return href ? (
          <Link
            key={tab.id}
            ref={keep(tab.id)}
            to={href(tab.id)}
            preventScrollReset
            role="tab"
            aria-selected={isSelected}
            aria-controls={panelId(tab.id)}
            tabIndex={isSelected ? 0 : -1}
            {...common}
          >
            {tab.label}
            {tab.badge}
          </Link>
        ) : (
          <button
            key={tab.id}
            ref={keep(tab.id)}
            type="button"
            role="tab"
            aria-selected={isSelected}
            aria-controls={panelId(tab.id)}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(tab.id)}
            {...common}
          >
            {tab.label}
            {tab.badge}
          </button>
        );
      })}
    </div>
  );
}
