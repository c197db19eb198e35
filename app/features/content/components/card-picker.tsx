import { useEffect, useId, useState } from "react";
import { BUTTON_PRIMARY, BUTTON_SECONDARY, Modal } from "#app/components/ui/modal.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { usePackCards } from "#app/features/cards/components/use-pack-cards.ts";
import { CardImage } from "#app/features/cards/components/card-image.tsx";
import { CardFactList, type CardFactsFace } from "#app/features/cards/components/card-game-facts.tsx";
import { load } from "#app/lib/send.ts";
import { record } from "#app/lib/answers.ts";
import { z } from "#app/lib/zod.ts";
import type { CardListItem } from "#app/features/cards/types.ts";
import { contentMessages } from "#app/features/content/messages.ts";

/** A pack the picker offers (id as in the card APIs, name as shown). */
export type PackOption = { id: string; name: string };

// One page of the grid; さらに表示 brings the next, through the whole pack.
const PAGE = 60;

/**
 * docs/product-rules.md §2 card picker: a pack select plus a name search over that pack's cards
 * (GET /api/cards?pack=&q= — the card search's kana/width-blind matching), a grid to choose one,
 * and 挿入, disabled until a card is chosen. `defaultPackId` is the pack selected first (the deck
 * editor passes dialga, docs/product-rules.md §9); otherwise the first pack.
 */
export function CardPicker({
  packs,
  defaultPackId,
  onInsert,
  onClose,
}: {
  packs: PackOption[];
  defaultPackId?: string;
  onInsert: (card: CardListItem & { packId: string }) => void;
  onClose: () => void;
}) {
  const t = useT(contentMessages);
  const locale = useLocale();
  const id = useId();
  const [packId, setPackId] = useState(() => (packs.some((p) => p.id === defaultPackId) ? defaultPackId! : (packs[0]?.id ?? "")));
  const [query, setQuery] = useState("");
  const [chosen, setChosen] = useState<CardListItem | null>(null);
  const { cards, failed, hasMore, loadingMore, loadMore } = usePackCards(packId, query, PAGE, (_kind, error) => console.error(t("cardsFailed"), error));
  // Four リザードンex prints share a name: the set and number tell them apart, spoken and shown.
  const printName = (card: CardListItem) => [cardName(card, locale), displayRarity(card.rarity), cardPrint(card)].filter(Boolean).join(" ");

  const packName = packs.find((p) => p.id === packId)?.name ?? "";
  return (
    <Modal
      title={t("cardTitle")}
      onClose={onClose}
      size="lg"
      maxHeight="85vh"
      footer={
        <>
          {chosen ? <ChosenCardFacts packId={packId} cardId={chosen.id} /> : null}
          <p className="mr-auto self-center text-sm text-slate-700" aria-live="polite">
            {chosen ? t("cardChosen", { name: printName(chosen) }) : t("cardNoneChosen")}
          </p>
          <button type="button" className={BUTTON_SECONDARY} onClick={onClose}>
            {t("cancel")}
          </button>
          <button type="button" className={BUTTON_PRIMARY} disabled={!chosen} onClick={() => chosen && onInsert({ ...chosen, packId })}>
            {t("cardInsert")}
          </button>
        </>
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <label htmlFor={`${id}-pack`} className="block text-sm font-medium">
            {t("cardPack")}
          </label>
          <select
            id={`${id}-pack`}
            value={packId}
            onChange={(event) => {
              setPackId(event.target.value);
              setChosen(null);
            }}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base"
          >
            {packs.map((pack) => (
              <option key={pack.id} value={pack.id}>
                {pack.name}
              </option>
            ))}
          </select>
        </div>
        <div className="space-y-1">
          <label htmlFor={`${id}-q`} className="block text-sm font-medium">
            {t("cardSearch")}
          </label>
          <input
            id={`${id}-q`}
            type="search"
            autoComplete="off"
            value={query}
            placeholder={t("cardSearchPlaceholder")}
            onChange={(event) => setQuery(event.target.value)}
            // Inside an editor's form: Enter must not submit (save) it.
            onKeyDown={(event) => event.key === "Enter" && event.preventDefault()}
            className="block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base"
          />
        </div>
      </div>
      <div className="mt-4" aria-busy={cards === null}>
        {failed === "load" || failed === "search" ? (
          <p role="alert" className="font-medium text-red-700">
            {t("cardsFailed")}
          </p>
        ) : cards === null ? (
          <p className="text-slate-600">{t("cardsLoading")}</p>
        ) : cards.length === 0 ? (
          <p className="text-slate-600">{t("cardsEmpty")}</p>
        ) : (
          <>
            <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label={packName}>
              {cards.map((card) => {
                const selected = chosen?.id === card.id;
                return (
                  <li key={card.id}>
                    <button
                      type="button"
                      aria-pressed={selected}
                      onClick={() => setChosen(card)}
                      onDoubleClick={() => onInsert({ ...card, packId })}
                      className={`block w-full rounded-lg p-1 ${selected ? "bg-brand-100 ring-2 ring-brand-600" : "hover:bg-slate-100"}`}
                    >
                      {/* The picture is decorative: the line under it names the card, and is the button's name. */}
                      <CardImage face={card} packName={packName} decorative sizes="(min-width: 640px) 20vw, 33vw" />
                      <span className="mt-0.5 block text-center text-xs leading-tight text-slate-700">{printName(card)}</span>
                    </button>
                  </li>
                );
              })}
            </ul>
            {failed === "more" ? (
              <p role="alert" className="mt-2 font-medium text-red-700">
                {t("cardsFailed")}
              </p>
            ) : null}
            {hasMore ? (
              <button type="button" className={`${BUTTON_SECONDARY} mt-3`} disabled={loadingMore} onClick={loadMore} data-testid="card-picker-more">
                {loadingMore ? t("cardsLoading") : t("cardMore")}
              </button>
            ) : null}
          </>
        )}
      </div>
    </Modal>
  );
}

const CardDetailAnswer = z.object({ card: record<CardFactsFace>() });

/**
 * The chosen card's facts as its card page lists them (type, HP, stage, weakness, retreat, attacks'
 * cost and damage), from the card lookup by pack and id (GET /api/cards/:packId/:cardId).
 */
function ChosenCardFacts({ packId, cardId }: { packId: string; cardId: string }) {
  const t = useT(contentMessages);
  const [shown, setShown] = useState<{ cardId: string; card: CardFactsFace | null } | null>(null);
  useEffect(() => {
    const controller = new AbortController();
    load(`/api/cards/${encodeURIComponent(packId)}/${encodeURIComponent(cardId)}`, CardDetailAnswer, { signal: controller.signal })
      .then((answer) => setShown({ cardId, card: answer.card }))
      .catch((error: unknown) => {
        if (controller.signal.aborted) return;
        console.error(t("cardDetailsFailed"), error);
        setShown({ cardId, card: null });
      });
    return () => controller.abort();
  }, [packId, cardId, t]);
  const current = shown?.cardId === cardId ? shown : null;
  return (
    <section aria-label={t("cardDetails")} aria-busy={!current} tabIndex={0} className="max-h-40 w-full overflow-y-auto rounded-md bg-slate-50 px-3 py-2" data-card-details={cardId}>
      {!current ? (
        <p className="text-sm text-slate-600">{t("cardsLoading")}</p>
      ) : current.card ? (
        <CardFactList card={current.card} />
      ) : (
        <p className="text-sm text-red-700">{t("cardDetailsFailed")}</p>
      )}
    </section>
  );
}
