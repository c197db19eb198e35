import { Form, Link, redirect, useNavigation } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { CardThumb } from "#app/features/cards/components/card-image.tsx";
import { CandidatesPageQuerySchema, ProposalFormSchema } from "#app/features/collection/collection.schema.ts";
import { CollectionError } from "#app/features/collection/errors.ts";
import { collectionMessages } from "#app/features/collection/messages.ts";
import { proposeTrade } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { deckWanting, tradeCandidatesPage } from "#app/pages/trade-candidates-page.server.ts";
import type { CandidatePair, TradeCandidate } from "#app/features/trade-candidates/trade-candidates.server.ts";
import { ResponseRecordLine } from "#app/features/users/components/response-record.tsx";
import { useShownName } from "#app/features/users/components/shown-name.ts";
import { requireViewer } from "#app/features/users/session.server.ts";
import { formError, withPageErrors } from "#app/lib/api.server.ts";
import { readQuery } from "#app/lib/input.server.ts";
import { cardName } from "#app/lib/card-name.ts";
import { cardPrint } from "#app/lib/card-print.ts";
import { refusalOf } from "#app/lib/form-refusal.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { displayRarity } from "#app/lib/rarity.ts";
import { seoMeta } from "#app/lib/seo.ts";
import { relativeTime } from "#app/lib/tokyo-time.ts";
import type { Route } from "./+types/collection.trades";

export const meta: Route.MetaFunction = (args) => {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(collectionMessages, locale, "candidatesTitle"), description: translate(collectionMessages, locale, "candidatesDescription"), noindex: true });
};

/** /collection/trades (signed in): トレード候補, ranked (docs/decisions/041). */
export const loader = withPageErrors(async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const page = await tradeCandidatesPage(context.db, viewer.id, readQuery(request, CandidatesPageQuerySchema));
  return { ...page, now: new Date().toISOString() };
});

/** 提案する: the chosen pairs with one candidate become an offer and a room with them. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const locale = localeFromRequest(request);
  // Posting an offer needs a friend ID: the profile first, then back here.
  if (!viewer.friendId) {
    const url = new URL(request.url);
    return redirect(`/profile?need=friendId&redirectTo=${encodeURIComponent(url.pathname + url.search)}`);
  }
  const form = await readFormData(request);
  const parsed = ProposalFormSchema.safeParse({
    partnerId: form.get("partnerId") ?? "",
    pairs: form.getAll("pair").map(String),
    only: form.get("only") ? String(form.get("only")) : undefined,
    deck: form.get("deck") ? String(form.get("deck")) : undefined,
  });
  if (!parsed.success) return formError(new CollectionError("invalid"), locale);
  const chosen = parsed.data.only ? [parsed.data.only] : parsed.data.pairs;
  try {
    const pairs = chosen.map((value) => {
      const [give, get] = value.split("|");
      return { give, get };
    });
    // Pairs found for a deck's missing cards are checked against those cards again.
    const deck = parsed.data.deck ? await deckWanting(context.db, viewer.id, parsed.data.deck) : null;
    if (parsed.data.deck && !deck) throw new CollectionError("pair_not_available");
    const { roomId } = await proposeTrade(context.db, viewer.id, parsed.data.partnerId, pairs, locale, { wanting: deck?.cards });
    return redirect(`/chat/${roomId}`);
  } catch (error) {
    return formError(error, locale, { partnerId: parsed.data.partnerId });
  }
}

const pairValue = (pair: CandidatePair) => `${pair.give.id}|${pair.get.id}`;

export default function CollectionTrades({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(collectionMessages);
  const { emptyReason, settings, focus, deck } = loaderData;
  // The player a friend-board post linked to comes first, and only once.
  const candidates = focus ? loaderData.candidates.filter((c) => c.userId !== focus.userId) : loaderData.candidates;
  const refusal = refusalOf(actionData);
  const refusedFor = (actionData as { partnerId?: string } | undefined)?.partnerId;
  return (
    <div className="mx-auto max-w-5xl space-y-4 px-3 py-4 sm:px-4">
      <div>
        <p className="text-sm">
          {deck ? (
            <Link to={`/deck-recipes/${encodeURIComponent(deck.slug)}`} className="text-brand-800 underline">
              {t("deckCandidatesBack")}
            </Link>
          ) : (
            <Link to="/collection" className="text-brand-800 underline">
              {t("candidatesBack")}
            </Link>
          )}
        </p>
        <h1 className="mt-1 text-2xl font-bold">{deck ? t("deckCandidatesHeading", { deck: deck.name }) : t("candidatesTitle")}</h1>
        <p className="mt-1 text-sm text-slate-700">{deck ? t("deckCandidatesIntro", { count: deck.missing }) : t("candidatesIntro")}</p>
        {deck ? (
          <p className="mt-1 text-sm">
            <Link to="/collection/trades" className="text-brand-800 underline">
              {t("deckCandidatesAll")}
            </Link>
          </p>
        ) : null}
      </div>
      {deck === null ? (
        <p role="status" className="rounded-lg border border-amber-300 bg-amber-50 p-3 text-sm">
          {t("deckNotFound")}
        </p>
      ) : null}
      {refusal && !refusedFor ? (
        <p role="alert" className="text-sm font-bold text-red-800">
          {refusal.message}
        </p>
      ) : null}
      {focus ? (
        <CandidateCard candidate={focus} now={loaderData.now} refusal={refusedFor === focus.userId ? refusal?.message : undefined} deckSlug={deck?.slug} />
      ) : focus === null && (!emptyReason || emptyReason === "none") ? (
        <p className="rounded-lg border border-slate-200 bg-white p-4 text-sm" data-testid="candidate-with-none">
          {t("candidateWithNone")}
        </p>
      ) : null}
      {focus !== undefined && candidates.length ? <h2 className="pt-2 text-lg font-bold">{t("otherCandidates")}</h2> : null}
      {focus && !candidates.length ? null : emptyReason ? (
        <div className="rounded-lg border border-slate-200 bg-white p-4 text-sm">
          <p>
            {emptyReason === "not_opted_in"
              ? t("candidatesNotOptedIn")
              : emptyReason === "no_spare"
                ? t("candidatesNoSpare", { keep: settings.keepCount })
                : emptyReason === "no_wants"
                  ? deck
                    ? t("deckNothingMissing")
                    : t("candidatesNoWants")
                  : t("candidatesEmpty")}
          </p>
          {emptyReason !== "none" && !(deck && emptyReason === "no_wants") ? (
            <p className="mt-2">
              <Link to="/collection#collection-settings" className="font-bold text-brand-800 underline">
                {t("candidatesOpenSettings")}
              </Link>
            </p>
          ) : null}
        </div>
      ) : (
        <>
          <p className="text-sm text-slate-700">
            {t("candidatesCount", { count: candidates.length })}
            {candidates.length >= loaderData.limit ? ` ${t("moreCandidatesHidden", { max: loaderData.limit })}` : ""}
          </p>
          <ol className="space-y-4">
            {candidates.map((candidate) => (
              <li key={candidate.userId}>
                <CandidateCard candidate={candidate} now={loaderData.now} refusal={refusedFor === candidate.userId ? refusal?.message : undefined} deckSlug={deck?.slug} />
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

function CandidateCard({ candidate, now, refusal, deckSlug }: { candidate: TradeCandidate; now: string; refusal?: string; deckSlug?: string }) {
  const t = useT(collectionMessages);
  const locale = useLocale();
  const shownName = useShownName();
  const navigation = useNavigation();
  const busy = navigation.state !== "idle" && navigation.formData?.get("partnerId") === candidate.userId;
  const headingId = `candidate-${candidate.userId}`;
  const hidden = candidate.pairCount - candidate.pairs.length;
  return (
    <article aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white p-3 sm:p-4">
      <h2 id={headingId} className="text-lg font-bold">
        {t("candidatePairsHeading", { name: shownName(candidate.displayName) })}
      </h2>
      <p className="mt-1 text-sm text-slate-700">
        {t("candidatePairs", { count: candidate.pairCount })}・{t("candidateActive", { time: relativeTime(candidate.lastActiveAt, now, locale, locale === "en" ? "just now" : "たった今") })}
      </p>
      <ResponseRecordLine record={candidate.record} />
      {candidate.answersRarely ? <p className="text-sm text-amber-800">{t("candidateRecordRare")}</p> : null}
      <Form method="post" className="mt-2">
        <input type="hidden" name="partnerId" value={candidate.userId} />
        {deckSlug ? <input type="hidden" name="deck" value={deckSlug} /> : null}
        <p aria-hidden="true" className="text-xs font-bold text-slate-700">
          {t("pairYouGive")} ⇄ {t("pairYouGet")}
        </p>
        <ul className="divide-y divide-slate-100">
          {candidate.pairs.map((pair) => {
            const value = pairValue(pair);
            const id = `${headingId}-${value}`.replace(/[^A-Za-z0-9_-]/g, "_");
            return (
              <li key={value} className="flex flex-col gap-2 py-2 sm:flex-row sm:items-center sm:gap-3">
                <div className="flex min-w-0 flex-1 items-center gap-3">
                  <input id={id} type="checkbox" name="pair" value={value} className="h-5 w-5 shrink-0" />
                  <label htmlFor={id} className="flex min-w-0 flex-1 flex-wrap items-center gap-x-2 gap-y-1 text-sm">
                    <PairCard label={t("pairYouGive")} card={pair.give} />
                    <span aria-hidden="true" className="font-bold">
                      ⇄
                    </span>
                    <PairCard label={t("pairYouGet")} card={pair.get} />
                    <span className="text-rarity">{displayRarity(pair.rarity)}</span>
                    <span className="text-slate-700">{pair.cost === null ? t("pairCostUnknown") : pair.cost === 0 ? t("pairCostFree") : t("pairCost", { cost: pair.cost.toLocaleString(locale === "en" ? "en-US" : "ja-JP") })}</span>
                  </label>
                </div>
                <button type="submit" name="only" value={value} disabled={busy} className="self-start rounded-full border border-brand-700 px-3 py-1 text-sm font-bold text-brand-800 disabled:opacity-50 sm:self-auto">
                  {t("proposeOne")}
                </button>
              </li>
            );
          })}
        </ul>
        {hidden > 0 ? <p className="text-xs text-slate-700">{t("morePairsHidden", { count: hidden })}</p> : null}
        <p className="mt-2 text-xs text-slate-700">{t("proposeHelp")}</p>
        <button type="submit" disabled={busy} className="mt-2 rounded-md bg-brand-700 px-3 py-2 text-sm font-bold text-white disabled:opacity-50">
          {t("propose")}
        </button>
        {refusal ? (
          <p role="alert" className="mt-2 text-sm font-bold text-red-800">
            {refusal}
          </p>
        ) : null}
      </Form>
    </article>
  );
}

function PairCard({ label, card }: { label: string; card: CandidatePair["give"] }) {
  const locale = useLocale();
  const print = cardPrint(card);
  return (
    <span className="offer-chip max-w-full shrink-0">
      <span className="sr-only">{label}: </span>
      <CardThumb face={card} />
      <span>{cardName(card, locale)}</span>
      {print ? <span className="offer-chip-print">{print}</span> : null}
    </span>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
