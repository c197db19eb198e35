import { Link, useNavigate } from "react-router";
import { AdminGuardError } from "#app/features/admin/components/admin-guard-error.tsx";
import { DeckEditor } from "#app/features/decks/components/deck-editor.tsx";
import { deckEditorData } from "#app/features/decks/editor-data.server.ts";
import { deckEditorMessages } from "#app/features/decks/editor-messages.ts";
import { requireAdmin } from "#app/features/users/session.server.ts";
import { localeFromRequest, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/admin.deck-recipes.new";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキ作成", noindex: true });

// Administrators only, checked on the server before anything is read (docs/product-rules.md §6).
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return deckEditorData(context.db, localeFromRequest(request));
}

export default function NewDeck({ loaderData }: Route.ComponentProps) {
  const t = useT(deckEditorMessages);
  const navigate = useNavigate();
  return (
    <section className="space-y-4">
      <p className="text-sm">
        <Link to="/admin?tab=decks" className="text-brand-700 underline">
          {t("backToList")}
        </Link>
      </p>
      <h1 className="text-2xl font-bold">{t("editorTitle")}</h1>
      <DeckEditor deck={null} packs={loaderData.packs} deckOptions={loaderData.deckOptions} onSaved={(saved) => void navigate(`/admin?tab=decks&saved=${saved.updated ? "updated" : "created"}`)} />
    </section>
  );
}

export function ErrorBoundary() {
  return <AdminGuardError returnTo="/admin/deck-recipes/new" />;
}
