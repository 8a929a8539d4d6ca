import "~/lib/react-dom-semantics";
import { renderToStringAsync } from "preact-render-to-string";
import type { ActionFunctionArgs, AppLoadContext, EntryContext, LoaderFunctionArgs } from "react-router";
import { ServerRouter, isRouteErrorResponse } from "react-router";
import { NO_FORM_ON_THIS_PAGE } from "~/lib/http";
import { FragmentRendererProvider } from "~/lib/cached-fragment";
import { createFragmentCache } from "~/lib/fragment-cache.server";
import { NonceProvider } from "~/lib/nonce";
import { withinTimeout } from "~/lib/within-timeout";

/** React Router rejects what a loader deferred and has not settled by then (an <Await> shows its error). */
export const streamTimeout = 5_000;

const textEncoder = new TextEncoder();

/** 8 million characters (8 to 16 MB): the header and footer of each section, some 2,500 product cards. */
const fragments = createFragmentCache({ maxChars: 8_000_000 });

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

export default async function handleRequest(
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
  const html = await withinTimeout(
    renderToStringAsync(
      <FragmentRendererProvider value={loadContext.cachedFragments ? fragments.render : null}>
        <NonceProvider value={nonce}>
          <ServerRouter context={routerContext} url={request.url} nonce={nonce} />
        </NonceProvider>
      </FragmentRendererProvider>,
    ),
    streamTimeout + 1_000,
  );
  responseHeaders.set("Content-Type", "text/html; charset=utf-8");
  // Bytes, not the string: undici would first scan a string body for lone surrogates (about
  // half a millisecond on a 120 KB listing), then encode it anyway.
  return new Response(textEncoder.encode(`<!DOCTYPE html>${html}`), { headers: responseHeaders, status: responseStatusCode });
}
