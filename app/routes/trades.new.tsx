import { redirect } from "react-router";
import { offerFieldsFromForm, parseOfferInput } from "../features/trades/http.server";
import { OfferForm } from "../features/trades/components/offer-form";
import { tradesMessages } from "../features/trades/messages";
import { offerPrefillFromParams } from "../features/trades/trades.schema";
import { createOffer, offerPrefill } from "../features/trades/offers.server";
import { loadTradeRules } from "../features/trades/trade-rules.server";
import { rarityTradeCosts } from "../features/cards/cards.server";
import { ownedCountsIfKept } from "../features/collection/collection.server";
import { requireViewer } from "../features/users/session.server";
import { formError } from "../lib/api.server";
import { readFormData } from "../lib/forms.server";
import { localeFromRequest, translate, useT } from "../lib/i18n";
import { localeOfMatches } from "../components/layout/meta-locale";
import { seoMeta } from "../lib/seo";
import { refusalOf } from "../lib/form-refusal";
import type { Route } from "./+types/trades.new";
import { pageUrlOf } from "../lib/data-url";

// Posting needs a signed-in user with a friend ID: without one, the profile page comes first,
// says why, and comes back here once it is saved — with the query kept, so a deck recipe's
// prefilled 求 side (?want=…) survives the detour.
function needFriendId({ pathname, search }: URL) {
  return `/profile?need=friendId&redirectTo=${encodeURIComponent(pathname + search)}`;
}
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrlOf(request);
  const viewer = await requireViewer(request, context);
  if (!viewer.friendId) throw redirect(needFriendId(url));
  const locale = localeFromRequest(request);
  // ?want=A1-096*2,… starts the 求 side (a deck recipe's 「足りないカードを募集する」).
  const [want, rules, tradeCosts, ownedCounts] = await Promise.all([
    offerPrefill(context.db, offerPrefillFromParams(url.searchParams)),
    loadTradeRules(context.db),
    rarityTradeCosts(context.db),
    // The poster's collection, for the warning on 譲 cards it lacks (null: they keep none).
    ownedCountsIfKept(context.db, viewer.id),
  ]);
  return {
    want,
    ownedCounts,
    rules,
    tradeCosts,
    now: new Date().toISOString(),
    title: translate(tradesMessages, locale, "newOfferTitle"),
    description: translate(tradesMessages, locale, "newOfferDescription"),
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const url = pageUrlOf(request);
  const viewer = await requireViewer(request, context);
  if (!viewer.friendId) throw redirect(needFriendId(url));
  const locale = localeFromRequest(request);
  const form = await readFormData(request);
  try {
    const { id } = await createOffer(context.db, viewer.id, parseOfferInput(offerFieldsFromForm(form)));
    return redirect(`/trades/${id}?done=posted`);
  } catch (error) {
    return formError(error, locale);
  }
}

export const meta: Route.MetaFunction = (args) =>
  seoMeta(args, { title: args.loaderData?.title ?? translate(tradesMessages, localeOfMatches(args.matches), "newOfferTitle"), description: args.loaderData?.description, noindex: true });

export default function NewOffer({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(tradesMessages);
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">{t("newOfferTitle")}</h1>
      <OfferForm mode="new" error={refusalOf(actionData)?.message} initialWant={loaderData.want} rules={loaderData.rules} now={loaderData.now} tradeCosts={loaderData.tradeCosts} ownedCounts={loaderData.ownedCounts} />
    </div>
  );
}
