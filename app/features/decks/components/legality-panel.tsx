import { useT } from "#app/lib/i18n.tsx";
import { decksMessages } from "#app/features/decks/messages.ts";
import type { DeckLegality, DeckProblem } from "#app/features/decks/rules.ts";

export function useProblemText() {
  const t = useT(decksMessages);
  return (problem: DeckProblem): string => {
    switch (problem.code) {
      case "card_count":
        return t("probCardCount", { count: problem.count });
      case "too_many_copies":
        return t("probTooManyCopies", { name: problem.name, count: problem.count });
      case "no_basic":
        return t("probNoBasic");
      case "energy_count":
        return t("probEnergyCount", { count: problem.count });
    }
  };
}

/** 構築可能, or what is wrong in words; unknown data is said to be unknown. */
export function LegalityPanel({ legality, headingLevel = 2 }: { legality: DeckLegality; headingLevel?: 2 | 3 }) {
  const t = useT(decksMessages);
  const text = useProblemText();
  const Heading = headingLevel === 2 ? "h2" : "h3";
  const tone =
    legality.status === "legal" ? "border-green-300 bg-green-50 text-green-900"
    : legality.status === "unknown" ? "border-amber-300 bg-amber-50 text-amber-900"
    : "border-red-300 bg-red-50 text-red-900";
  return (
    <section aria-labelledby="deck-legality" className={`rounded-lg border p-4 ${tone}`} data-legality={legality.status}>
      <Heading id="deck-legality" className="text-sm font-bold">
        {t("legalityHeading")}
      </Heading>
      <p className="mt-1 text-lg font-bold">{legality.status === "legal" ? t("legal") : legality.status === "unknown" ? t("unknownStatus") : t("illegal")}</p>
      {legality.problems.length || legality.basicUnknown ? (
        <ul className="mt-2 list-disc space-y-1 pl-5 text-sm">
          {legality.problems.map((problem, i) => (
            <li key={i}>{text(problem)}</li>
          ))}
          {legality.basicUnknown ? <li>{t("probBasicUnknown")}</li> : null}
        </ul>
      ) : null}
      {legality.unknownCards.length ? <p className="mt-2 text-sm">{t("unknownCards", { names: legality.unknownCards.join("、") })}</p> : null}
    </section>
  );
}
