import { Form, Link } from "react-router";
import { useT } from "../../../lib/i18n";
import { tradesMessages } from "../messages";

/** 交渉する: opens (or reopens) the chat room for this offer; signed-out readers log in first. */
export function RespondButton({ offerId, signedIn }: { offerId: string; signedIn: boolean }) {
  const t = useT(tradesMessages);
  if (!signedIn) {
    return (
      <Link
        to={`/login?redirectTo=${encodeURIComponent(`/trades/${offerId}`)}`}
        className="rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-800 hover:bg-brand-50"
      >
        {t("respondLogin")}
      </Link>
    );
  }
  return (
    <Form method="post" action={`/trades/${offerId}`}>
      <input type="hidden" name="intent" value="respond" />
      <button type="submit" className="rounded-full bg-brand-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-brand-800">
        {t("respond")}
      </button>
    </Form>
  );
}
