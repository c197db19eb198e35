import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import type { RenderToPipeableStreamOptions } from "react-dom/server";
import { renderToPipeableStream } from "react-dom/server";
import type { AppLoadContext, EntryContext, HandleDataRequestFunction, HandleErrorFunction } from "react-router";
import { ServerRouter } from "react-router";
import { NonceContext } from "#app/lib/nonce.tsx";
import { DocumentHtmlContext } from "#app/lib/stored-html.tsx";
import { coalescedBody } from "#app/lib/coalesced-body.server.ts";
import { errorFields, requestLog } from "#app/lib/logger.server.ts";

export const streamTimeout = 5_000;

export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  // A page rendered for a signed-in user (e-mail, friend ID, their offers) is never kept by a
  // browser or shared cache.
  const root = routerContext.staticHandlerContext.loaderData.root as { viewer?: unknown } | undefined;
  if (root?.viewer) responseHeaders.set("Cache-Control", "private, no-store");
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.cspNonce;
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    const userAgent = request.headers.get("user-agent");
    // Crawlers get the whole document at once; people get the shell as soon as it is ready.
    const readyOption: keyof RenderToPipeableStreamOptions =
      (userAgent && isbot(userAgent)) || routerContext.isSpaMode ? "onAllReady" : "onShellReady";
    let timeoutId: ReturnType<typeof setTimeout> | undefined = setTimeout(() => abort(), streamTimeout + 1000);

    const { pipe, abort } = renderToPipeableStream(
      <NonceContext.Provider value={nonce}>
        <DocumentHtmlContext.Provider value={loadContext.documentHtml ?? null}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </DocumentHtmlContext.Provider>
      </NonceContext.Provider>,
      {
        nonce,
        // A part of the page that is ready when the page is sent stays in its place. By default React
        // sends a finished Suspense part of more than 12.8 KB after the rest of the page, hidden,
        // with a script that moves it in: a browser without JavaScript never showed it (the offer
        // owner's edit form). A part still loading is streamed as before, and React still moves a
        // finished part that carries a stylesheet with a `precedence` (none does here).
        progressiveChunkSize: Number.POSITIVE_INFINITY,
        [readyOption]() {
          shellRendered = true;
          // One piece per turn of the event loop, not React's 4 KB pieces (each one a compressor flush).
          const body = coalescedBody(() => {
            clearTimeout(timeoutId);
            timeoutId = undefined;
          });
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          pipe(body);
          resolve(
            new Response(createReadableStreamFromReadable(body), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        },
        onShellError(error: unknown) {
          reject(error);
        },
        onError(error: unknown) {
          responseStatusCode = 500;
          if (shellRendered) requestLog(loadContext).error("render failed", errorFields(error));
        },
      },
    );
  });
}

const SESSION_COOKIE = /(?:^|;\s*)(?:__Secure-)?torepoke\.session_token=/;

/** Client navigations (.data) of a signed-in user: the same rule as their pages. */
export const handleDataRequest: HandleDataRequestFunction = (response, { request }) => {
  if (SESSION_COOKIE.test(request.headers.get("cookie") ?? "")) response.headers.set("Cache-Control", "private, no-store");
  return response;
};

export const handleError: HandleErrorFunction = (error, { request, context }) => {
  // A client that went away is not a server error.
  if (request.signal.aborted) return;
  requestLog(context as AppLoadContext).error("unhandled error", { path: new URL(request.url).pathname, ...errorFields(error) });
};
