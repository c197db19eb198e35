import { defineMessages, useT } from "#app/lib/i18n.tsx";

/** What the page shows of a response record (response-record.server.ts): no stars, only the facts. */
export type ResponseRecordView = { rooms: number; answered: number; replyRate: number | null; typicalReplySeconds: number | null };

export const responseRecordMessages = defineMessages({
  ja: {
    heading: "返信の記録（30日間）",
    rate: "返信率 {rate}%（新しい交渉 {rooms}件）",
    typical: "返信まで 通常{time}",
    none: "30日間の新しい交渉はまだありません",
    minutes: "約{count}分",
    hours: "約{count}時間",
    days: "約{count}日",
  },
  en: {
    heading: "Replies (last 30 days)",
    rate: { one: "Replies to {rate}% ({rooms} new room)", other: "Replies to {rate}% ({rooms} new rooms)" },
    typical: "Usually replies in {time}",
    none: "No new rooms in the last 30 days",
    minutes: { one: "about {count} minute", other: "about {count} minutes" },
    hours: { one: "about {count} hour", other: "about {count} hours" },
    days: { one: "about {count} day", other: "about {count} days" },
  },
});

/** A median reply time in the largest whole unit (at least a minute). */
export function replyTimeUnit(seconds: number): { unit: "minutes" | "hours" | "days"; count: number } {
  const minutes = Math.max(1, Math.round(seconds / 60));
  if (minutes < 60) return { unit: "minutes", count: minutes };
  const hours = Math.round(seconds / 3600);
  if (hours < 24) return { unit: "hours", count: hours };
  return { unit: "days", count: Math.round(seconds / 86_400) };
}

/** The record in words: 返信率 75%（新しい交渉 4件）・返信まで 通常約30分. */
export function useResponseRecordText(record: ResponseRecordView): string {
  const t = useT(responseRecordMessages);
  const parts: string[] = [];
  if (record.replyRate === null) parts.push(t("none"));
  else {
    parts.push(t("rate", { rate: Math.round(record.replyRate * 100), rooms: record.rooms, count: record.rooms }));
    if (record.typicalReplySeconds !== null) {
      const { unit, count } = replyTimeUnit(record.typicalReplySeconds);
      parts.push(t("typical", { time: t(unit, { count }) }));
    }
  }
  return parts.join("・");
}

/** The record as one line under its heading (the offer page). */
export function ResponseRecordLine({ record }: { record: ResponseRecordView }) {
  const t = useT(responseRecordMessages);
  const text = useResponseRecordText(record);
  return (
    <p className="text-sm text-slate-700" data-testid="response-record">
      <span className="font-medium">{t("heading")}</span>：{text}
    </p>
  );
}
