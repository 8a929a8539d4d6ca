/** What a route's answer says, as React Router would send it: its status, body and redirect. */
export type RouteAnswer = { status: number; body: unknown; location?: string | null };

type DataWithResponseInit = { type: "DataWithResponseInit"; data: unknown; init: { status?: number } | null };
const isData = (value: unknown): value is DataWithResponseInit => (value as { type?: unknown } | null)?.type === "DataWithResponseInit";

/**
 * Runs a loader or an action and reads its answer, returned or thrown: a Response (a redirect, a
 * refusal), `data()` with its status, or plain data (200). Anything else thrown is the route
 * failing, which React Router answers with a 500: it is thrown again, so the test fails on it
 * (read as a 200, a crash passed any check of the status alone).
 */
export async function outcome(run: () => Promise<unknown>): Promise<RouteAnswer> {
  let value: unknown;
  try {
    value = await run();
  } catch (thrown) {
    if (!(thrown instanceof Response) && !isData(thrown)) throw thrown;
    value = thrown;
  }
  if (value instanceof Response) return { status: value.status, body: null, location: value.headers.get("location") };
  if (isData(value)) return { status: value.init?.status ?? 200, body: value.data };
  return { status: 200, body: value };
}
