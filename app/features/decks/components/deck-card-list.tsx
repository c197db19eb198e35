import { useId, useState } from "react";
import { load, send } from "#app/lib/send.ts";
import { record } from "#app/lib/answers.ts";
import { z } from "#app/lib/zod.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { usePackCards } from "#app/features/cards/components/use-pack-cards.ts";
import type { CardListItem } from "#app/features/cards/types.ts";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import { LIST_MAX_COPIES, PICKER_MAX_COPIES } from "#app/features/decks/rules.ts";
import type { DeckCardView, DeckImportResult } from "#app/features/decks/types.ts";

export type PackChoice = { id: string; name: string };

// One page of the add-card list; さらに表示 brings the next, through the whole pack.
const PICKER_PAGE = 60;
const CONTROL = "rounded-md border border-slate-400 bg-white px-2 py-1.5";
const SMALL_BUTTON = "rounded-md border border-slate-400 bg-white px-2 py-1 text-sm hover:border-brand-600 disabled:cursor-not-allowed disabled:opacity-40";


/** Cards as the editor shows them (with the catalogue's type and stage), from the admin cards API. */
export async function fetchDeckCards(ids: string[], packId: string | null): Promise<DeckCardView[]> {
  const params = new URLSearchParams({ ids: ids.join(",") });
  if (packId) params.set("pack", packId);
  return (await load(`/api/admin/decks/cards?${params}`, z.object({ cards: z.array(record<DeckCardView>()) }))).cards;
}

/**
 * docs/product-rules.md §4 deck card list: adding puts a card at the top; a count of 0 removes it; copies
 * 0–4 in the list and 0–2 in the picker (§5).
 */
export function addToDeck(list: DeckCardView[], added: DeckCardView[]): DeckCardView[] {
  const ids = new Set(added.map((c) => c.cardId));
  const merged = added.map((card) => {
    const kept = list.find((c) => c.cardId === card.cardId);
    return kept ? { ...kept, count: Math.min(LIST_MAX_COPIES, kept.count + card.count) } : card;
  });
  return [...merged.filter((c) => c.count > 0), ...list.filter((c) => !ids.has(c.cardId))];
}

function CardPickerPanel({ packs, defaultPackId, onAdd }: { packs: PackChoice[]; defaultPackId: string; onAdd: (card: CardListItem, packId: string, count: number) => Promise<void> }) {
  const t = useT(deckEditorMessages);
  const locale = useLocale();
  const id = useId();
  const [packId, setPackId] = useState(packs.some((p) => p.id === defaultPackId) ? defaultPackId : (packs[0]?.id ?? ""));
  const [query, setQuery] = useState("");
  const [copies, setCopies] = useState<Record<string, number>>({});
  const { cards, failed, hasMore, loadingMore, loadMore } = usePackCards(packId, query, PICKER_PAGE, (kind, error) =>
    console.error(t(kind === "search" ? "searchFailed" : "cardsFailed"), error),
  );

  return (
    <section aria-labelledby={`${id}-h`} className="space-y-3 rounded-lg border border-slate-200 bg-slate-50 p-3">
      <h3 id={`${id}-h`} className="font-bold">
        {t("pickerHeading")}
      </h3>
      <div className="flex flex-wrap gap-3">
        <label className="text-sm">
          <span className="mb-1 block font-medium">{t("pickerPack")}</span>
          <select value={packId} onChange={(e) => setPackId(e.target.value)} className={CONTROL} data-testid="deck-picker-pack">
            {packs.map((pack) => (
              <option key={pack.id} value={pack.id}>
                {pack.name}
              </option>
            ))}
          </select>
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium">{t("pickerSearch")}</span>
          <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} className={CONTROL} />
        </label>
      </div>
      {failed === "search" ? <p className="text-sm font-medium text-red-700">{t("searchFailed")}</p> : null}
      {failed === "load" || failed === "more" ? <p role="alert" className="text-sm font-medium text-red-700">{t("cardsFailed")}</p> : null}
      {cards && !cards.length && !failed ? <p className="text-sm text-slate-600">{t("pickerEmpty")}</p> : null}
      <ul className="grid max-h-80 gap-2 overflow-y-auto sm:grid-cols-2" aria-busy={cards === null}>
        {(cards ?? []).map((card) => {
          // Two prints of one name (two パチリスex ☆☆ of A2) differ only in set and number: both are named.
          const print = cardPrint(card);
          const name = print ? `${cardName(card, locale)} ${displayRarity(card.rarity)} ${print}` : `${cardName(card, locale)} ${displayRarity(card.rarity)}`;
          const count = copies[card.id] ?? 1;
          return (
            <li key={card.id} className="flex items-center gap-2 rounded-md border border-slate-200 bg-white px-2 py-1.5 text-sm" data-testid="deck-picker-card">
              <span className="min-w-0 flex-1 truncate">
                {cardName(card, locale)} <span className="text-amber-700">{displayRarity(card.rarity)}</span>
                {print ? <span className="ml-1 text-xs text-slate-600">{print}</span> : null}
              </span>
              <select aria-label={t("pickerCopies", { name })} value={count} onChange={(e) => setCopies((c) => ({ ...c, [card.id]: Number(e.target.value) }))} className="rounded border border-slate-400 bg-white px-1 py-0.5">
                {Array.from({ length: PICKER_MAX_COPIES + 1 }, (_, n) => (
                  <option key={n} value={n}>
                    ×{n}
                  </option>
                ))}
              </select>
              <button type="button" className={SMALL_BUTTON} disabled={count === 0} aria-label={t("pickerAddLabel", { name })} onClick={() => void onAdd(card, packId, count)}>
                {t("pickerAdd")}
              </button>
            </li>
          );
        })}
      </ul>
      {hasMore && cards ? (
        <button type="button" className={SMALL_BUTTON} disabled={loadingMore} onClick={loadMore} data-testid="deck-picker-more">
          {loadingMore ? t("pickerLoadingMore") : t("pickerMore")}
        </button>
      ) : null}
    </section>
  );
}

/** The import API's answer: the cards it matched and the lines it could not. */
const ImportAnswer = z.custom<DeckImportResult>((value) => typeof value === "object" && value !== null && "cards" in value && Array.isArray(value.cards) && "unmatched" in value && Array.isArray(value.unmatched));

function ImportBox({ onImported }: { onImported: (result: DeckImportResult) => void }) {
  const t = useT(deckEditorMessages);
  const id = useId();
  const [text, setText] = useState("");
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<DeckImportResult | null>(null);
  // false, or the failure shown: the server's reason when it gave one.
  const [failed, setFailed] = useState<false | { reason: string | null }>(false);
  async function run() {
    setBusy(true);
    setFailed(false);
    try {
      const sent = await send("/api/admin/decks/import", { json: { text } }, ImportAnswer);
      if (!sent.ok) {
        console.error(t("cardsFailed"), sent.status);
        setFailed({ reason: sent.refusal?.message ?? null });
        return;
      }
      const answer = sent.data;
      setResult(answer);
      onImported(answer);
    } catch (error) {
      console.error(t("cardsFailed"), error);
      setFailed({ reason: null });
    } finally {
      setBusy(false);
    }
  }
  return (
    <details className="rounded-lg border border-slate-200 bg-white p-3">
      <summary className="cursor-pointer font-bold">{t("importHeading")}</summary>
      <div className="mt-2 space-y-2">
        <label htmlFor={id} className="block text-sm font-medium">
          {t("importLabel")}
        </label>
        <textarea id={id} rows={6} value={text} onChange={(e) => setText(e.target.value)} className="block w-full rounded-md border border-slate-300 px-3 py-2 font-mono text-sm" />
        <button type="button" disabled={busy || !text.trim()} onClick={() => void run()} className={SMALL_BUTTON}>
          {t("importButton")}
        </button>
        <div aria-live="polite">
          {failed ? <p className="text-sm font-medium text-red-700">{failed.reason ? `${t("cardsFailed")}: ${failed.reason}` : t("cardsFailed")}</p> : null}
          {result ? <p className="text-sm text-green-800">{t("importDone", { count: result.cards.length })}</p> : null}
          {result?.unmatched.length ? (
            <div className="text-sm text-red-800">
              <p className="font-medium">{t("importUnmatched")}</p>
              <ul className="list-disc pl-5">
                {result.unmatched.map((line) => (
                  <li key={line.line}>
                    {line.line}: {line.text}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </div>
      </div>
    </details>
  );
}

/** The editor's カードリスト view: the chosen cards (count, up/down), the card picker and the text import. */
export function DeckCardList({
  cards,
  onChange,
  packs,
  defaultPackId,
}: {
  cards: DeckCardView[];
  onChange: (update: (cards: DeckCardView[]) => DeckCardView[]) => void;
  packs: PackChoice[];
  defaultPackId: string;
}) {
  const t = useT(deckEditorMessages);
  const locale = useLocale();
  const [loadFailed, setLoadFailed] = useState(false);
  const move = (index: number, by: -1 | 1) =>
    onChange((list) => {
      const next = [...list];
      const [card] = next.splice(index, 1);
      next.splice(index + by, 0, card);
      return next;
    });
  const setCount = (cardId: string, count: number) => onChange((list) => (count === 0 ? list.filter((c) => c.cardId !== cardId) : list.map((c) => (c.cardId === cardId ? { ...c, count } : c))));

  async function add(card: CardListItem, packId: string, count: number) {
    try {
      const [view] = await fetchDeckCards([card.id], packId);
      if (!view) throw new Error("card not found");
      setLoadFailed(false);
      onChange((list) => addToDeck(list, [{ ...view, count }]));
    } catch (error) {
      console.error(t("cardsFailed"), error);
      setLoadFailed(true);
    }
  }

  return (
    <div className="space-y-4">
      {loadFailed ? <p role="alert" className="text-sm font-medium text-red-700">{t("cardsFailed")}</p> : null}
      {cards.length === 0 ? (
        <p className="text-slate-600">{t("cardListEmpty")}</p>
      ) : (
        <ol className="space-y-1" aria-label={t("viewCards")}>
          {cards.map((card, index) => {
            const name = cardName(card, locale);
            return (
              <li key={card.cardId} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-1.5">
                <span className="min-w-0 flex-1">
                  <span className="font-medium">{name}</span> <span className="text-amber-700">{displayRarity(card.rarity)}</span>{" "}
                  <span className="text-xs text-slate-600">{locale === "en" ? card.packNameEn : card.packName}</span>
                </span>
                <select aria-label={t("countLabel", { name })} value={card.count} onChange={(e) => setCount(card.cardId, Number(e.target.value))} className="rounded border border-slate-400 bg-white px-1 py-0.5">
                  {Array.from({ length: LIST_MAX_COPIES + 1 }, (_, n) => (
                    <option key={n} value={n}>
                      ×{n}
                    </option>
                  ))}
                </select>
                <button type="button" className={SMALL_BUTTON} disabled={index === 0} aria-label={t("moveUp", { name })} onClick={() => move(index, -1)}>
                  ↑
                </button>
                <button type="button" className={SMALL_BUTTON} disabled={index === cards.length - 1} aria-label={t("moveDown", { name })} onClick={() => move(index, 1)}>
                  ↓
                </button>
              </li>
            );
          })}
        </ol>
      )}
      <CardPickerPanel packs={packs} defaultPackId={defaultPackId} onAdd={add} />
      <ImportBox onImported={(result) => onChange((list) => addToDeck(list, result.cards))} />
    </div>
  );
}
