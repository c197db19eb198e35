import { useEffect, useId, useState } from "react";
import { useT } from "../../../lib/i18n";
import { decksMessages } from "../messages";

/** The deck as community-format text, with a copy button (a live region says whether it worked). */
export function DeckExport({ text }: { text: string }) {
  const t = useT(decksMessages);
  const id = useId();
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (status === "idle") return;
    const timer = setTimeout(() => setStatus("idle"), 3000);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <section aria-labelledby={`${id}-h`} className="space-y-2">
      <h2 id={`${id}-h`} className="text-lg font-bold">
        {t("exportHeading")}
      </h2>
      <label htmlFor={id} className="sr-only">
        {t("exportLabel")}
      </label>
      <textarea id={id} readOnly value={text} rows={8} className="block w-full rounded-md border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm" />
      <div className="flex items-center gap-3">
        <button
          type="button"
          onClick={() => {
            if (!navigator.clipboard) return setStatus("failed");
            navigator.clipboard.writeText(text).then(
              () => setStatus("copied"),
              () => setStatus("failed"),
            );
          }}
          className="rounded-md border border-slate-400 bg-white px-3 py-1.5 text-sm font-medium hover:border-brand-600"
        >
          {t("exportCopy")}
        </button>
        <span role="status" aria-live="polite" className="text-sm text-slate-700">
          {status === "copied" ? t("exportCopied") : status === "failed" ? t("exportFailed") : ""}
        </span>
      </div>
    </section>
  );
}
