import { useState } from "react";
import { TextareaField } from "#app/components/ui/form-field.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { ReportReasonPicker } from "#app/components/report-reasons.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";
import { REPORT_REASON_MAX_LENGTH } from "#app/features/trades/rules.ts";

/** The offer's 通報 form fields: the common reasons (the chat's list) fill the reason, which stays editable. */
export function OfferReportFields() {
  const t = useT(tradesMessages);
  const [reason, setReason] = useState("");
  return (
    <>
      <div className="space-y-1">
        <ReportReasonPicker id="report-preset" onPick={setReason} />
      </div>
      <TextareaField
        id="report-reason"
        name="reason"
        required
        maxLength={REPORT_REASON_MAX_LENGTH}
        rows={3}
        label={t("reportReason")}
        labelClassName="block text-sm font-medium"
        placeholder={t("reportReasonPlaceholder")}
        value={reason}
        onChange={(e) => setReason(e.target.value)}
      />
    </>
  );
}
