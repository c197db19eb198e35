import { data } from "react-router";
import { getDeckForEdit } from "../features/decks/decks.server";
import { decksMessages } from "../features/decks/messages";
import { requireAdmin } from "../features/users/session.server";
import { localeFromRequest, translate } from "../lib/i18n";
import { seoMeta } from "../lib/seo";
import type { Route } from "./+types/admin.deck-recipes.edit";

export const meta: Route.MetaFunction = (args) => seoMeta(args, { title: "デッキ作成", noindex: true });

export async function loader({ request, params, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const deck = await getDeckForEdit(context.db, params.id);
  if (!deck) throw data({ message: translate(decksMessages, localeFromRequest(request), "errNotFound") }, { status: 404 });
  return { deck };
}

export default function Page() {
  return null;
}
