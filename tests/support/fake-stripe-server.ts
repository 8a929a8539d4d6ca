import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";

/**
 * A local stand-in for api.stripe.com, enough for the shop's Stripe adapter driven by the
 * official SDK (STRIPE_API_BASE): Checkout Sessions (kept in `sessions`), coupons and refunds
 * (kept in `refunds`). Like Stripe, it checks the key, validates the few rules the adapter relies
 * on (expires_at 30 min–24 h ahead), replays the first answer for a repeated Idempotency-Key and
 * refuses that key with other parameters.
 */
export type FormValue = string | FormValue[] | FormObject;
export type FormObject = { [key: string]: FormValue };
export type StripeObject = { [key: string]: unknown };

export type Recorded = {
  method: string;
  path: string;
  /** Lower-cased by node: authorization, idempotency-key, stripe-version… */
  headers: http.IncomingHttpHeaders;
  rawBody: string;
  body: FormObject;
  status: number;
  response: StripeObject;
};

export type FakeStripe = {
  url: string;
  requests: Recorded[];
  /** The Checkout Sessions created, by id, as created (what a webhook's session starts from). */
  sessions: Map<string, StripeObject>;
  /** The refunds made, once each (a replayed Idempotency-Key makes none). */
  refunds: StripeObject[];
  /** The Idempotency-Key of the request that created an object (a session, a refund), as Stripe's request log shows it. */
  idempotencyKeyOf(objectId: string): string | undefined;
  /**
   * The next `times` requests answer a Stripe-style error. The SDK retries a 5xx twice
   * (maxNetworkRetries: 2), so a failure the caller sees needs times = 3.
   */
  failNext(status?: number, times?: number): void;
  close(): Promise<void>;
};

/** "a[b][0][c]=1" → { a: { b: [{ c: "1" }] } }: Stripe's form encoding (qs, indexed arrays). */
export function parseStripeForm(raw: string): FormObject {
  const root: FormObject = {};
  for (const [key, value] of new URLSearchParams(raw)) {
    const [head = "", ...rest] = key.split("[");
    const path = [head, ...rest.map((part) => part.replace(/\]$/, ""))];
    if (path.some((part) => part === "__proto__" || part === "constructor" || part === "prototype")) continue;
    let node = root;
    path.forEach((part, index) => {
      if (index === path.length - 1) node[part] = value;
      else {
        const next = node[part];
        node = typeof next === "object" && !Array.isArray(next) ? next : (node[part] = {});
      }
    });
  }
  return withArrays(root) as FormObject;
}

/** Objects keyed 0..n-1 become arrays. */
function withArrays(value: FormValue): FormValue {
  if (typeof value === "string" || Array.isArray(value)) return value;
  const keys = Object.keys(value);
  const entries = keys.map((k) => [k, withArrays(value[k] as FormValue)] as const);
  if (keys.length > 0 && keys.every((k, i) => k === String(i))) return entries.map(([, v]) => v);
  return Object.fromEntries(entries);
}

class StripeApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly param?: string,
  ) {
    super(message);
  }
}

const text = (value: FormValue | undefined): string | undefined => (typeof value === "string" ? value : undefined);
const integer = (value: FormValue | undefined, param: string, min: number): number => {
  const n = Number(text(value));
  if (!Number.isInteger(n) || n < min) throw new StripeApiError(400, "invalid_request_error", `Invalid integer: ${param}`, param);
  return n;
};
const id = (prefix: string) => `${prefix}_test_${randomBytes(12).toString("hex")}`;

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: Recorded[] = [];
  const replays = new Map<string, { method: string; path: string; rawBody: string; response: StripeObject }>();
  const coupons = new Map<string, number>();
  const sessions = new Map<string, StripeObject>();
  const refunds: StripeObject[] = [];
  const createdWith = new Map<string, string>();
  let failure: { status: number; times: number } = { status: 500, times: 0 };

  function handle(method: string, path: string, body: FormObject): StripeObject {
    if (method !== "POST") throw new StripeApiError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path})`);
    const now = Math.floor(Date.now() / 1000);
    if (path === "/v1/checkout/sessions") {
      if (text(body.mode) !== "payment") throw new StripeApiError(400, "invalid_request_error", "Missing required param: mode.", "mode");
      const lines = Array.isArray(body.line_items) ? body.line_items : [];
      if (lines.length === 0) throw new StripeApiError(400, "invalid_request_error", "Missing required param: line_items.", "line_items");
      const subtotal = lines.reduce<number>((sum, line, i) => {
        const item = typeof line === "object" && !Array.isArray(line) ? line : {};
        const price = typeof item.price_data === "object" && !Array.isArray(item.price_data) ? item.price_data : {};
        if (text(price.currency) !== "eur") throw new StripeApiError(400, "invalid_request_error", "Invalid currency", `line_items[${i}][price_data][currency]`);
        return sum + integer(price.unit_amount, `line_items[${i}][price_data][unit_amount]`, 0) * integer(item.quantity, `line_items[${i}][quantity]`, 1);
      }, 0);
      if (!text(body.success_url)) throw new StripeApiError(400, "invalid_request_error", "Missing required param: success_url.", "success_url");
      const expiresAt = body.expires_at === undefined ? now + 24 * 3600 : integer(body.expires_at, "expires_at", 0);
      if (expiresAt < now + 30 * 60 || expiresAt > now + 24 * 3600) {
        throw new StripeApiError(400, "invalid_request_error", "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.", "expires_at");
      }
      const discounts = Array.isArray(body.discounts) ? body.discounts : [];
      const discount = discounts.reduce<number>((sum, d) => {
        const coupon = typeof d === "object" && !Array.isArray(d) ? text(d.coupon) : undefined;
        const amountOff = coupon === undefined ? undefined : coupons.get(coupon);
        if (amountOff === undefined) throw new StripeApiError(400, "invalid_request_error", `No such coupon: '${coupon}'`, "discounts");
        return sum + amountOff;
      }, 0);
      // Stripe takes one shipping option with fixed_amount in Checkout's payment mode, added after the discount.
      const options = Array.isArray(body.shipping_options) ? body.shipping_options : [];
      if (options.length > 1) throw new StripeApiError(400, "invalid_request_error", "Only one shipping option is supported here.", "shipping_options");
      const option = typeof options[0] === "object" && !Array.isArray(options[0]) ? options[0] : undefined;
      const rate = option && typeof option.shipping_rate_data === "object" && !Array.isArray(option.shipping_rate_data) ? option.shipping_rate_data : undefined;
      const fixed = rate && typeof rate.fixed_amount === "object" && !Array.isArray(rate.fixed_amount) ? rate.fixed_amount : undefined;
      if (option && (text(rate?.type) !== "fixed_amount" || !text(rate?.display_name) || text(fixed?.currency) !== "eur")) {
        throw new StripeApiError(400, "invalid_request_error", "Invalid shipping_rate_data.", "shipping_options[0][shipping_rate_data]");
      }
      const shipping = fixed ? integer(fixed.amount, "shipping_options[0][shipping_rate_data][fixed_amount][amount]", 0) : 0;
      if (body.submit_type !== undefined && !["auto", "pay", "book", "donate", "subscribe"].includes(text(body.submit_type) ?? "")) {
        throw new StripeApiError(400, "invalid_request_error", "Invalid submit_type.", "submit_type");
      }
      const sessionId = id("cs");
      const session = {
        id: sessionId,
        object: "checkout.session",
        url: `https://checkout.stripe.com/c/pay/${sessionId}`,
        mode: "payment",
        status: "open",
        payment_status: "unpaid",
        currency: "eur",
        amount_subtotal: subtotal,
        amount_total: Math.max(0, subtotal - discount) + shipping,
        shipping_cost: option ? { amount_subtotal: shipping, amount_total: shipping } : null,
        customer_email: text(body.customer_email) ?? null,
        billing_address_collection: text(body.billing_address_collection) ?? null,
        client_reference_id: text(body.client_reference_id) ?? null,
        metadata: body.metadata ?? {},
        success_url: text(body.success_url),
        cancel_url: text(body.cancel_url) ?? null,
        locale: text(body.locale) ?? null,
        expires_at: expiresAt,
        created: now,
        livemode: false,
        payment_intent: null,
      };
      sessions.set(sessionId, session);
      return session;
    }
    if (path === "/v1/coupons") {
      const amountOff = integer(body.amount_off, "amount_off", 1);
      if (!text(body.currency)) throw new StripeApiError(400, "invalid_request_error", "You must pass currency when passing amount_off.", "currency");
      const couponId = randomBytes(4).toString("hex").toUpperCase();
      coupons.set(couponId, amountOff);
      return { id: couponId, object: "coupon", amount_off: amountOff, currency: text(body.currency), duration: text(body.duration), name: text(body.name) ?? null, valid: true };
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (expire) return { id: expire[1], object: "checkout.session", status: "expired", payment_status: "unpaid" };
    if (path === "/v1/refunds") {
      const paymentIntent = text(body.payment_intent);
      if (!paymentIntent) throw new StripeApiError(400, "invalid_request_error", "One of the following params should be provided for this request: payment_intent or charge.");
      const amount = integer(body.amount, "amount", 1);
      const refund = { id: id("re"), object: "refund", amount, currency: "eur", payment_intent: paymentIntent, status: "succeeded", created: now };
      refunds.push(refund);
      return refund;
    }
    throw new StripeApiError(404, "invalid_request_error", `Unrecognized request URL (${method}: ${path})`);
  }

  function respond(req: http.IncomingMessage, rawBody: string): { status: number; response: StripeObject; replayed: boolean } {
    const path = new URL(req.url ?? "/", "http://fake").pathname;
    const method = req.method ?? "GET";
    if (failure.times > 0) {
      failure.times -= 1;
      const type = failure.status >= 500 ? "api_error" : "invalid_request_error";
      return { status: failure.status, response: { error: { type, message: "Fake Stripe: injected failure" } }, replayed: false };
    }
    const auth = req.headers.authorization ?? "";
    if (!/^Bearer sk_(test|live)_\S+$/.test(auth)) {
      return { status: 401, response: { error: { type: "invalid_request_error", message: "Invalid API Key provided" } }, replayed: false };
    }
    const key = req.headers["idempotency-key"];
    const scope = typeof key === "string" ? `${auth} ${key}` : null;
    const previous = scope ? replays.get(scope) : undefined;
    if (previous) {
      if (previous.method !== method || previous.path !== path || previous.rawBody !== rawBody) {
        const message = "Keys for idempotent requests can only be used with the same parameters they were first used with.";
        return { status: 400, response: { error: { type: "idempotency_error", message } }, replayed: false };
      }
      return { status: 200, response: previous.response, replayed: true };
    }
    try {
      const response = handle(method, path, parseStripeForm(rawBody));
      // Like Stripe, only a request that ran is saved against its key (not a validation error).
      if (scope) replays.set(scope, { method, path, rawBody, response });
      // The first answer with an id made it (a later one, such as an expiry, only names it).
      if (typeof key === "string" && typeof response.id === "string" && !createdWith.has(response.id)) createdWith.set(response.id, key);
      return { status: 200, response, replayed: false };
    } catch (error) {
      if (!(error instanceof StripeApiError)) throw error;
      const stripeError = { type: error.type, message: error.message, ...(error.param ? { param: error.param } : {}) };
      return { status: error.status, response: { error: stripeError }, replayed: false };
    }
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const rawBody = Buffer.concat(chunks).toString("utf8");
      const { status, response, replayed } = respond(req, rawBody);
      requests.push({
        method: req.method ?? "GET",
        path: new URL(req.url ?? "/", "http://fake").pathname,
        headers: req.headers,
        rawBody,
        body: parseStripeForm(rawBody),
        status,
        response,
      });
      res.writeHead(status, {
        "Content-Type": "application/json",
        "Request-Id": `req_${randomBytes(7).toString("hex")}`,
        ...(replayed ? { "Idempotent-Replayed": "true" } : {}),
      });
      res.end(JSON.stringify(response));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));

  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    sessions,
    refunds,
    idempotencyKeyOf: (objectId) => createdWith.get(objectId),
    failNext(status = 500, times = 1) {
      failure = { status, times };
    },
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        // The SDK keeps sockets alive; without this close() would wait for them to time out.
        server.closeAllConnections();
      }),
  };
}
