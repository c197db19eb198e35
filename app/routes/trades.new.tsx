import { redirect } from "react-router";
import { offerFieldsFromForm, parseOfferInput } from "#app/features/trades/http.server.ts";
import { OfferForm } from "#app/features/trades/components/offer-form.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { offerPrefillFromParams } from "#app/features/trades/trades.schema.ts";
import { createOffer, offerPrefill } from "#app/features/trades/offers.server.ts";
import { loadTradeRules } from "#app/features/trades/trade-rules.server.ts";
import { rarityTradeCosts } from "#app/features/cards/cards.server.ts";
import { ownedCountsIfKept } from "#app/features/collection/collection.server.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { formError } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useT } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import { refusalOf } from "#app/lib/form-refusal.ts";
import type { Route } from "./+types/trades.new";
import { pageUrlOf } from "#app/lib/data-url.ts";

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
