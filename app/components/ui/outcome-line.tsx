/** What an admin form's last action came to: a success line, or an error read out at once. */
export type Outcome = { kind: "success" | "error"; text: string } | null;

/**
 * The outcome of a form's last action, in a polite live region that is always present (so a
 * screen reader hears each new outcome); an error is an alert. `multiline` keeps the line breaks
 * of an error that lists several lines (a CSV's bad rows).
 */
export function OutcomeLine({ outcome, multiline = false }: { outcome: Outcome; multiline?: boolean }) {
  return (
    <div aria-live="polite">
      {outcome ? (
        <p
          role={outcome.kind === "error" ? "alert" : "status"}
          className={outcome.kind === "error" ? `${multiline ? "whitespace-pre-line " : ""}font-medium text-red-700` : "font-medium text-green-800"}
        >
          {outcome.text}
        </p>
      ) : null}
    </div>
  );
}
