import { useState } from "react";
import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { ReportReasonPicker } from "#app/components/report-reasons.tsx";
import { SelectField } from "#app/components/ui/form-field.tsx";
import { RouteError } from "#app/components/ui/route-error.tsx";
import { localeOfMatches } from "#app/components/layout/meta-locale.ts";
import { FriendPostCard } from "#app/features/friends/components/friend-post-card.tsx";
import { FriendPostForm } from "#app/features/friends/components/friend-post-form.tsx";
import { PURPOSE_KEYS } from "#app/features/friends/components/purpose-label.ts";
import { friendsPage } from "#app/pages/friends-page.server.ts";
import { FriendBoardQuerySchema, FriendPostInputSchema, FriendReportSchema } from "#app/features/friends/friends.schema.ts";
import { InputError, readQuery } from "#app/lib/input.server.ts";
import { applyToFriendPost, closeFriendPost, createFriendPost, editFriendPost, raiseFriendPost } from "#app/features/friends/friends.server.ts";
import { friendsMessages, type FriendsMessageKey } from "#app/features/friends/messages.ts";
import { FRIEND_PURPOSES } from "#app/features/friends/rules.ts";
import { reportFriendPost } from "#app/features/moderation/moderation.server.ts";
import { getViewer, requireViewer } from "#app/features/users/session.server.ts";
import { formError } from "#app/lib/api.server.ts";
import { formatFriendId } from "#app/lib/friend-id.ts";
import { pageUrlOf } from "#app/lib/data-url.ts";
import { refusalOf } from "#app/lib/form-refusal.ts";
import { readFormData } from "#app/lib/forms.server.ts";
import { localeFromRequest, translate, useLocale, useT } from "#app/lib/i18n.tsx";
import { seoMeta } from "#app/lib/seo.ts";
import { tokyoShortDateTime } from "#app/lib/tokyo-time.ts";
import { parseInput } from "#app/lib/validation.ts";
import type { Route } from "./+types/friends";

const DONE = ["posted", "saved", "raised", "closed", "applied", "reported"] as const;
type Done = (typeof DONE)[number];
const INTENTS = ["create", "edit", "raise", "close", "apply", "report"] as const;
type Intent = (typeof INTENTS)[number];

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = pageUrlOf(request);
  const locale = localeFromRequest(request);
  const viewer = await getViewer(request, context);
  const { cursor, done, ...filters } = readQuery(request, FriendBoardQuerySchema);
  const page = await friendsPage(context.db, viewer ? { id: viewer.id, friendId: viewer.friendId } : null, { filters, cursor: cursor ?? null });
  return {
    now: new Date().toISOString(),
    filters,
    page,
    viewer: viewer ? { id: viewer.id, hasFriendId: Boolean(viewer.friendId) } : null,
    done: DONE.includes(done as Done) ? (done as Done) : null,
    returnTo: url.pathname + url.search,
    title: translate(friendsMessages, locale, "title"),
    description: translate(friendsMessages, locale, "description"),
  };
}

export const meta: Route.MetaFunction = (args) => {
  const { loaderData: data } = args;
  const title = data?.title ?? translate(friendsMessages, localeOfMatches(args.matches), "title");
  // Filters and cursors are views of the one board, whose canonical URL is /friends; an empty board has nothing to find.
  const empty = !data || (!data.page.cursor && data.page.posts.length === 0);
  return seoMeta(args, { title, description: data?.description, breadcrumbs: [{ name: title, path: "/friends" }], noindex: empty });
};

/** Where an action goes back to: the board as the player saw it (filters kept), never elsewhere. */
function backTo(form: FormData, done: Done): string {
  const back = String(form.get("back") ?? "");
  const url = new URL(/^\/friends(?:\?|$)/.test(back) ? back : "/friends", "http://site");
  url.searchParams.set("done", done);
  return `${url.pathname}?${url.searchParams.toString()}`;
}

const postInputOf = (form: FormData) =>
  parseInput(
    { purposes: form.getAll("purposes").map(String), comment: String(form.get("comment") ?? ""), setCodes: form.getAll("setCodes").map(String) },
    FriendPostInputSchema,
    { messages: friendsMessages, fallback: "errorInvalid" },
  );

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireViewer(request, context);
  const locale = localeFromRequest(request);
  const form = await readFormData(request);
  const intent = String(form.get("intent") ?? "") as Intent;
  const postId = String(form.get("postId") ?? "");
  if (!INTENTS.includes(intent)) return formError(new InputError("unreadable"), locale, { intent, postId });
  // Before hydration too: posting or 申請しました without a friend ID goes to the profile first.
  if ((intent === "create" || intent === "apply") && !viewer.friendId) {
    return redirect(`/profile?need=friendId&redirectTo=${encodeURIComponent("/friends")}`);
  }
  try {
    switch (intent) {
      case "create":
        await createFriendPost(context.db, viewer.id, postInputOf(form));
        return redirect(backTo(form, "posted"));
      case "edit":
        await editFriendPost(context.db, viewer.id, postId, postInputOf(form));
        return redirect(backTo(form, "saved"));
      case "raise":
        await raiseFriendPost(context.db, viewer.id, postId);
        return redirect(backTo(form, "raised"));
      case "close":
        await closeFriendPost(context.db, viewer.id, postId);
        return redirect(backTo(form, "closed"));
      case "apply":
        await applyToFriendPost(context.db, viewer.id, postId);
        return redirect(backTo(form, "applied"));
      case "report": {
        const { reason } = parseInput({ reason: String(form.get("reason") ?? "") }, FriendReportSchema, { messages: friendsMessages, fallback: "errorReportReasonRequired" });
        await reportFriendPost(context.db, viewer.id, postId, reason);
        return redirect(backTo(form, "reported"));
      }
    }
  } catch (error) {
    return formError(error, locale, { intent, postId });
  }
}

const linkButton = "rounded-full border border-brand-700 px-4 py-1.5 text-sm font-bold text-brand-700 hover:bg-brand-50";

function withParams(current: URLSearchParams, changes: Record<string, string | null>): string {
  const next = new URLSearchParams(current);
  next.delete("cursor");
  next.delete("done");
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) next.delete(key);
    else next.set(key, value);
  }
  const query = next.toString();
  return query ? `/friends?${query}` : "/friends";
}

function ReportForm({ postId, back, error }: { postId: string; back: string; error: string | undefined }) {
  const t = useT(friendsMessages);
  const [reason, setReason] = useState("");
  return (
    <details className="w-full text-sm" open={Boolean(error)}>
      <summary className="cursor-pointer text-slate-700 underline">{t("report")}</summary>
      <Form method="post" className="mt-2 space-y-2">
        <input type="hidden" name="intent" value="report" />
        <input type="hidden" name="postId" value={postId} />
        <input type="hidden" name="back" value={back} />
        <ReportReasonPicker id={`report-preset-${postId}`} onPick={setReason} />
        <label className="block text-sm font-medium" htmlFor={`report-reason-${postId}`}>
          {t("reportReason")}
        </label>
        <textarea
          id={`report-reason-${postId}`}
          name="reason"
          maxLength={500}
          rows={2}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `report-error-${postId}` : undefined}
          className="block w-full rounded-md border border-slate-300 px-3 py-2 text-base"
        />
        {error ? (
          <p id={`report-error-${postId}`} role="alert" className="font-medium text-red-700">
            {error}
          </p>
        ) : null}
        <button type="submit" className={linkButton}>
          {t("reportSend")}
        </button>
      </Form>
    </details>
  );
}

export default function FriendBoard({ loaderData, actionData }: Route.ComponentProps) {
  const { page, filters, viewer, now, done, returnTo } = loaderData;
  const t = useT(friendsMessages);
  const locale = useLocale();
  const [params] = useSearchParams();
  const navigation = useNavigation();
  const refusal = refusalOf(actionData);
  const answered = actionData as { intent?: string; postId?: string } | undefined;
  const refusalFor = (intent: Intent, postId?: string) => (refusal && answered?.intent === intent && (!postId || answered.postId === postId) ? refusal : undefined);
  const own = page.own;
  const ownRefusal = refusalFor("raise") ?? refusalFor("close");
  const formRefusal = own ? refusalFor("edit") : refusalFor("create");
  const raisable = own ? Date.parse(own.raisableAt) <= Date.parse(now) : false;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">{t("heading")}</h1>
        <p className="mt-1 text-sm text-slate-600">{t("intro")}</p>
      </div>
      {done ? (
        <p role="status" className="rounded-md border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm font-medium text-emerald-900" data-testid="friends-done">
          {t(`done_${done}` as FriendsMessageKey)}
        </p>
      ) : null}

      <section aria-labelledby="friend-form-heading" className="space-y-3 rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="friend-form-heading" className="font-bold">
          {own ? t("yourPost") : t("newPost")}
        </h2>
        {!viewer ? (
          <p>
            {t("signInToPost")}{" "}
            <Link to={`/login?redirectTo=${encodeURIComponent("/friends")}`} className="text-brand-700 underline">
              {t("signIn")}
            </Link>
          </p>
        ) : !viewer.hasFriendId ? (
          <p>
            {t("needFriendId")}{" "}
            <Link to={`/profile?need=friendId&redirectTo=${encodeURIComponent("/friends")}`} className="text-brand-700 underline">
              {t("goProfile")}
            </Link>
          </p>
        ) : (
          <>
            {own ? (
              <div className="space-y-3" data-testid="own-friend-post">
                <FriendPostCard post={own} now={now} />
                {ownRefusal ? (
                  <p role="alert" className="text-sm font-medium text-red-700">
                    {ownRefusal.message}
                  </p>
                ) : null}
                <div className="flex flex-wrap items-center gap-3">
                  <Form method="post">
                    <input type="hidden" name="intent" value="raise" />
                    <input type="hidden" name="postId" value={own.id} />
                    <input type="hidden" name="back" value={returnTo} />
                    <button type="submit" className={linkButton} disabled={!raisable} aria-describedby={raisable ? undefined : "friend-raise-wait"}>
                      {t("raise")}
                    </button>
                  </Form>
                  {raisable ? null : (
                    <span id="friend-raise-wait" className="text-sm text-slate-700">
                      {t("raiseWait", { time: tokyoShortDateTime(own.raisableAt, locale) })}
                    </span>
                  )}
                  <Form method="post">
                    <input type="hidden" name="intent" value="close" />
                    <input type="hidden" name="postId" value={own.id} />
                    <input type="hidden" name="back" value={returnTo} />
                    <button type="submit" className={linkButton}>
                      {t("close")}
                    </button>
                  </Form>
                </div>
                <section aria-labelledby="friend-applicants" className="space-y-1">
                  <h3 id="friend-applicants" className="font-bold">
                    {t("applicants")}
                  </h3>
                  {own.applicants.length ? (
                    <ul className="space-y-1" data-testid="friend-applicants">
                      {own.applicants.map((a) => (
                        <li key={a.userId} className="flex flex-wrap gap-x-3">
                          <span className="font-medium">{a.displayName}</span>
                          {a.friendId ? <span className="font-mono">{formatFriendId(a.friendId)}</span> : null}
                          <time dateTime={a.at} className="text-sm text-slate-600">
                            {tokyoShortDateTime(a.at, locale)}
                          </time>
                        </li>
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-slate-700">{t("noApplicants")}</p>
                  )}
                </section>
                <details open={Boolean(formRefusal)}>
                  <summary className="cursor-pointer font-bold text-brand-700 underline">{t("editPost")}</summary>
                  <div className="mt-3">
                    <FriendPostForm sets={page.sets} draft={own ? { purposes: own.purposes, comment: own.comment, setCodes: own.sets.map((s) => s.code) } : null} postId={own.id} refusal={formRefusal} />
                  </div>
                </details>
              </div>
            ) : (
              <FriendPostForm sets={page.sets} draft={null} postId={null} refusal={formRefusal} />
            )}
          </>
        )}
      </section>

      <section aria-labelledby="friend-filters" className="rounded-xl border border-slate-200 bg-white p-4">
        <h2 id="friend-filters" className="font-bold">
          {t("filters")}
        </h2>
        <Form method="get" action="/friends" className="mt-3 flex flex-wrap items-end gap-3">
          <SelectField id="friend-filter-purpose" name="purpose" label={t("purpose")} labelClassName="block text-sm font-medium" defaultValue={filters.purpose ?? ""}>
            <option value="">{t("allPurposes")}</option>
            {FRIEND_PURPOSES.map((purpose) => (
              <option key={purpose} value={purpose}>
                {t(PURPOSE_KEYS[purpose])}
              </option>
            ))}
          </SelectField>
          <SelectField id="friend-filter-set" name="set" label={t("set")} labelClassName="block text-sm font-medium" defaultValue={filters.set ?? ""}>
            <option value="">{t("allSets")}</option>
            {page.sets.map((set) => (
              <option key={set.code} value={set.code}>
                {locale === "en" ? set.nameEn : set.nameJa}
              </option>
            ))}
          </SelectField>
          <button type="submit" className="rounded-full bg-brand-700 px-5 py-2 font-bold text-white hover:bg-brand-800">
            {t("apply")}
          </button>
        </Form>
      </section>

      <section aria-labelledby="friend-list" className="space-y-4">
        <h2 id="friend-list" className="sr-only">
          {t("postList")}
        </h2>
        {page.posts.length ? (
          <ul className="space-y-4">
            {page.posts.map((post) => {
              const mine = post.ownerId === viewer?.id;
              const applied = page.appliedIds.includes(post.id);
              const applyError = refusalFor("apply", post.id);
              const pending = navigation.state === "submitting" && navigation.formData?.get("postId") === post.id;
              return (
                <li key={post.id}>
                  <FriendPostCard post={post} now={now}>
                    {mine ? (
                      <span className="text-sm font-bold">{t("yourPost")}</span>
                    ) : (
                      <>
                        {page.candidateCounts[post.ownerId] ? (
                          <Link to={`/collection/trades?with=${encodeURIComponent(post.ownerId)}`} className="text-sm font-bold text-brand-700 underline" data-testid="friend-post-candidates">
                            {t("tradeCandidates", { count: page.candidateCounts[post.ownerId] })}
                          </Link>
                        ) : null}
                        <Form method="post">
                          <input type="hidden" name="intent" value="apply" />
                          <input type="hidden" name="postId" value={post.id} />
                          <input type="hidden" name="back" value={returnTo} />
                          {viewer ? (
                            <button
                              type="submit"
                              className="rounded-full bg-brand-700 px-4 py-1.5 text-sm font-bold text-white hover:bg-brand-800 disabled:opacity-60"
                              aria-label={t("appliedTo", { name: post.displayName })}
                              aria-pressed={applied}
                              disabled={pending}
                            >
                              {applied ? `✓ ${t("applied")}` : t("applied")}
                            </button>
                          ) : (
                            <Link to={`/login?redirectTo=${encodeURIComponent(returnTo)}`} className="text-sm text-brand-700 underline">
                              {t("applied")}
                            </Link>
                          )}
                        </Form>
                        {applyError ? (
                          <p role="alert" className="text-sm font-medium text-red-700">
                            {applyError.message}
                          </p>
                        ) : null}
                        {viewer ? <ReportForm postId={post.id} back={returnTo} error={refusalFor("report", post.id)?.message} /> : null}
                      </>
                    )}
                  </FriendPostCard>
                </li>
              );
            })}
          </ul>
        ) : (
          <p className="rounded-lg bg-white p-4 text-slate-700">{t("empty")}</p>
        )}
        <nav aria-label={t("pagination")} className="flex flex-wrap gap-4">
          {page.cursor ? (
            <Link to={withParams(params, {})} className="text-brand-700 underline">
              {t("firstPage")}
            </Link>
          ) : null}
          {page.nextCursor ? (
            <Link to={withParams(params, { cursor: page.nextCursor })} className="text-brand-700 underline" rel="next">
              {t("nextPage")}
            </Link>
          ) : null}
        </nav>
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <RouteError />;
}
