import { defineMessages, useT } from "#app/lib/i18n.tsx";

/**
 * The common report reasons, one pick away wherever a player reports (a chat message, an offer):
 * they match the scam warnings of the room (おすそわけ持ち逃げ, 三角交換). Picking one fills the
 * reason's text, which stays editable; what is stored is that text.
 */
export const reportReasonMessages = defineMessages({
  ja: {
    reportPreset: "よくある理由",
    reportPresetNone: "選んでください",
    reportOsusowake: "おすそわけ・先渡しの持ち逃げ",
    reportTriangle: "三角交換・別アカウントへの誘導",
    reportAbuse: "暴言・迷惑行為",
    reportMoney: "現金・アカウントの売買",
    reportSpam: "スパム・宣伝",
    reportFakeId: "偽のフレンドID・存在しないID",
  },
  en: {
    reportPreset: "Common reasons",
    reportPresetNone: "Choose",
    reportOsusowake: "Took a one-sided gift and left",
    reportTriangle: "Triangle trade / another account",
    reportAbuse: "Abuse or harassment",
    reportMoney: "Selling for money or accounts",
    reportSpam: "Spam or advertising",
    reportFakeId: "Fake or non-existent friend ID",
  },
});

type ReasonKey = keyof (typeof reportReasonMessages)["ja"];
export const REPORT_REASON_KEYS: readonly ReasonKey[] = ["reportOsusowake", "reportTriangle", "reportAbuse", "reportMoney", "reportSpam", "reportFakeId"];

/** The labelled select of common reasons; `onPick` gets the chosen reason's text. */
export function ReportReasonPicker({ id, onPick, labelClassName, selectClassName }: { id: string; onPick: (text: string) => void; labelClassName?: string; selectClassName?: string }) {
  const t = useT(reportReasonMessages);
  return (
    <>
      <label className={labelClassName ?? "block text-sm font-medium"} htmlFor={id}>
        {t("reportPreset")}
      </label>
      <select
        id={id}
        className={selectClassName ?? "block w-full rounded-md border border-slate-300 bg-white px-3 py-2 text-base"}
        defaultValue=""
        onChange={(e) => {
          if (e.target.value) onPick(e.target.value);
        }}
      >
        <option value="">{t("reportPresetNone")}</option>
        {REPORT_REASON_KEYS.map((key) => (
          <option key={key} value={t(key)}>
            {t(key)}
          </option>
        ))}
      </select>
    </>
  );
}
