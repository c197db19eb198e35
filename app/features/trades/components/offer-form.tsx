import { useCallback, useRef, useState } from "react";
import { Form, Link, useNavigation } from "react-router";
import { TextareaField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { useLocale, useT, type Locale } from "#app/lib/i18n.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { CardSearch } from "#app/features/cards/components/card-search.tsx";
import { TradeCosts } from "#app/features/cards/components/trade-costs.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import type { CardSearchResult } from "#app/features/cards/types.ts";
import { tradeErrorMessages } from "#app/features/trades/error-messages.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { cardTradeabilityAt, type TradeRules } from "#app/features/trades/trade-rules.ts";
import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { COMMENT_MAX_LENGTH, MAX_CARDS_PER_SIDE, MAX_COPIES, MIN_COPIES, givesBeyondCollection, pairsByRarity } from "#app/features/trades/rules.ts";

/** A card chosen for one side; its set and number tell apart the prints that share a name and rarity. */
export type ChosenCard = { cardId: string; name: string; nameEn?: string; rarity: string; count: number; setCode?: string | null; number?: number | null };

type Side = "give" | "want";

/** The card's name with its print when known — ゼニガメ ◆ is in A1, A4b and B1a — for labels and the pairs line. */
function chosenName(card: ChosenCard, locale: Locale): string {
  const print = cardPrint(card);
  if (!print) return cardName(card, locale);
  return locale === "ja" ? `${cardName(card, locale)}（${print}）` : `${cardName(card, locale)} (${print})`;
}

function ChosenList({
  side,
  cards,
  onCount,
  onRemove,
  ownedCounts = null,
}: {
  side: Side;
  cards: ChosenCard[];
  onCount: (cardId: string, count: number) => void;
  onRemove: (cardId: string) => void;
  /** The poster's collection (null: none): a given card it holds fewer of is warned about, never refused. */
  ownedCounts?: Readonly<Record<string, number>> | null;
}) {
  const t = useT(tradesMessages);
  const locale = useLocale();
  if (!cards.length) return <p className="text-sm text-slate-600">{t("noCardsChosen")}</p>;
  const short = new Set(givesBeyondCollection(cards, ownedCounts).map((c) => c.cardId));
  return (
    <ul className="space-y-2">
      {cards.map((card) => {
        const print = cardPrint(card);
        const named = chosenName(card, locale);
        return (
          <li key={card.cardId} className="flex flex-wrap items-center gap-2 rounded-md border border-slate-200 bg-white px-3 py-2">
            <input type="hidden" name={side} value={`${card.cardId}*${card.count}`} />
            <span className="font-medium">{cardName(card, locale)}</span>
            <span className="text-amber-700">{displayRarity(card.rarity)}</span>
            {print ? (
              <span className="text-xs text-slate-600" data-testid="chosen-card-print">
                {print}
              </span>
            ) : null}
            <label className="ml-auto flex items-center gap-1 text-sm">
              <span className="sr-only">{t("copiesLabel", { name: named })}</span>
              <select
                value={card.count}
                onChange={(e) => onCount(card.cardId, Number(e.target.value))}
                className="rounded border border-slate-400 bg-white px-2 py-1"
              >
                {Array.from({ length: MAX_COPIES - MIN_COPIES + 1 }, (_, i) => MIN_COPIES + i).map((n) => (
                  <option key={n} value={n}>
                    {t("copies", { count: n })}
                  </option>
                ))}
              </select>
            </label>
            <button
              type="button"
              onClick={() => onRemove(card.cardId)}
              className="rounded px-2 py-1 text-sm text-red-700 hover:bg-red-50"
              aria-label={t("removeCard", { name: named })}
            >
              ×
            </button>
            {short.has(card.cardId) ? (
              <p className="w-full text-xs font-medium text-amber-800" data-testid="give-not-owned">
                {(ownedCounts?.[card.cardId] ?? 0) === 0 ? t("notInCollection") : t("notInCollectionCount", { owned: ownedCounts?.[card.cardId] ?? 0 })}
              </p>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/**
 * The offer form: 譲 and 求 from the trade card picker (what the trade rules allow now, and
 * marked, what a dated rule will open: docs/decisions/033), 1–2 copies each, a comment, and the
 * possible same-rarity pairs live.
 */
/** The trade picker's search: the cards under the trade rules (features/trades/endpoints.server.ts). */
const TRADE_PICKER_URL = "/api/trades/picker";

export function OfferForm({
  initialGive = [],
  initialWant = [],
  initialComment = "",
  initialGiveAny = false,
  initialWantAny = false,
  error,
  mode,
  intent,
  rules,
  now,
  tradeCosts = {},
  ownedCounts = null,
}: {
  initialGive?: ChosenCard[];
  initialWant?: ChosenCard[];
  initialComment?: string;
  /** 何でも可 on that side (an edit of such an offer). */
  initialGiveAny?: boolean;
  initialWantAny?: boolean;
  error?: string | null;
  mode: "new" | "edit";
  /** Sent as `intent` when the route's action handles several forms. */
  intent?: string;
  /** The trade rules (trade-rules.server.ts) and the server's time: a card they close is refused at once. */
  rules: TradeRules;
  now: string;
  /** Shinedust per rarity each side pays (cards.server.ts rarityTradeCosts), shown under the pairs. */
  tradeCosts?: Record<string, number>;
  /** The poster's counts when they keep a collection (null: none): 譲 cards it lacks are warned about. */
  ownedCounts?: Readonly<Record<string, number>> | null;
}) {
  const tRules = useT(tradeRulesMessages);
  const t = useT(tradesMessages);
  const te = useT(tradeErrorMessages);
  const locale = useLocale();
  const navigation = useNavigation();
  const submitting = navigation.state === "submitting";
  const [give, setGive] = useState(initialGive);
  const [want, setWant] = useState(initialWant);
  const [comment, setComment] = useState(initialComment);
  const [giveAny, setGiveAny] = useState(initialGiveAny);
  const [wantAny, setWantAny] = useState(initialWantAny);
  const [ruleError, setRuleError] = useState<{ side: Side; text: string } | null>(null);

  // The server's time moved on by the time the form has been open, so a rule that takes effect
  // while the page stays open applies at once (the server checks again at submit).
  const openedAt = useRef(Date.now());
  const add = useCallback((side: Side, card: CardSearchResult) => {
    const serverNow = new Date(Date.parse(now) + (Date.now() - openedAt.current));
    const state = cardTradeabilityAt(rules, { rarity: card.rarity, packIds: [card.packId] }, serverNow);
    if (!state.tradeable) {
      setRuleError({
        side,
        text: state.until ? tRules("notTradeableUntil", { name: card.name, date: tokyoShortDateTime(state.until, locale) }) : te("notTradeable", { name: card.name }),
      });
      return;
    }
    setRuleError(null);
    const setter = side === "give" ? setGive : setWant;
    setter((list) =>
      list.some((c) => c.cardId === card.id) || list.length >= MAX_CARDS_PER_SIDE
        ? list
        : [...list, { cardId: card.id, name: card.name, nameEn: card.nameEn, rarity: card.rarity, count: 1, setCode: card.setCode, number: card.number }],
    );
    // A card cannot be on both sides: choosing it on one side takes it off the other.
    (side === "give" ? setWant : setGive)((list) => list.filter((c) => c.cardId !== card.id));
  }, [rules, now, te, tRules, locale]);
  const onGive = useCallback((card: CardSearchResult) => add("give", card), [add]);
  const onWant = useCallback((card: CardSearchResult) => add("want", card), [add]);

  const pairs = pairsByRarity(give, want);
  const names = new Map([...give, ...want].map((c) => [c.cardId, chosenName(c, locale)]));
  const anySide = giveAny || wantAny;
  // 何でも可 on one side: the named side alone decides (any card of its rarities can come back).
  const ready =
    !(giveAny && wantAny) && (giveAny || give.length > 0) && (wantAny || want.length > 0) && (anySide || pairs.length > 0) && comment.length <= COMMENT_MAX_LENGTH;
  const anyToggle = (side: Side) => {
    const on = side === "give" ? giveAny : wantAny;
    const other = side === "give" ? wantAny : giveAny;
    return (
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          name={side === "give" ? "giveAny" : "wantAny"}
          value="1"
          checked={on}
          disabled={other}
          onChange={(e) => (side === "give" ? setGiveAny : setWantAny)(e.target.checked)}
          className="mt-1"
          data-testid={`${side}-any`}
        />
        <span>
          <span className="font-bold">{t("anyCard")}</span>
          <span className="block text-xs text-slate-600">{t("anyCardHint")}</span>
        </span>
      </label>
    );
  };

  return (
    <Form method="post" className="space-y-6">
      {intent ? <input type="hidden" name="intent" value={intent} /> : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
          {error}
        </p>
      ) : null}
      <p className="text-sm text-slate-600">
        {t("pickerHint")}{" "}
        <Link to="/trade-rules" className="text-brand-700 underline">
          {tRules("linkFromForm")}
        </Link>
      </p>
      <div className="grid gap-6 md:grid-cols-2">
        <fieldset className="space-y-3 rounded-xl border border-brand-100 bg-brand-50/40 p-4">
          <legend className="px-1 font-bold text-brand-800">{t("giveLong")}</legend>
          {anyToggle("give")}
          {giveAny ? null : (
            <CardSearch label={t("pickGive")} onSelect={onGive} searchUrl={TRADE_PICKER_URL} />
          )}
          {ruleError?.side === "give" ? (
            <p role="alert" className="text-sm font-medium text-red-700" data-testid="rule-error">
              {ruleError.text}
            </p>
          ) : null}
          <ChosenList
            side="give"
            cards={giveAny ? [] : give}
            ownedCounts={ownedCounts}
            onCount={(id, count) => setGive((l) => l.map((c) => (c.cardId === id ? { ...c, count } : c)))}
            onRemove={(id) => setGive((l) => l.filter((c) => c.cardId !== id))}
          />
        </fieldset>
        <fieldset className="space-y-3 rounded-xl border border-sky-200 bg-sky-50/40 p-4">
          <legend className="px-1 font-bold text-sky-800">{t("wantLong")}</legend>
          {anyToggle("want")}
          {wantAny ? null : (
            <CardSearch label={t("pickWant")} onSelect={onWant} searchUrl={TRADE_PICKER_URL} />
          )}
          {ruleError?.side === "want" ? (
            <p role="alert" className="text-sm font-medium text-red-700" data-testid="rule-error">
              {ruleError.text}
            </p>
          ) : null}
          <ChosenList
            side="want"
            cards={wantAny ? [] : want}
            onCount={(id, count) => setWant((l) => l.map((c) => (c.cardId === id ? { ...c, count } : c)))}
            onRemove={(id) => setWant((l) => l.filter((c) => c.cardId !== id))}
          />
        </fieldset>
      </div>

      <section aria-labelledby="possible-pairs" className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="possible-pairs" className="font-bold">
          {t("possiblePairs")}
        </h2>
        {anySide && (giveAny ? want.length : give.length) ? (
          <p className="mt-2 text-sm" aria-live="polite">
            {t("anyPairs", {
              rarity: [...new Set((giveAny ? want : give).map((c) => displayRarity(c.rarity)))].join("・"),
            })}
          </p>
        ) : give.length && want.length && !anySide ? (
          pairs.length ? (
            <ul className="mt-2 space-y-1 text-sm" aria-live="polite">
              {pairs.map((p) => (
                <li key={p.rarity}>
                  {t("pairRarity", {
                    rarity: displayRarity(p.rarity),
                    give: p.give.map((id) => names.get(id)).join("・"),
                    want: p.want.map((id) => names.get(id)).join("・"),
                  })}
                </li>
              ))}
            </ul>
          ) : (
            <p role="alert" className="mt-2 text-sm font-medium text-red-700">
              {t("possiblePairsNone")}
            </p>
          )
        ) : (
          <p className="mt-2 text-sm text-slate-600">{t("noCardsChosen")}</p>
        )}
        <TradeCosts rarities={[...(giveAny ? [] : give), ...(wantAny ? [] : want)].map((c) => c.rarity)} costs={tradeCosts} />
      </section>

      <TextareaField
        id="offer-comment"
        name="comment"
        rows={4}
        label={t("comment")}
        labelClassName="block font-bold"
        maxLength={COMMENT_MAX_LENGTH}
        value={comment}
        onChange={(e) => setComment(e.target.value)}
        placeholder={t("commentPlaceholder")}
        counterText={(count, max) => t("commentCounter", { count, max })}
      />

      <SubmitButton pending={submitting} pendingText={t("submitting")} disabled={!ready}>
        {t(mode === "new" ? "submitNew" : "submitEdit")}
      </SubmitButton>
    </Form>
  );
}
