import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { CardImage } from "./card-image";
import { cardName } from "#app/lib/card-name.ts";
import { cardsMessages } from "#app/features/cards/messages.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import type { CardSearchResult } from "#app/features/cards/types.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";

/**
 * Card search picker for the trade board, deck editor and article editor: an ARIA 1.2
 * combobox (text input + listbox) over `GET /api/cards/search`.
 *
 * Props:
 * - `label` (required): the visible label of the input; `hideLabel` keeps it for screen readers only.
 * - `onSelect(card)` (required): called with the chosen `CardSearchResult`
 *   (`id, name, nameEn, rarity, imageUrl, number, packId, packName, packNameEn`).
 * - `tradeableOnly?`: only rarities whose `rarities.tradeable` is true.
 * - `excludePacks?`: pack ids to leave out.
 * - `rarities?`: only cards of these rarities (sent as `rarity=`; the trade picker reads it).
 * - `searchUrl?`: another search answering the same shape (the trade picker's `/api/trades/picker`,
 *   whose cards may carry `opensAt`: shown, marked with the date, and not choosable).
 * - `placeholder?`: input placeholder (default カード名（ひらがな・カタカナ・英語）).
 * - `clearOnSelect?`: empty the input after a choice (default true; false shows the chosen name).
 * - `id?`: id of the input, for an outside `<label htmlFor>`.
 *
 * Keyboard: ↓/↑ move through the options, Enter chooses, Escape closes the list (a second
 * Escape clears the text). Typing waits 300 ms (docs/product-rules.md §9) and cancels the previous request;
 * a cancelled request is not an error. A failed request shows カードの検索に失敗しました in red.
 */
/** The search API's answer: the matching cards. */

export type CardSearchProps = {
  label: string;
  onSelect: (card: CardSearchResult) => void;
  tradeableOnly?: boolean;
  excludePacks?: string[];
  rarities?: string[];
  searchUrl?: string;
  placeholder?: string;
  hideLabel?: boolean;
  clearOnSelect?: boolean;
  id?: string;
};

/** The next option in `step` direction that can be chosen (marked ones are skipped), or -1. */
function nextChoosable(results: readonly { opensAt?: string | null }[], from: number, step: 1 | -1): number {
  for (let n = 1; n <= results.length; n++) {
    const i = (((from + step * n) % results.length) + results.length) % results.length;
    if (!results[i].opensAt) return i;
  }
  return -1;
}

// docs/product-rules.md §9: search debounce 300 ms.
export const SEARCH_DEBOUNCE_MS = 300;

type Status = "idle" | "loading" | "done" | "error";

export function CardSearch({
  label,
  onSelect,
  tradeableOnly = false,
  excludePacks,
  rarities,
  searchUrl = "/api/cards/search",
  placeholder,
  hideLabel = false,
  clearOnSelect = true,
  id,
}: CardSearchProps) {
  const t = useT(cardsMessages);
  const locale = useLocale();
  const autoId = useId();
  const inputId = id ?? `${autoId}-input`;
  const listId = `${autoId}-list`;
  const [query, setQuery] = useState("");
  const [results, setResults] = useState<(CardSearchResult & { opensAt?: string | null })[]>([]);
  const [status, setStatus] = useState<Status>("idle");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const controller = useRef<AbortController | null>(null);
  const excludeKey = (excludePacks ?? []).join(",");
  const rarityKey = (rarities ?? []).join(",");

  useEffect(() => {
    const q = query.trim();
    if (!q) {
      controller.current?.abort();
      setResults([]);
      setStatus("idle");
      return;
    }
    const timer = setTimeout(() => {
      controller.current?.abort();
      const current = new AbortController();
      controller.current = current;
      const params = new URLSearchParams({ q });
      if (tradeableOnly) params.set("tradeableOnly", "1");
      if (excludeKey) params.set("excludePacks", excludeKey);
      if (rarityKey) params.set("rarity", rarityKey);
      setStatus("loading");
      import("./card-search-answer")
        .then(({ searchCards }) => searchCards(`${searchUrl}?${params}`, current.signal))
        .then((body) => {
          if (current.signal.aborted) return;
          setResults(body.cards);
          setActive(body.cards.findIndex((card) => !card.opensAt));
          setStatus("done");
          setOpen(true);
        })
        .catch((error: unknown) => {
          // A newer keystroke cancelled this request: not a failure.
          if (current.signal.aborted || (error instanceof DOMException && error.name === "AbortError")) return;
          setResults([]);
          setStatus("error");
        });
    }, SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [query, tradeableOnly, excludeKey, rarityKey, searchUrl]);

  useEffect(() => () => controller.current?.abort(), []);

  const choose = useCallback(
    (card: CardSearchResult & { opensAt?: string | null }) => {
      // A card a dated rule opens later is shown, marked, but cannot be chosen yet.
      if (card.opensAt) return;
      onSelect(card);
      setOpen(false);
      setActive(-1);
      if (clearOnSelect) {
        setQuery("");
        setResults([]);
        setStatus("idle");
      } else {
        setQuery(cardName(card, locale));
      }
    },
    [onSelect, clearOnSelect, locale],
  );

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.nativeEvent.isComposing) return; // IME conversion owns Enter and the arrows
    if (event.key === "ArrowDown") {
      event.preventDefault();
      if (!open) setOpen(true);
      if (results.length) setActive((i) => nextChoosable(results, i, 1));
    } else if (event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) setOpen(true);
      if (results.length) setActive((i) => nextChoosable(results, i, -1));
    } else if (event.key === "Enter") {
      if (open && active >= 0 && results[active]) {
        event.preventDefault();
        choose(results[active]);
      }
    } else if (event.key === "Escape") {
      if (open) {
        event.preventDefault();
        setOpen(false);
      } else if (query) {
        event.preventDefault();
        setQuery("");
      }
    }
  };

  // A listbox holds options only: the "no match" text is shown beside it, not inside.
  const expanded = open && status === "done" && query.trim() !== "" && results.length > 0;
  const optionId = (i: number) => `${autoId}-option-${i}`;

  return (
    <div className="relative">
      <label htmlFor={inputId} className={hideLabel ? "sr-only" : "mb-1 block text-sm font-medium"}>
        {label}
      </label>
      <input
        id={inputId}
        type="text"
        role="combobox"
        aria-autocomplete="list"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={query}
        placeholder={placeholder ?? t("searchPlaceholder")}
        onChange={(event) => {
          setQuery(event.target.value);
          setOpen(true);
        }}
        onKeyDown={onKeyDown}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        className="w-full rounded-md border border-slate-400 bg-white px-3 py-2 text-base focus:border-brand-600 focus:outline-none focus:ring-2 focus:ring-brand-200"
      />
      <ul
        id={listId}
        role="listbox"
        aria-label={label}
        hidden={!expanded}
        className="absolute z-20 mt-1 max-h-80 w-full overflow-y-auto rounded-md border border-slate-300 bg-white py-1 shadow-lg"
      >
        {results.map((card, i) => (
          <li
            key={`${card.packId}/${card.id}`}
            id={optionId(i)}
            role="option"
            aria-selected={i === active}
            aria-disabled={card.opensAt ? true : undefined}
            // mousedown keeps the focus in the input, so blur does not close the list first
            onMouseDown={(event) => {
              event.preventDefault();
              choose(card);
            }}
            onMouseEnter={() => !card.opensAt && setActive(i)}
            className={`flex items-center gap-3 px-3 py-1.5 text-sm ${card.opensAt ? "cursor-not-allowed bg-slate-50 text-slate-700" : "cursor-pointer"} ${i === active ? "bg-brand-50 text-brand-900" : card.opensAt ? "" : "text-slate-800"}`}
          >
            <span className="w-10 shrink-0">
              <CardImage face={card} sizes="40px" decorative />
            </span>
            <span className="min-w-0 flex-1">
              <span className="block truncate font-medium">{cardName(card, locale)}</span>
              <span className="block truncate text-xs text-slate-600">{locale === "en" && card.packNameEn ? card.packNameEn : card.packName}</span>
              {card.opensAt ? (
                <span className="block text-xs font-bold text-amber-900" data-testid="opens-at">
                  {t("tradeableFrom", { date: tokyoShortDateTime(card.opensAt, locale) })}
                </span>
              ) : null}
            </span>
            {/* What tells same-name cards apart: set and number, then rarity. */}
            <span className="shrink-0 text-right text-xs leading-tight">
              <span className="block font-bold text-rarity" data-rarity={card.rarity}>
                {displayRarity(card.rarity)}
              </span>
              <span className="block font-mono text-slate-600">{card.setCode ? `${card.setCode} ${String(card.number ?? "").padStart(3, "0")}` : ""}</span>
            </span>
          </li>
        ))}
      </ul>
      {open && status === "done" && query.trim() !== "" && results.length === 0 ? (
        <p className="absolute z-20 mt-1 w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-sm text-slate-600 shadow-lg">
          {t("searchEmpty")}
        </p>
      ) : null}
      <p aria-live="polite" className="sr-only">
        {status === "loading" ? t("searching") : status === "done" && query.trim() ? t("searchResults", { count: results.length }) : ""}
      </p>
      {status === "error" ? (
        <p role="alert" className="mt-1 text-sm font-medium text-red-700">
          {t("searchFailed")}
        </p>
      ) : null}
    </div>
  );
}
