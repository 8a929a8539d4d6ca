import { PassThrough } from "node:stream";
import { createReadableStreamFromReadable } from "@react-router/node";
import { isbot } from "isbot";
import { renderToPipeableStream } from "react-dom/server";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { NO_FORM_ON_THIS_PAGE, isSharedCacheControl } from "~/lib/http";
import { NonceProvider } from "~/lib/nonce";

/** React Router rejects what a loader deferred and has not settled by then (an <Await> shows its error). */
export const streamTimeout = 5_000;

/**
 * Errors React Router reports while answering. A client's mistake (a post to a page without a
 * form, a loader asked for what is not there) is answered and not logged: a script would
 * otherwise write a stack trace into the log with each request. Requests the client gave up
 * on are not errors either.
 */
export function handleError(error: unknown, { request }: LoaderFunctionArgs | ActionFunctionArgs) {
  if (request.signal.aborted) return;
  if (isRouteErrorResponse(error) && error.status < 500) return;
  console.error(error);
}

/** React Router's refusal of a post to a route without `action`, as its `.data` answer carries it. */
const NO_ACTION_ERROR = /^Error: You made a [A-Z]+ request to ".*" but did not provide an `action` for route ".*", so there is no way to handle the request\.$/s;

/**
 * `.data` answers (React Router's own requests). A post there to a page without a form gets
 * React Router's English sentence inside the encoded answer, which the page (root
 * ErrorBoundary) already words in French: the answer says it in French too.
 */
export async function handleDataRequest(response: Response): Promise<Response> {
  if (response.status !== 405) return response;
  const body = await response.text();
  let french = body;
  try {
    const encoded: unknown = JSON.parse(body);
    if (Array.isArray(encoded)) {
      french = JSON.stringify(encoded.map((value: unknown) => (typeof value === "string" && NO_ACTION_ERROR.test(value) ? NO_FORM_ON_THIS_PAGE : value)));
    }
  } catch {
    // not a single encoded line: left as it is
  }
  return new Response(french, { status: response.status, statusText: response.statusText, headers: response.headers });
}

/**
 * Whether the page is sent whole, once everything it suspends on is ready: a page the shared
 * page cache keeps (`Cache-Control: public`, server/page-cache.ts) is stored whole and served
 * to everyone, and a crawler reads the whole page. Other pages (a signed-in visitor's) get
 * their shell first and what a loader deferred as it comes.
 */
function waitsForEverything(request: Request, responseHeaders: Headers, routerContext: EntryContext): boolean {
  const userAgent = request.headers.get("user-agent");
  if (userAgent && isbot(userAgent)) return true;
  if (routerContext.isSpaMode) return true;
  return isSharedCacheControl(responseHeaders.get("Cache-Control") ?? "");
}

/** React Router's own server entry (renderToPipeableStream), with the CSP nonce and the rule above. */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
  loadContext: AppLoadContext,
) {
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  const nonce = loadContext.nonce;
  const whole = waitsForEverything(request, responseHeaders, routerContext);
  return new Promise<Response>((resolve, reject) => {
    let shellRendered = false;
    const ready = () => {
      shellRendered = true;
      const body = new PassThrough();
      responseHeaders.set("Content-Type", "text/html; charset=utf-8");
      resolve(new Response(createReadableStreamFromReadable(body), { headers: responseHeaders, status: responseStatusCode }));
      pipe(body);
    };
    const { pipe, abort } = renderToPipeableStream(
      <NonceProvider value={nonce}>
        <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
      </NonceProvider>,
      {
        nonce,
        // Sent whole, every part in its place: React would otherwise move the larger parts of a
        // page to its end, to be swapped in by a script (a fallback, a <template>, hidden markup).
        progressiveChunkSize: whole ? Number.POSITIVE_INFINITY : undefined,
        onShellReady: whole ? undefined : ready,
        onAllReady: whole ? ready : undefined,
        onShellError: reject,
        onError(error: unknown) {
          responseStatusCode = 500;
          // Errors in the shell reject above; later ones would otherwise go unseen.
          if (shellRendered) console.error(error);
        },
      },
    );
    // Gives up what still waits after React Router's own limit on deferred data: what is not
    // ready renders on the client (or, before the shell, the request fails with a 500).
    setTimeout(abort, streamTimeout + 1_000).unref();
  });
}
