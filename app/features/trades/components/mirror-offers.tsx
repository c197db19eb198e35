import { useState } from "react";
import { send } from "#app/lib/send.ts";
import { displayRarity } from "#app/lib/rarity.ts";
import { useT } from "#app/lib/i18n.tsx";
import { tradeErrorMessages } from "#app/features/trades/error-messages.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";
import type { MirrorOffer } from "#app/features/trades/mirror-offers.server.ts";

type Status = "idle" | "closing" | "closed" | { error: string };

/**
 * Shown in a completed trade room: the user's own open offers the trade made pointless, each
 * with a button that closes it through the offers API (the page stays where it is).
 */
export function MirrorOffers({ offers }: { offers: MirrorOffer[] }) {
  const t = useT(tradesMessages);
  const te = useT(tradeErrorMessages);
  const [status, setStatus] = useState<Record<string, Status>>({});
  if (!offers.length) return null;
  const close = async (id: string) => {
    setStatus((s) => ({ ...s, [id]: "closing" }));
    try {
      const sent = await send(`/api/trades/${id}`, { json: { action: "close" } });
      if (sent.ok) return setStatus((s) => ({ ...s, [id]: "closed" }));
      setStatus((s) => ({ ...s, [id]: { error: sent.refusal?.message ?? te("badRequest") } }));
    } catch {
      setStatus((s) => ({ ...s, [id]: { error: te("badRequest") } }));
    }
  };
  const names = (cards: MirrorOffer["give"]) => cards.map((c) => `${c.name} ${displayRarity(c.rarity)}`).join("、");
  return (
    <section aria-labelledby="mirror-offers" className="rounded-lg border border-amber-300 bg-amber-50 p-3" data-testid="mirror-offers">
      <h2 id="mirror-offers" className="font-bold">
        {t("mirrorHeading")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("mirrorIntro")}</p>
      <ul className="mt-2 space-y-2">
        {offers.map((offer) => {
          const s = status[offer.id] ?? "idle";
          return (
            <li key={offer.id} className="flex flex-wrap items-center justify-between gap-2 rounded border border-amber-200 bg-white px-3 py-2 text-sm">
              <span>
                <a href={`/trades/${offer.id}`} className="text-brand-700 underline">
                  {t("give")}: {names(offer.give)} ／ {t("want")}: {names(offer.want)}
                </a>
              </span>
              {s === "closed" ? (
                <span role="status" className="font-bold text-green-800">
                  {t("mirrorClosed")}
                </span>
              ) : (
                <button
                  type="button"
                  disabled={s === "closing"}
                  onClick={() => void close(offer.id)}
                  className="rounded-full border border-brand-700 px-3 py-1 font-bold text-brand-800 hover:bg-brand-50 disabled:opacity-60"
                >
                  {t("mirrorClose")}
                </button>
              )}
              {typeof s === "object" ? (
                <span role="alert" className="w-full text-red-700">
                  {s.error}
                </span>
              ) : null}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
