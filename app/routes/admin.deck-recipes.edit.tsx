import { pageError } from "#app/lib/api.server.ts";
import { DeckError } from "#app/features/decks/errors.ts";
import { Link, useNavigate } from "react-router";
import { AdminGuardError } from "#app/features/admin/components/admin-guard-error.tsx";
import { DeckEditor } from "#app/features/decks/components/deck-editor.tsx";
import { getDeckForEdit } from "#app/features/decks/decks.server.ts";
import { deckEditorData } from "#app/features/decks/editor-data.server.ts";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import { requireAdmin } from "#app/features/users/session.server.ts";
import { localeFromRequest, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { errorFields, requestLog } from "#app/lib/logger.server.ts";
import type { Route } from "./+types/admin.deck-recipes.edit";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキ作成", noindex: true });

// The same screen as /admin/deck-recipes/new, loaded with the deck; administrators only.
export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const locale = localeFromRequest(request);
  const deck = await getDeckForEdit(context.db, params.id).catch((error: unknown) => {
    // docs/product-rules.md §8 デッキの読み込みに失敗しました: the page says so instead of failing.
    requestLog(context).error("deck could not be read", errorFields(error));
    return "failed" as const;
  });
  if (deck === null) throw pageError(new DeckError("not_found"), locale);
  return { deck: deck === "failed" ? null : deck, loadFailed: deck === "failed", ...(await deckEditorData(context.db, locale)) };
}

export default function EditDeck({ loaderData, params }: Route.ComponentProps) {
  const t = useT(deckEditorMessages);
  const navigate = useNavigate();
  const { deck, loadFailed, packs, deckOptions } = loaderData;
  return (
    <section className="space-y-4">
      <p className="text-sm">
        <Link to="/admin?tab=decks" className="text-brand-700 underline">
          {t("backToList")}
        </Link>
      </p>
      <h1 className="text-2xl font-bold">{t("editorTitle")}</h1>
      {loadFailed || !deck ? (
        <p role="alert" className="rounded-md bg-red-50 px-4 py-3 font-medium text-red-700">
          {t("loadFailed")}
        </p>
      ) : (
        <DeckEditor key={params.id} deck={deck} packs={packs} deckOptions={deckOptions} onSaved={(saved) => void navigate(`/admin?tab=decks&saved=${saved.updated ? "updated" : "created"}`)} />
      )}
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminGuardError returnTo="/admin?tab=decks" />;
}
