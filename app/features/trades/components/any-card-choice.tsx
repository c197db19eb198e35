import { Form, useNavigation } from "react-router";
import { ListLink } from "#app/components/ui/list-link.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { CardThumb } from "#app/features/cards/components/card-image.tsx";
import type { CardListItem } from "#app/features/cards/types.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";

/** A card the owner's collection offers for the 何でも可 side; `viewerCount`: the reader's own count (null: no collection). */
export type AnyChoiceCardView = CardListItem & { viewerCount: number | null };

/**
 * A 何でも可 offer whose owner shares their collection for trades (docs/decisions/045): the reader
 * chooses one of the owner's real cards — their spare when the offer gives 何でも可, their wanted
 * when it wants 何でも可 — and 交渉する opens the room with that card named to both of them.
 */
export function AnyCardChoice(props: {
  offerId: string;
  ownerName: string;
  side: "give" | "want";
  cards: AnyChoiceCardView[];
  total: number;
  signedIn: boolean;
}) {
  const t = useT(tradesMessages);
  const locale = useLocale();
  const navigation = useNavigation();
  const rarities = [...new Set(props.cards.map((c) => displayRarity(c.rarity)))].join("・");
  const sending = navigation.state === "submitting" && navigation.formAction === `/trades/${props.offerId}`;
  return (
    <section aria-labelledby="any-choice-heading" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="any-card-choice">
      <h2 id="any-choice-heading" className="font-bold">
        {t(props.side === "give" ? "anyChoiceHeadingGive" : "anyChoiceHeadingWant")}
      </h2>
      <p className="text-sm text-slate-700">{t(props.side === "give" ? "anyChoiceIntroGive" : "anyChoiceIntroWant", { name: props.ownerName, rarities })}</p>
      <Form method="post" action={`/trades/${props.offerId}`} className="space-y-3">
        <input type="hidden" name="intent" value="respond" />
        <fieldset>
          <legend className="sr-only">{t("anyChoiceRequired")}</legend>
          <ul className="grid grid-cols-1 gap-2 sm:grid-cols-2">
            {props.cards.map((card) => {
              const print = cardPrint(card);
              return (
                <li key={card.id}>
                  <label className="flex min-h-11 cursor-pointer items-center gap-2 rounded-md border border-slate-300 px-2 py-1.5 text-sm has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50">
                    <input type="radio" name="card" value={card.id} required disabled={!props.signedIn} className="size-4 shrink-0" />
                    <CardThumb face={card} />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium">{cardName(card, locale)}</span>
                      <span className="text-xs text-slate-600">
                        <span className="text-rarity">{displayRarity(card.rarity)}</span>
                        {print ? ` ${print}` : null}
                        {card.viewerCount !== null ? ` · ${t("anyChoiceYouOwn", { count: card.viewerCount })}` : null}
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
          </ul>
        </fieldset>
        {props.total > props.cards.length ? <p className="text-xs text-slate-600">{t("anyChoiceMore", { count: props.total - props.cards.length })}</p> : null}
        {props.signedIn ? (
          <SubmitButton pending={sending}>{t("anyChoiceSubmit")}</SubmitButton>
        ) : (
          <ListLink
            to={`/login?redirectTo=${encodeURIComponent(`/trades/${props.offerId}`)}`}
            className="inline-block rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-800 hover:bg-brand-50"
          >
            {t("respondLogin")}
          </ListLink>
        )}
      </Form>
    </section>
  );
}
