import { useEffect, useState } from "react";
import { useT } from "../../../lib/i18n";
import { usersMessages } from "../messages";

/** Copies `text` to the clipboard and says so in a live region. */
export function CopyButton({ text, label }: { text: string; label: string }) {
  const t = useT(usersMessages);
  const [status, setStatus] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (status === "idle") return;
    const timer = setTimeout(() => setStatus("idle"), 3000);
    return () => clearTimeout(timer);
  }, [status]);
  return (
    <span className="inline-flex items-center gap-2">
      <button
        type="button"
        aria-label={label}
        onClick={() => {
          navigator.clipboard.writeText(text).then(
            () => setStatus("copied"),
            () => setStatus("failed"),
          );
        }}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm hover:border-brand-600"
      >
        {t("profileCopy")}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-slate-600">
        {status === "copied" ? t("profileCopied") : status === "failed" ? t("profileCopyFailed") : ""}
      </span>
    </span>
  );
}
