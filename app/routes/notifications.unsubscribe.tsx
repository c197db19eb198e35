import { Form, Link } from "react-router";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { pushMessages } from "#app/features/push/messages.ts";
import { verifyUnsubscribeToken } from "#app/features/mail/notification-mail.server.ts";
import { turnOffAllMail } from "#app/features/push/preferences.server.ts";
import { translate, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import type { Route } from "./+types/notifications.unsubscribe";
import { readQuery } from "#app/lib/input.server.ts";
import { z } from "#app/lib/zod.ts";

export function meta(args: Route.MetaArgs) {
  const locale = localeOfMatches(args.matches);
  return seoMeta(args, { title: translate(pushMessages, locale, "unsubscribeTitle"), noindex: true });
}

/**
 * /notifications/unsubscribe?token=…: the unsubscribe link of every notification mail. GET shows
 * a button (a link prefetched by a mail scanner changes nothing); POST — the button, or a mail
 * client's RFC 8058 one-click "List-Unsubscribe=One-Click" — turns all notification mail off.
 * The signed token names the player: no session is needed.
 */
/** The mailed link's query: `?token=` (none reads as an empty one, which is no valid link). */
const TokenQuerySchema = z.object({ token: z.string().catch("") });

export async function loader({ request, context }: Route.LoaderArgs) {
  const { token } = readQuery(request, TokenQuerySchema);
  return { token, valid: verifyUnsubscribeToken(context.env.authSecret, token) !== null, done: false };
}

export async function action({ request, context }: Route.ActionArgs) {
  const { token } = readQuery(request, TokenQuerySchema);
  const userId = verifyUnsubscribeToken(context.env.authSecret, token);
  if (!userId) return new Response(null, { status: 400 });
  await turnOffAllMail(context.db, userId);
  return { done: true };
}

export default function Unsubscribe({ loaderData, actionData }: Route.ComponentProps) {
  const t = useT(pushMessages);
  const done = actionData?.done === true;
  return (
    <section aria-labelledby="unsubscribe-heading" className="mx-auto max-w-xl space-y-4">
      <h1 id="unsubscribe-heading" className="text-2xl font-bold">
        {t("unsubscribeTitle")}
      </h1>
      {!loaderData.valid ? (
        <p role="alert" className="text-red-700">
          {t("unsubscribeInvalid")}
        </p>
      ) : done ? (
        <p role="status" className="font-medium text-green-800" data-testid="unsubscribe-done">
          {t("unsubscribeDone")}
        </p>
      ) : (
        <>
          <p>{t("unsubscribeIntro")}</p>
          <Form method="post" action={`/notifications/unsubscribe?token=${encodeURIComponent(loaderData.token ?? "")}`}>
            <button type="submit" className="rounded-md bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800" data-testid="unsubscribe-button">
              {t("unsubscribeButton")}
            </button>
          </Form>
        </>
      )}
      <p>
        <Link to="/profile#notification-settings" className="text-brand-700 underline">
          {t("unsubscribeSettings")}
        </Link>
      </p>
    </section>
  );
}
