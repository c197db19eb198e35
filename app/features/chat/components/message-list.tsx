import { useEffect, useLayoutEffect, useRef, useState } from "react";
import { useT } from "#app/lib/i18n.tsx";
import { tokyoDateTime } from "#app/lib/tokyo-time.ts";
import { chatMessages, type ChatMessageKey } from "#app/features/chat/messages.ts";
import type { ChatMessage } from "#app/features/chat/protocol.ts";
import { MessageBody } from "./message-body";
import { ReportReasonPicker } from "#app/components/report-reasons.tsx";

// The room's message list: system lines, the player's and the partner's messages (with 通報), and
// messages still waiting to be sent.
const SYSTEM_KEYS: Record<string, ChatMessageKey> = {
  card_chosen: "sysCardChosen",
  agree: "sysAgree",
  agreed: "sysAgreed",
  friend_requested: "sysFriendRequested",
  game_trade_requested: "sysGameTradeRequested",
  complete: "sysComplete",
  completed: "sysCompleted",
  cancel: "sysCancel",
};

export function MessageList(props: {
  messages: ChatMessage[];
  meId: string;
  nameOf: (id: string | null) => string;
  locale: "ja" | "en";
  hasOlder: boolean;
  loadingOlder: boolean;
  loadOlder: () => Promise<void>;
  outbox: { clientId: string; body: string; attempts: number }[];
  report: (messageId: string, reason: string) => Promise<boolean>;
  connection: string;
}) {
  const t = useT(chatMessages);
  const scroller = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);
  const previousHeight = useRef(0);
  const previousFirst = useRef<string | undefined>(props.messages[0]?.id);

  // New messages keep the view at the bottom (when it was there); older history loaded above
  // keeps the message the reader was looking at in place.
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const first = props.messages[0]?.id;
    if (first !== previousFirst.current && previousHeight.current) {
      el.scrollTop += el.scrollHeight - previousHeight.current;
    } else if (stickToBottom.current) {
      el.scrollTop = el.scrollHeight;
    }
    previousFirst.current = first;
    previousHeight.current = el.scrollHeight;
  }, [props.messages, props.outbox]);

  useEffect(() => {
    const el = scroller.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, []);

  return (
    <section aria-labelledby="chat-messages">
      <h2 id="chat-messages" className="sr-only">
        {t("messagesLabel")}
      </h2>
      <div
        ref={scroller}
        role="log"
        aria-live="polite"
        aria-label={t("messagesLabel")}
        tabIndex={0}
        className="h-[max(12rem,calc(100dvh_-_24rem))] overflow-y-auto rounded-lg border md:h-[max(14rem,calc(100dvh_-_19rem))] border-slate-200 bg-white p-3"
        onScroll={(e) => {
          const el = e.currentTarget;
          stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
          previousHeight.current = el.scrollHeight;
          if (el.scrollTop < 60 && props.hasOlder && !props.loadingOlder) void props.loadOlder();
        }}
      >
        {props.hasOlder ? (
          <p className="mb-2 text-center">
            <button type="button" className="text-sm text-brand-700 underline" onClick={() => void props.loadOlder()} disabled={props.loadingOlder}>
              {props.loadingOlder ? t("loadingOlder") : t("loadOlder")}
            </button>
          </p>
        ) : null}
        {props.messages.length === 0 && props.outbox.length === 0 ? <p className="text-center text-sm text-slate-600">{t("empty")}</p> : null}
        <ul className="flex flex-col gap-2" data-testid="chat-messages">
          {props.messages.map((m) =>
            m.kind === "system" ? (
              <li key={m.id} data-seq={m.seq} data-kind="system" className="text-center text-xs text-slate-700">
                <span className="inline-block rounded-full bg-slate-100 px-3 py-1">
                  {t(SYSTEM_KEYS[m.body] ?? "errorUnknown", { name: m.senderId === props.meId ? t("you") : t("nameSan", { name: props.nameOf(m.senderId) }) })}
                </span>{" "}
                <time dateTime={m.createdAt} className="text-slate-600">
                  {tokyoDateTime(m.createdAt, props.locale)}
                </time>
              </li>
            ) : (
              <MessageItem key={m.id} message={m} mine={m.senderId === props.meId} name={props.nameOf(m.senderId)} locale={props.locale} report={props.report} />
            ),
          )}
          {props.outbox.map((p) => (
            <li key={p.clientId} data-pending="true" className="ml-auto max-w-[85%] rounded-lg bg-brand-50 px-3 py-2 text-slate-700 opacity-80">
              <MessageBody body={p.body} />
              <span className="text-xs text-slate-600">{p.attempts > 0 ? t("retrying") : t("sending")}</span>
            </li>
          ))}
        </ul>
      </div>
      {props.connection === "connecting" ? <p className="mt-1 text-xs text-slate-600">{t("connecting")}</p> : null}
    </section>
  );
}

function MessageItem(props: { message: ChatMessage; mine: boolean; name: string; locale: "ja" | "en"; report: (id: string, reason: string) => Promise<boolean> }) {
  const t = useT(chatMessages);
  const [reporting, setReporting] = useState(false);
  const [reason, setReason] = useState("");
  const [reported, setReported] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const m = props.message;
  return (
    <li data-seq={m.seq} data-kind="text" data-mine={props.mine} className={`max-w-[85%] ${props.mine ? "ml-auto" : "mr-auto"}`}>
      <div className={`rounded-lg px-3 py-2 ${props.mine ? "bg-brand-100 text-slate-900" : "bg-slate-100 text-slate-900"}`}>
        <span className="sr-only">{props.name}: </span>
        <MessageBody body={m.body} />
      </div>
      <div className={`mt-0.5 flex gap-2 text-xs text-slate-600 ${props.mine ? "justify-end" : ""}`}>
        <time dateTime={m.createdAt}>{tokyoDateTime(m.createdAt, props.locale)}</time>
        {!props.mine && !reported ? (
          <button type="button" className="underline" onClick={() => setReporting((v) => !v)} aria-expanded={reporting}>
            {t("report")}
          </button>
        ) : null}
        {reported ? <span role="status">{t("reported")}</span> : null}
      </div>
      {reporting && !reported ? (
        <form
          className="mt-1 flex flex-col gap-1 rounded border border-slate-200 bg-white p-2"
          onSubmit={async (e) => {
            e.preventDefault();
            if (!reason.trim()) {
              setError(t("errorReasonRequired"));
              return;
            }
            if (await props.report(m.id, reason)) {
              setReported(true);
              setReporting(false);
            }
          }}
        >
          <ReportReasonPicker
            id={`report-preset-${m.id}`}
            labelClassName="text-xs font-bold"
            selectClassName="rounded border border-slate-300 bg-white p-1 text-sm"
            onPick={(text) => {
              setReason(text);
              setError(null);
            }}
          />
          <label className="text-xs font-bold" htmlFor={`report-${m.id}`}>
            {t("reportHeading")}：{t("reportReason")}
          </label>
          <textarea
            id={`report-${m.id}`}
            value={reason}
            maxLength={500}
            onChange={(e) => {
              setReason(e.target.value);
              setError(null);
            }}
            placeholder={t("reportReasonPlaceholder")}
            className="rounded border border-slate-300 p-1 text-sm"
            rows={2}
          />
          {error ? <p className="text-xs text-red-700">{error}</p> : null}
          <div className="flex gap-2">
            <button type="submit" className="rounded bg-red-700 px-2 py-0.5 text-xs text-white">
              {t("reportSubmit")}
            </button>
            <button type="button" className="text-xs underline" onClick={() => setReporting(false)}>
              {t("reportCancel")}
            </button>
          </div>
        </form>
      ) : null}
    </li>
  );
}
