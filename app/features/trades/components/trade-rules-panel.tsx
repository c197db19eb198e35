import { useState, type FormEvent } from "react";
import { send } from "#app/lib/send.ts";
import { useRevalidator } from "react-router";
import { FormField, SelectField } from "#app/components/ui/form-field.tsx";
import { SubmitButton } from "#app/components/ui/submit-button.tsx";
import { useLocale, useT } from "#app/lib/i18n.tsx";
import { RARITIES } from "#app/lib/rarity.ts";
import { INPUT_YEAR_MAX, INPUT_YEAR_MIN } from "#app/lib/tokyo-time.ts";
import type { TradeRuleScope, TradeRulesPageData } from "#app/features/trades/trade-rules.ts";
import { tradeRulesMessages } from "#app/features/trades/trade-rules-messages.ts";
import { TRADE_RULE_NOTE_MAX, TradeRuleChangeSchema, tradeRuleFieldErrors, type TradeRuleField } from "#app/features/trades/trade-rules.schema.ts";
import { TradeRulesSummary } from "./trade-rules-summary";

// The picker offers only the years the schema takes; the schema is still the check (the form is noValidate).
const TIME_RANGE = { min: `${INPUT_YEAR_MIN}-01-01T00:00`, max: `${INPUT_YEAR_MAX}-12-31T23:59` };

type Values = { scope: TradeRuleScope; target: string; tradeable: "yes" | "no"; effectiveAt: string; until: string; note: string };

/**
 * Admin トレードルール tab: add a change (a rarity or a pack, tradeable or not, from a Japan-time
 * date; "not tradeable until" adds the reopening too, with the same note), and see the rules as
 * players do on /trade-rules. Saved with POST /api/admin/trade-rules.
 */
export function TradeRulesPanel({ data }: { data: unknown }) {
  const t = useT(tradeRulesMessages);
  const locale = useLocale();
  const revalidator = useRevalidator();
  const tabData = data as TradeRulesPageData;
  const [values, setValues] = useState<Values>({ scope: "pack", target: "", tradeable: "no", effectiveAt: "", until: "", note: "" });
  const [errors, setErrors] = useState<Partial<Record<TradeRuleField, string>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<{ kind: "saved" } | { kind: "error"; text: string } | null>(null);
  const set = (field: keyof Values) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value, ...(field === "scope" ? { target: "" } : {}) }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };
  const body = () => ({
    scope: values.scope,
    target: values.target,
    tradeable: values.tradeable === "yes",
    effectiveAt: values.effectiveAt,
    ...(values.until ? { until: values.until } : {}),
    note: values.note,
  });

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    const checked = TradeRuleChangeSchema.safeParse(body());
    if (!checked.success) {
      setErrors(Object.fromEntries(Object.entries(tradeRuleFieldErrors(checked.error)).map(([field, key]) => [field, t(key)])));
      return;
    }
    setBusy(true);
    try {
      const sent = await send("/api/admin/trade-rules", { json: body() });
      if (!sent.ok) {
        setErrors(sent.refusal?.fields ?? {});
        setOutcome({ kind: "error", text: sent.refusal?.message ?? t("errInvalidRequest") });
        return;
      }
      setValues((current) => ({ ...current, target: "", effectiveAt: "", until: "", note: "" }));
      setOutcome({ kind: "saved" });
      await revalidator.revalidate();
    } catch {
      setOutcome({ kind: "error", text: t("errInvalidRequest") });
    } finally {
      setBusy(false);
    }
  }

  const targets =
    values.scope === "rarity"
      ? RARITIES.filter((r) => tabData.rarityCodes.includes(r.code)).map((r) => ({ id: r.code, name: `${r.code} ${locale === "en" ? r.labelEn : r.labelJa}` }))
      : tabData.packs.map((p) => ({ id: p.id, name: locale === "en" ? p.nameEn : p.name }));

  return (
    <div className="space-y-8">
      <p className="text-sm text-slate-700">{t("tabIntro")}</p>
      <form onSubmit={onSubmit} noValidate className="space-y-4 rounded-xl border border-slate-200 bg-white p-4" aria-labelledby="trade-rule-form">
        <h2 id="trade-rule-form" className="text-lg font-bold">
          {t("formHeading")}
        </h2>
        <div className="grid gap-4 md:grid-cols-3">
          <SelectField id="rule-scope" label={t("scope")} value={values.scope} onChange={(e) => set("scope")(e.target.value)} error={errors.scope}>
            <option value="pack">{t("scopePack")}</option>
            <option value="rarity">{t("scopeRarity")}</option>
          </SelectField>
          <SelectField id="rule-target" label={t("target")} value={values.target} onChange={(e) => set("target")(e.target.value)} error={errors.target}>
            <option value="">—</option>
            {targets.map((target) => (
              <option key={target.id} value={target.id}>
                {target.name}
              </option>
            ))}
          </SelectField>
          <SelectField id="rule-tradeable" label={t("tradeable")} value={values.tradeable} onChange={(e) => set("tradeable")(e.target.value)} error={errors.tradeable}>
            <option value="no">{t("tradeableNo")}</option>
            <option value="yes">{t("tradeableYes")}</option>
          </SelectField>
          <FormField id="rule-effective" type="datetime-local" {...TIME_RANGE} label={t("effectiveAt")} value={values.effectiveAt} onChange={(e) => set("effectiveAt")(e.target.value)} error={errors.effectiveAt} />
          <FormField
            id="rule-until"
            type="datetime-local"
            {...TIME_RANGE}
            label={t("until")}
            hint={t("untilHint")}
            value={values.until}
            disabled={values.tradeable === "yes"}
            onChange={(e) => set("until")(e.target.value)}
            error={errors.until}
          />
          <FormField id="rule-note" label={t("note")} maxLength={TRADE_RULE_NOTE_MAX} value={values.note} onChange={(e) => set("note")(e.target.value)} error={errors.note} />
        </div>
        <div className="flex items-center gap-3">
          <SubmitButton pending={busy} pendingText={t("saving")}>
            {t("submit")}
          </SubmitButton>
          {outcome?.kind === "saved" ? (
            <p role="status" className="text-sm font-medium text-emerald-800">
              {t("saved")}
            </p>
          ) : outcome?.kind === "error" ? (
            <p role="alert" className="text-sm font-medium text-red-700">
              {outcome.text}
            </p>
          ) : null}
        </div>
      </form>
      <section aria-labelledby="trade-rules-current" className="space-y-4">
        <h2 id="trade-rules-current" className="text-lg font-bold">
          {t("currentHeading")}
        </h2>
        <TradeRulesSummary data={tabData} headingLevel={3} />
      </section>
    </div>
  );
}
