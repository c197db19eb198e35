import { ListForm, ListLink } from "#app/components/ui/list-link.tsx";
import { useT } from "#app/lib/i18n.tsx";
import { tradesMessages } from "#app/features/trades/messages.ts";

/**
 * 交渉する: opens (or reopens) the chat room for this offer; signed-out readers log in first (a
 * ListForm or ListLink: one on each offer of a list).
 */
export function RespondButton({ offerId, signedIn }: { offerId: string; signedIn: boolean }) {
  const t = useT(tradesMessages);
  if (!signedIn) {
    return (
      <ListLink
        to={`/login?redirectTo=${encodeURIComponent(`/trades/${offerId}`)}`}
        className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-800 hover:bg-brand-50"
      >
        {t("respondLogin")}
      </ListLink>
    );
  }
  return (
    <ListForm action={`/trades/${offerId}`}>
      <button type="submit" name="intent" value="respond" className="rounded-full bg-brand-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-brand-800">
        {t("respond")}
      </button>
    </ListForm>
  );
}
