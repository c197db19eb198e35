import { useState } from "react";
import { useT } from "#app/lib/i18n.tsx";
import { chatMessages } from "#app/features/chat/messages.ts";

/** Small pieces of the room page: a trade-step button and a partner's friend ID with copy. */
export function StepButton(props: { label: string; done: boolean; mine?: boolean; waiting?: string | null; disabled: boolean; doneLabel: string; onClick: () => void }) {
  return (
    <li>
      <button
        type="button"
        onClick={props.onClick}
        disabled={props.disabled}
        aria-pressed={props.done || props.mine ? true : false}
        className={`rounded-full border px-3 py-1 text-sm font-bold ${
          props.done ? "border-green-600 bg-green-50 text-green-800" : props.mine ? "border-brand-700 bg-brand-50 text-brand-800" : "border-brand-700 bg-brand-700 text-white disabled:border-slate-300 disabled:bg-slate-100 disabled:text-slate-600"
        }`}
      >
        {props.label}
        {props.done ? `（${props.doneLabel}）` : props.waiting ? `（${props.waiting}）` : ""}
      </button>
    </li>
  );
}

export function FriendId({ label, value }: { label: string; value: string }) {
  const t = useT(chatMessages);
  const [copied, setCopied] = useState<"idle" | "ok" | "failed">("idle");
  return (
    <div className="mt-1 flex flex-wrap items-center gap-2">
      <span className="text-sm text-slate-700">{label}</span>
      <code className="rounded bg-slate-100 px-2 py-0.5 font-mono text-base" data-testid="partner-friend-id">
        {value}
      </code>
      <button
        type="button"
        className="rounded border border-slate-300 px-2 py-0.5 text-sm hover:bg-slate-100"
        onClick={async () => {
          try {
            await navigator.clipboard.writeText(value.replace(/-/g, ""));
            setCopied("ok");
          } catch {
            setCopied("failed");
          }
        }}
      >
        {t("copy")}
      </button>
      <span role="status" className="text-sm text-slate-600">
        {copied === "ok" ? t("copied") : copied === "failed" ? t("copyFailed") : ""}
      </span>
    </div>
  );
}
