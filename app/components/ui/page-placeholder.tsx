import type { ReactNode } from "react";
import { useT } from "../../lib/i18n";
import { layoutMessages } from "../layout/messages";

/** A page whose content is still being built: says so plainly instead of pretending. */
export function PagePlaceholder({ title, children }: { title: string; children?: ReactNode }) {
  const t = useT(layoutMessages);
  return (
    <section>
      <h1 className="text-2xl font-bold">{title}</h1>
      <div className="mt-4 rounded-lg border border-dashed border-slate-300 bg-white p-6 text-slate-600">
        {children ?? <p>{t("pagePreparing")}</p>}
      </div>
    </section>
  );
}
