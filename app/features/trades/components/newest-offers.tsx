import { Link } from "react-router";
import { useT } from "#app/lib/i18n.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";
import type { OfferListItem } from "#app/features/trades/types.ts";
import { BoardEmpty } from "./board-empty";
import { OfferCard } from "./offer-card";

/** The home page's newest offers, with a link to the whole board. */
export function NewestOffers({ offers, now }: { offers: OfferListItem[]; now: string }) {
  const t = useT(tradesMessages);
  return (
    <section aria-labelledby="newest-offers" className="space-y-4">
      <h2 id="newest-offers" className="text-xl font-bold">
        {t("newestOffers")}
      </h2>
      {offers.length ? (
        <ul className="grid gap-4 md:grid-cols-2">
          {offers.map((offer) => (
            <li key={offer.id}>
              <OfferCard offer={offer} now={now} />
            </li>
          ))}
        </ul>
      ) : (
        <BoardEmpty filtered={false} />
      )}
      <p className="text-sm">
        <Link to="/trades" className="text-brand-700 underline">
          {t("seeAllOffers")}
        </Link>
      </p>
    </section>
  );
}
