import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for api.stripe.com, enough for the shop's Stripe adapter driven by the
 * official SDK (STRIPE_API_BASE): Checkout Sessions, coupons and refunds. It records every
 * request and answers a repeated Idempotency-Key with the first answer, as Stripe does.
 */
export type RecordedRequest = { method: string; path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> };

type Nested = { [key: string]: Nested | string };

/** "a[b][0][c]=1" → { a: { b: { 0: { c: "1" } } } } (Stripe's form encoding). */
export function parseStripeForm(raw: string): Record<string, unknown> {
  const root: Nested = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const path = key.replace(/\]/g, "").split("[");
    let node = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else node = (node[part] ??= {}) as Nested;
    });
  }
  return root;
}

export async function startFakeStripe() {
  const requests: RecordedRequest[] = [];
  const byKey = new Map<string, { status: number; body: unknown }>();
  let failures = 0;

  function answer(path: string, body: Record<string, unknown>): { status: number; body: unknown } {
    if (failures > 0) {
      failures -= 1;
      return { status: 500, body: { error: { type: "api_error", message: "Fake Stripe is down" } } };
    }
    const id = (prefix: string) => `${prefix}_${randomBytes(8).toString("hex")}`;
    if (path === "/v1/checkout/sessions") {
      const sessionId = id("cs_test");
      return {
        status: 200,
        body: { id: sessionId, object: "checkout.session", url: `https://checkout.stripe.com/c/pay/${sessionId}`, status: "open", metadata: body.metadata ?? {} },
      };
    }
    if (path === "/v1/coupons") return { status: 200, body: { id: id("coupon"), object: "coupon", amount_off: Number(body.amount_off) } };
    if (path === "/v1/refunds") return { status: 200, body: { id: id("re"), object: "refund", amount: Number(body.amount), status: "succeeded" } };
    return { status: 404, body: { error: { type: "invalid_request_error", message: `Unknown path ${path}` } } };
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      const body = parseStripeForm(Buffer.concat(chunks).toString("utf8"));
      requests.push({ method: req.method ?? "", path, headers: req.headers, body });
      const key = req.headers["idempotency-key"];
      const cacheKey = typeof key === "string" ? `${path}:${key}` : null;
      const result = (cacheKey && byKey.get(cacheKey)) || answer(path, body);
      if (cacheKey && result.status === 200) byKey.set(cacheKey, result);
      res.writeHead(result.status, { "Content-Type": "application/json", "Request-Id": `req_${randomBytes(6).toString("hex")}` });
      res.end(JSON.stringify(result.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    /** The next `count` requests answer 500 (with the SDK's retries, pass enough of them). */
    failNext(count = 10) {
      failures = count;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
