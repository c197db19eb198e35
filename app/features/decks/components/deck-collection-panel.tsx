import { Link, useFetcher } from "react-router";
import { OutcomeLine, type Outcome } from "#app/components/ui/outcome-line.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { refusalOf } from "#app/lib/form-refusal.ts";
import { useT } from "#app/lib/i18n.tsx";
import { decksMessages } from "#app/features/decks/messages.ts";

/** A deck against the player's collection, as the deck page's loader sends it. */
export type DeckCollectionView = { missing: number; missingKinds: number };

/** What 足りないカードをほしいカードに追加 came to (the deck page's action). */
export type AddMissingAnswer = { ok: true; added: number; already: number; notTradeable: number };

/**
 * マイコレクションと比べる: how many copies the player lacks (あと N 枚) and the button that puts the
 * missing cards on their ほしいカード list. The page posts to itself, so a plain form works before
 * hydration too; the fetcher keeps the reader where they are and says what happened. The trade
 * candidates for the missing cards are one link away.
 */
export function DeckCollectionPanel({ state, deckSlug }: { state: DeckCollectionView; deckSlug: string }) {
  const t = useT(decksMessages);
  const fetcher = useFetcher<unknown>();
  const answer = fetcher.data;
  const refusal = refusalOf(answer);
  let outcome: Outcome = null;
  if (refusal) outcome = { kind: "error", text: refusal.message };
  else if (isAnswer(answer)) {
    const parts = [
      answer.added ? t("collectionAdded", { count: answer.added }) : null,
      answer.already ? t("collectionAlready", { count: answer.already }) : null,
      answer.notTradeable ? t("collectionNotTradeable", { count: answer.notTradeable }) : null,
    ].filter((p): p is string => p !== null);
    outcome = { kind: "success", text: parts.length ? `${parts.join("。")}。` : t("collectionNothingToAdd") };
  }
  return (
    <section aria-labelledby="deck-collection" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4" data-testid="deck-collection">
      <h2 id="deck-collection" className="text-lg font-bold">
        {t("collectionHeading")}
      </h2>
      <p className="text-lg font-bold">{state.missing ? t("collectionMissing", { count: state.missing, kinds: state.missingKinds }) : t("collectionComplete")}</p>
      <p className="text-sm text-slate-700">{t("collectionExactPrint")}</p>
      {state.missing ? (
        <fetcher.Form method="post" className="space-y-2">
          <input type="hidden" name="intent" value="want-missing" />
          <SubmitButton pending={fetcher.state !== "idle"} pendingText={t("collectionAddPending")}>
            {t("collectionAddMissing")}
          </SubmitButton>
          <OutcomeLine outcome={outcome} />
        </fetcher.Form>
      ) : null}
      {state.missing ? (
        <p>
          <Link to={`/collection/trades?deck=${encodeURIComponent(deckSlug)}`} className="font-bold text-brand-800 underline">
            {t("collectionCandidates")}
          </Link>
        </p>
      ) : null}
    </section>
  );
}

function isAnswer(value: unknown): value is AddMissingAnswer {
  return typeof value === "object" && value !== null && (value as { ok?: unknown }).ok === true;
}
