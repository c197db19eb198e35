import { Suspense, use, type ComponentProps } from "react";
import { Form, Link, redirect } from "react-router";
import { OfferCard } from "#app/features/trades/components/offer-card.tsx";
import { RespondButton } from "#app/features/trades/components/respond-button.tsx";
import { AnyCardChoice } from "#app/features/trades/components/any-card-choice.tsx";
import { respondWithAnyCard } from "#app/features/chat/chat.server.ts";
import { OfferReportFields } from "#app/features/trades/components/offer-report-fields.tsx";
import { offerFieldsFromForm } from "#app/features/trades/http.server.ts";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { OfferPageQuerySchema, readOfferPage, type OfferDone } from "#app/pages/offer-page.server.ts";
import { isOfferAction, runOfferAction } from "#app/features/trades/offer-actions.server.ts";
import { tokyoDateTime } from "#app/lib/tokyo-time.ts";
import { useOnceBanner } from "#app/features/trades/components/use-once-banner.ts";
import { getViewer, requireViewer } from "#app/features/users/session.server.ts";
import { isDeletedUser, useShownName } from "#app/features/users/components/shown-name.ts";
import { ResponseRecordLine } from "#app/features/users/components/response-record.tsx";
import { PublicProgressLine } from "#app/features/collection/components/collection-progress.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { TradeError } from "#app/features/trades/errors.ts";
import { formError, withPageErrors } from "#app/lib/api.server.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { seoMeta } from "#app/lib/seo.ts";
import { ShareButtons } from "#app/features/share/components/share-buttons.tsx";
import { offerShareText } from "#app/features/share/share-text.ts";
import { WantChipButton } from "#app/features/notifications/components/want-button.tsx";
import { cardName } from "#app/lib/card-name.ts";
import { refusalOf } from "#app/lib/form-refusal.ts";
import type { Route } from "./+types/trade";
import { pageUrlOf } from "#app/lib/data-url.ts";
import { readQuery } from "#app/lib/input.server.ts";

type Done = OfferDone;
const DONE_OF = { save: "saved", bump: "bumped", close: "closed", complete: "completed", report: "reported" } as const satisfies Record<string, Done>;

export const loader = withPageErrors(async function loader({ request, params, context }: Route.LoaderArgs) {
  const url = pageUrlOf(request);
  const viewer = await getViewer(request, context);
  const page = await readOfferPage(context.db, params.id, viewer?.id ?? null, localeFromRequest(request), readQuery(request, OfferPageQuerySchema));
  return { now: new Date().toISOString(), ...page, returnTo: url.pathname };
});

export const meta: Route.MetaFunction = (args) => {
  const { loaderData: data } = args;
  const locale = localeOfMatches(args.matches);
  const title = data?.title ?? translate(tradesMessages, locale, "boardTitle");
  return seoMeta(args, {
    title,
    description: data?.description,
    image: data?.shareImage ?? null,
    breadcrumbs: [
      { name: translate(tradesMessages, locale, "boardTitle"), path: "/trades" },
      { name: title, path: `/trades/${data?.offer.id ?? ""}` },
    ],
    // Only open offers are worth finding (and only they are in the sitemap).
    noindex: data?.offer.status !== "open",
  });
};

export async function action({ request, params, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const locale = localeFromRequest(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "");
  const offerId = params.id;
  const back = (done: Done) => redirect(`/trades/${offerId}?done=${done}`);
  // Before hydration too: 交渉する without a friend ID goes to the profile first.
  if (intent === "respond" && !viewer.friendId) {
    return redirect(`/profile?need=friendId&redirectTo=${encodeURIComponent(`/trades/${offerId}`)}`);
  }
  if (!isOfferAction(intent)) return formError(new TradeError("bad_request"), locale, { intent });
  // 交渉する with a card chosen from the owner's collection (a 何でも可 offer): the room opens naming it.
  const chosenCard = intent === "respond" ? String(form.get("card") ?? "").trim() : "";
  if (chosenCard) {
    try {
      const { roomId } = await respondWithAnyCard(context.db, { offerId, userId: viewer.id, cardId: chosenCard });
      return redirect(`/chat/${roomId}`);
    } catch (error) {
      return formError(error, locale, { intent });
    }
  }
  try {
    const input = intent === "save" ? offerFieldsFromForm(form) : { reason: String(form.get("reason") ?? "") };
    const outcome = await runOfferAction(context.db, viewer.id, offerId, intent, input);
    switch (outcome.action) {
      case "respond":
        return redirect(`/chat/${outcome.roomId}`);
      case "delete":
      case "block":
        return redirect("/trades");
      default:
        return back(DONE_OF[outcome.action]);
    }
  } catch (error) {
    return formError(error, locale, { intent });
  }
}

const button = "rounded-full border px-4 py-1.5 text-sm font-bold";

type OfferFormModule = typeof import("#app/features/trades/components/offer-form.tsx");
type Tracked<T> = Promise<T> & { status?: "fulfilled" | "rejected"; value?: T; reason?: unknown };
let offerFormModule: Tracked<OfferFormModule> | undefined;

/**
 * Only the offer's owner edits it: the form (and its card search) is not part of a visitor's load
 * in the browser, where its module is loaded when an owner first edits. On the server it is loaded
 * with this route, and the promise carries its outcome the way React's `use` reads it, so the edit
 * page is rendered whole on every request: with `React.lazy` the first one after a start sent an
 * empty place that only a script filled in, and a browser without JavaScript showed no form.
 */
function offerFormModuleLoaded(): Tracked<OfferFormModule> {
  if (!offerFormModule) {
    const loading: Tracked<OfferFormModule> = import("#app/features/trades/components/offer-form.tsx");
    loading.then(
      (module) => {
        loading.status = "fulfilled";
        loading.value = module;
      },
      (reason: unknown) => {
        loading.status = "rejected";
        loading.reason = reason;
        // The route's error page shows the failure; the next edit loads the module again.
        offerFormModule = undefined;
      },
    );
    offerFormModule = loading;
  }
  return offerFormModule;
}
if (import.meta.env.SSR) void offerFormModuleLoaded();

function OfferForm(props: ComponentProps<OfferFormModule["OfferForm"]>) {
  const { OfferForm: Form } = use<OfferFormModule>(offerFormModuleLoaded() as Promise<OfferFormModule>);
  return <Form {...props} />;
}

export default function TradePage({ loaderData, actionData }: Route.ComponentProps) {
  const { offer, isOwner, signedIn, editing, now, myRoomId } = loaderData;
  const done = useOnceBanner(loaderData.done);
  const t = useT(tradesMessages);
  const ownerName = useShownName();
  const locale = useLocale();
  const error = refusalOf(actionData)?.message;
  if (editing && loaderData.rules) {
    return (
      <div className="space-y-6">
        <h1 className="text-2xl font-bold">{t("editOfferTitle")}</h1>
        <Suspense fallback={null}>
          <OfferForm
            mode="edit"
            error={error}
            initialGive={offer.give.map((c) => ({ cardId: c.cardId, name: c.name, nameEn: c.nameEn, rarity: c.rarity, count: c.count, setCode: c.setCode, number: c.number }))}
            initialWant={offer.want.map((c) => ({ cardId: c.cardId, name: c.name, nameEn: c.nameEn, rarity: c.rarity, count: c.count, setCode: c.setCode, number: c.number }))}
            initialComment={offer.comment}
            initialGiveAny={offer.giveAny}
            initialWantAny={offer.wantAny}
            intent="save"
            rules={loaderData.rules}
            now={now}
            tradeCosts={loaderData.tradeCosts}
            ownedCounts={loaderData.ownerCounts}
          />
        </Suspense>
        <p>
          <Link to={`/trades/${offer.id}`} className="text-brand-700 underline">
            {t("cancel")}
          </Link>
        </p>
      </div>
    );
  }
  const canBumpNow = offer.nextBumpAt !== null && offer.nextBumpAt <= now;
  return (
    <div className="space-y-6">
      <p className="text-sm">
        <Link to="/trades" className="text-brand-700 underline">
          {t("boardTitle")}
        </Link>
      </p>
      <h1 className="text-2xl font-bold">{t(isDeletedUser(offer.ownerName) ? "offerTitleDeleted" : "offerTitle", { name: ownerName(offer.ownerName) })}</h1>
      {done ? (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 font-medium text-emerald-900">
          {t(done)}
        </p>
      ) : null}
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 px-3 py-2 font-medium text-red-800">
          {error}
        </p>
      ) : null}
      <OfferCard
        offer={{ ...offer, ruleClosed: loaderData.ruleClosed }}
        now={now}
        headingLevel={2}
        giveAction={
          isOwner
            ? (card) =>
                loaderData.givesNotOwned.includes(card.cardId) ? (
                  <span className="block text-xs font-medium text-amber-800" data-testid="give-not-owned">
                    {t("notInCollection")}
                  </span>
                ) : null
            : (card) => (
                <WantChipButton
                  cardId={card.cardId}
                  name={cardName(card, locale)}
                  wanted={loaderData.wantedCardIds ? loaderData.wantedCardIds.includes(card.cardId) : null}
                  returnTo={loaderData.returnTo}
                />
              )
        }
      >
        {offer.status === "open" ? <span>{t("expiresAt", { time: tokyoDateTime(offer.expiresAt, locale) })}</span> : null}
      </OfferCard>
      {isOwner && loaderData.givesNotOwned.length > 0 ? (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="gives-not-owned-warning">
          {t("notInCollectionPosted")}
        </p>
      ) : null}
      <ResponseRecordLine record={loaderData.ownerRecord} />
      {loaderData.ownerProgress ? <PublicProgressLine progress={loaderData.ownerProgress} locale={locale} /> : null}
      {offer.status === "open" ? <ShareButtons path={`/trades/${offer.id}`} text={offerShareText(locale, offer)} /> : null}

      {isOwner ? (
        <section aria-labelledby="owner-actions" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
          <h2 id="owner-actions" className="font-bold">
            {t("ownerActions")}
          </h2>
          <div className="flex flex-wrap gap-2">
            {offer.status === "open" ? (
              <Link to={`/trades/${offer.id}?edit=1`} className={`${button} border-slate-400 hover:bg-slate-50`}>
                {t("edit")}
              </Link>
            ) : null}
            {offer.nextBumpAt !== null ? (
              <Form method="post">
                <input type="hidden" name="intent" value="bump" />
                <button type="submit" disabled={!canBumpNow} className={`${button} border-brand-700 text-brand-800 hover:bg-brand-50 disabled:border-slate-300 disabled:text-slate-500`}>
                  {t("bump")}
                </button>
              </Form>
            ) : null}
            {["open", "expired", "negotiating"].includes(offer.status) ? (
              <>
                <Form method="post">
                  <input type="hidden" name="intent" value="complete" />
                  <button type="submit" className={`${button} border-sky-700 text-sky-800 hover:bg-sky-50`}>
                    {t("markCompleted")}
                  </button>
                </Form>
                <Form method="post">
                  <input type="hidden" name="intent" value="close" />
                  <button type="submit" className={`${button} border-slate-500 text-slate-800 hover:bg-slate-50`}>
                    {t("close")}
                  </button>
                </Form>
              </>
            ) : null}
          </div>
          {offer.nextBumpAt !== null && !canBumpNow ? (
            <p className="text-sm text-slate-600">{t("bumpNext", { time: tokyoDateTime(offer.nextBumpAt, locale) })}</p>
          ) : null}
          {offer.status !== "negotiating" ? (
            <details className="rounded-md border border-red-200 p-3">
              <summary className="cursor-pointer font-bold text-red-700">{t("delete")}</summary>
              <Form method="post" className="mt-2 space-y-2">
                <input type="hidden" name="intent" value="delete" />
                <p className="text-sm">{t("deleteConfirm")}</p>
                <button type="submit" className="rounded-full bg-red-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-red-800">
                  {t("deleteConfirmYes")}
                </button>
              </Form>
            </details>
          ) : null}
        </section>
      ) : (
        <section aria-label={t("respond")} className="space-y-4">
          {offer.status === "open" && !loaderData.ruleClosed ? (
            loaderData.anyChoice?.shared ? (
              <>
                <AnyCardChoice
                  offerId={offer.id}
                  ownerName={ownerName(offer.ownerName)}
                  side={loaderData.anyChoice.side}
                  cards={loaderData.anyChoice.cards}
                  total={loaderData.anyChoice.total}
                  signedIn={signedIn}
                />
                {/* More cards than the page lists: the room's search finds the rest. */}
                {signedIn && loaderData.anyChoice.total > loaderData.anyChoice.cards.length ? <RespondButton offerId={offer.id} signedIn={signedIn} /> : null}
              </>
            ) : (
              <>
                {loaderData.anyChoice ? (
                  <p className="text-sm text-slate-700" data-testid="any-card-not-shared">
                    {t(loaderData.anyChoice.reason === "none_listed" ? "anyChoiceNoneListed" : "anyChoiceNotShared", { name: ownerName(offer.ownerName) })}
                  </p>
                ) : null}
                <RespondButton offerId={offer.id} signedIn={signedIn} />
              </>
            )
          ) : offer.status === "open" ? (
            // A rule closed a card of it: the mark above says why; only an existing room goes on.
            myRoomId ? (
              <Link to={`/chat/${myRoomId}`} className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-800 hover:bg-brand-50">
                {t("openMyRoom")}
              </Link>
            ) : null
          ) : (
            <div className="flex flex-wrap items-center gap-3" data-testid="offer-not-open">
              <p className="text-sm text-slate-700">{t(offer.status === "completed" ? "offerNotOpenCompleted" : "offerNotOpenOther")}</p>
              {myRoomId ? (
                <Link to={`/chat/${myRoomId}`} className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-800 hover:bg-brand-50">
                  {t("openMyRoom")}
                </Link>
              ) : null}
            </div>
          )}
          {/* A deleted poster can be neither reported nor blocked: the account is gone. */}
          {signedIn && !isDeletedUser(offer.ownerName) ? (
            <div className="grid gap-3 sm:grid-cols-2">
              <details className="rounded-md border border-slate-200 bg-white p-3">
                <summary className="cursor-pointer font-bold">{t("report")}</summary>
                <Form method="post" className="mt-2 space-y-2">
                  <input type="hidden" name="intent" value="report" />
                  <OfferReportFields />
                  <SubmitButton>{t("reportSubmit")}</SubmitButton>
                </Form>
              </details>
              <details className="rounded-md border border-slate-200 bg-white p-3">
                <summary className="cursor-pointer font-bold">{t("block")}</summary>
                <Form method="post" className="mt-2 space-y-2">
                  <input type="hidden" name="intent" value="block" />
                  <p className="text-sm">{t("blockConfirm", { name: ownerName(offer.ownerName) })}</p>
                  <button type="submit" className="rounded-full bg-red-700 px-4 py-1.5 text-sm font-bold text-white">
                    {t("block")}
                  </button>
                </Form>
              </details>
            </div>
          ) : null}
        </section>
      )}
    </div>
  );
}

/** A missing or hidden offer keeps the site's localised 404 page; the header and footer stay. */
export function ErrorBoundary() {
  return <RouteError />;
}
