import { useEffect, useState } from "react";

type CopyButtonProps = {
  text: string;
  /** What the button says (コピー). */
  buttonText: string;
  /** Said in the live region after the copy worked / failed; cleared after 3 s. */
  copiedText: string;
  failedText: string;
  /** A fuller name for screen readers when the button's text alone is vague. */
  ariaLabel?: string;
  className?: string;
};

/** Copies `text` to the clipboard and says whether it worked in a live region. */
export function CopyButton({ text, buttonText, copiedText, failedText, ariaLabel, className }: CopyButtonProps) {
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
        aria-label={ariaLabel}
        onClick={() => {
          // No clipboard API (an insecure origin, an old browser): say so instead of doing nothing.
          if (!navigator.clipboard) return setStatus("failed");
          navigator.clipboard.writeText(text).then(
            () => setStatus("copied"),
            () => setStatus("failed"),
          );
        }}
        className={className ?? "rounded-md border border-slate-300 bg-white px-2 py-1 text-sm hover:border-brand-600"}
      >
        {buttonText}
      </button>
      <span role="status" aria-live="polite" className="text-sm text-slate-600">
        {status === "copied" ? copiedText : status === "failed" ? failedText : ""}
      </span>
    </span>
  );
}
