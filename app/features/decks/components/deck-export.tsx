import { useId } from "react";
import { CopyButton } from "../../../components/ui/copy-button";
import { useT } from "../../../lib/i18n";
import { decksMessages } from "../messages";

/** The deck as community-format text, with a copy button (a live region says whether it worked). */
export function DeckExport({ text }: { text: string }) {
  const t = useT(decksMessages);
  const id = useId();
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-2">
      <h2 id={`${id}-h`} className="text-lg font-bold">
        {t("exportHeading")}
      </h2>
      <label htmlFor={id} className="sr-only">
        {t("exportLabel")}
      </label>
      <textarea id={id} readOnly value={text} rows={8} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" />
      <CopyButton
        text={text}
        buttonText={t("exportCopy")}
        copiedText={t("exportCopied")}
        failedText={t("exportFailed")}
        className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:border-brand-600"
      />
    </section>
  );
}
