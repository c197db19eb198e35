import { Form, Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";
import type { OfferView } from "#app/features/trades/types.ts";
import { OfferCard } from "./offer-card";

const small = "rounded-full border px-3 py-1 text-xs font-bold";

/** /profile: the user's offers in every status (expired ones included) with their actions. */
export function MyOffers({ offers, now }: { offers: OfferView[]; now: string }) {
  const t = useT(tradesMessages);
  return (
    <section aria-labelledby="my-offers" className="space-y-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="my-offers" className="text-xl font-bold">
          {t("myOffers")}
        </h2>
        <Link to="/trades/new" className="rounded-full bg-brand-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-brand-800">
          {t("newOffer")}
        </Link>
      </div>
      {offers.length === 0 ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-slate-700">{t("myOffersEmpty")}</p>
      ) : (
        <ul className="space-y-3">
          {offers.map((offer) => {
            const canBump = offer.nextBumpAt !== null && offer.nextBumpAt <= now;
            return (
              <li key={offer.id}>
                <OfferCard offer={offer} now={now}>
                  <div className="flex flex-wrap gap-2">
                    {offer.status === "open" ? (
                      <Link to={`/trades/${offer.id}?edit=1`} className={`${small} border-slate-400 text-slate-800`}>
                        {t("edit")}
                      </Link>
                    ) : null}
                    {canBump ? (
                      <Form method="post" action={`/trades/${offer.id}`}>
                        <input type="hidden" name="intent" value="bump" />
                        <button type="submit" className={`${small} border-brand-700 text-brand-800`}>
                          {t("bump")}
                        </button>
                      </Form>
                    ) : null}
                    {["open", "expired", "negotiating"].includes(offer.status) ? (
                      <Form method="post" action={`/trades/${offer.id}`}>
                        <input type="hidden" name="intent" value="close" />
                        <button type="submit" className={`${small} border-slate-500 text-slate-800`}>
                          {t("close")}
                        </button>
                      </Form>
                    ) : null}
                    <Link to={`/trades/${offer.id}`} className={`${small} border-slate-300 text-slate-800`}>
                      {t("ownerActions")}
                    </Link>
                  </div>
                </OfferCard>
              </li>
            );
          })}
        </ul>
      )}
    </section>
  );
}
