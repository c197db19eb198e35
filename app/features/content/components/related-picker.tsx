import { useEffect, useId, useState } from "react";
import { TabList } from "#app/components/ui/tabs.tsx";
import { BUTTON_SECONDARY, Modal } from "#app/components/ui/modal.tsx";
import { useT } from "#app/lib/i18n.tsx";
import type { ContentBlockKind } from "#app/features/content/blocks.ts";
import { contentMessages } from "#app/features/content/messages.ts";
import { tokyoDate } from "#app/lib/tokyo-time.ts";

/** One row of the related picker. `ref` is what the block line carries (slug or id). */
export type RelatedItem = {
  kind: Exclude<ContentBlockKind, "card">;
  ref: string;
  title: string;
  /** ISO date shown in the row. */
  date: string;
  thumbnailUrl: string | null;
  /** Shown as 非公開 (an article that readers cannot open yet). */
  isPublic?: boolean;
};

/**
 * Where the picker's rows come from: articles and deck recipes each give one source (the
 * article editor passes both once deck recipes exist). `search` gets the typed title ("" for the
 * newest) and must honour the abort signal.
 */
export type RelatedSource = {
  kind: RelatedItem["kind"];
  search: (query: string, signal: AbortSignal) => Promise<RelatedItem[]>;
};

type Tab = "all" | RelatedItem["kind"];
const DEBOUNCE_MS = 300;

/**
 * docs/product-rules.md §2 related-article picker: a title search box, tabs すべて / 記事 / デッキレシピ, rows
 * with thumbnail, date and title, 記事が見つかりません when empty, a cancel button, at most 80% of
 * the viewport high. Choosing a row hands it to `onChoose` (the editor inserts the block).
 */
export function RelatedPicker({ sources, onChoose, onClose }: { sources: RelatedSource[]; onChoose: (item: RelatedItem) => void; onClose: () => void }) {
  const t = useT(contentMessages);
  const id = useId();
  const [tab, setTab] = useState<Tab>("all");
  const [query, setQuery] = useState("");
  const [items, setItems] = useState<RelatedItem[] | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    const controller = new AbortController();
    const timer = setTimeout(
      () => {
        const wanted = sources.filter((source) => tab === "all" || source.kind === tab);
        Promise.all(wanted.map((source) => source.search(query.trim(), controller.signal)))
          .then((lists) => {
            if (controller.signal.aborted) return;
            setItems(lists.flat().sort((a, b) => b.date.localeCompare(a.date)));
            setFailed(false);
          })
          .catch((error: unknown) => {
            if (controller.signal.aborted) return;
            console.error(t("relatedFailed"), error);
            setItems([]);
            setFailed(true);
          });
      },
      query ? DEBOUNCE_MS : 0,
    );
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [sources, tab, query, t]);

  const tabs: { id: Tab; label: string }[] = [
    { id: "all", label: t("relatedAll") },
    { id: "article", label: t("relatedArticles") },
    { id: "deck", label: t("relatedDecks") },
  ];

  return (
    <Modal
      title={t("relatedTitle")}
      onClose={onClose}
      maxHeight="80vh"
      initialFocus={`[id="${id}-q"]`}
      footer={
        <button type="button" className={BUTTON_SECONDARY} onClick={onClose}>
          {t("cancel")}
        </button>
      }
    >
      <label htmlFor={`${id}-q`} className="block text-sm font-medium">
        {t("relatedSearch")}
      </label>
      <input
        id={`${id}-q`}
        type="search"
        autoComplete="off"
        value={query}
        onChange={(event) => setQuery(event.target.value)}
        // Inside an editor's form: Enter must not submit (save) it.
        onKeyDown={(event) => event.key === "Enter" && event.preventDefault()}
        className="mt-1 block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base"
      />
      <TabList
        label={t("relatedTitle")}
        tabs={tabs}
        selected={tab}
        onSelect={setTab}
        tabId={(which) => `${id}-tab-${which}`}
        panelId={() => `${id}-panel`}
        className="mt-3 flex gap-1 border-b border-slate-200"
        tabClassName={(selected) => `-mb-px rounded-t-md border px-3 py-1.5 text-sm font-bold ${selected ? "border-slate-200 border-b-white bg-white text-brand-800" : "border-transparent text-slate-600"}`}
      />
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${tab}`} className="pt-3" aria-busy={items === null}>
        {failed ? (
          <p role="alert" className="font-medium text-red-700">
            {t("relatedFailed")}
          </p>
        ) : items && items.length === 0 ? (
          <p className="text-slate-600">{t("relatedEmpty")}</p>
        ) : (
          <ul className="divide-y divide-slate-100">
            {(items ?? []).map((item) => (
              <li key={`${item.kind}:${item.ref}`}>
                <button type="button" onClick={() => onChoose(item)} className="flex w-full items-center gap-3 rounded-md px-2 py-2 text-left hover:bg-brand-50">
                  {item.thumbnailUrl ? (
                    <img src={item.thumbnailUrl} alt="" width={80} height={42} loading="lazy" className="h-[42px] w-[80px] shrink-0 rounded object-cover" />
                  ) : (
                    <span aria-hidden="true" className="h-[42px] w-[80px] shrink-0 rounded bg-gradient-to-br from-brand-100 to-slate-200" />
                  )}
                  <span className="min-w-0">
                    <span className="block text-xs text-slate-600">
                      <time dateTime={item.date}>{tokyoDate(item.date, "ja")}</time>
                      {" ・ "}
                      {item.kind === "article" ? t("relatedArticles") : t("relatedDecks")}
                      {item.isPublic === false ? ` ・ ${t("relatedPrivate")}` : ""}
                    </span>
                    <span className="block font-medium">{item.title}</span>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Modal>
  );
}
