import { parse, serialize } from "cookie";
import { admissionCookie, ticketCookie } from "~/domain/drop-cookies";
import { networkKey } from "~/domain/drop-rules";
import type { QueueView } from "~/domain/waiting-room";
import type { AppContext } from "~/lib/context";
import { isSameOriginPost } from "~/services/session.server";
import { admissionToken, joinQueue, queueView } from "~/services/waiting-room.server";
import type { Route } from "./+types/api.drop-queue";

/**
 * /api/drops/:productId/file, a drop's waiting room for this browser: GET its place (or its
 * admission, or sold out) with the figures, polled by the product page; POST takes a ticket (free,
 * nothing held). The ticket and the admission are httpOnly cookies: the admission reaches the
 * checkout without any script handling it.
 */
const NO_STORE = { "Cache-Control": "no-store" };

function productIdOf(params: { productId?: string }): number {
  if (!/^\d{1,9}$/.test(params.productId ?? "")) throw Response.json({ error: "Produit inconnu." }, { status: 404, headers: NO_STORE });
  return Number(params.productId);
}

function cookieOptions(context: AppContext, maxAgeSeconds: number) {
  return { httpOnly: true, sameSite: "lax" as const, path: "/", secure: context.publicUrl.startsWith("https:"), maxAge: maxAgeSeconds };
}

/** The view, with the admission's cookie once the turn has come. */
function answer(context: AppContext, productId: number, ticketId: string | null, view: QueueView, extra: Headers = new Headers()) {
  const headers = new Headers(NO_STORE);
  for (const cookie of extra.getSetCookie()) headers.append("Set-Cookie", cookie);
  if (view.state === "admitted" && ticketId) {
    const expiresAt = new Date(view.expiresAt);
    const token = admissionToken(ticketId, productId, expiresAt, context.dropSecret);
    const seconds = Math.max(1, Math.ceil((expiresAt.getTime() - Date.now()) / 1000));
    headers.append("Set-Cookie", serialize(admissionCookie(productId), token, cookieOptions(context, seconds)));
  }
  return Response.json(view, { headers });
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  const productId = productIdOf(params);
  const ticketId = parse(request.headers.get("cookie") ?? "")[ticketCookie(productId)] ?? null;
  const view = await queueView(context.db, productId, ticketId, new Date());
  if (!view) throw Response.json({ error: "Ce produit n'a pas de file d'attente." }, { status: 404, headers: NO_STORE });
  return answer(context, productId, ticketId, view);
}

export async function action({ request, params, context }: Route.ActionArgs) {
  if (request.method !== "POST" || !isSameOriginPost(request, context.publicUrl)) throw Response.json({ error: "Requête refusée." }, { status: 403, headers: NO_STORE });
  const productId = productIdOf(params);
  const now = new Date();
  const current = parse(request.headers.get("cookie") ?? "")[ticketCookie(productId)] ?? null;
  const before = await queueView(context.db, productId, current, now);
  if (!before) throw Response.json({ error: "Ce produit n'a pas de file d'attente." }, { status: 404, headers: NO_STORE });
  // Already in line or admitted: the same place, no second ticket.
  if (before.state === "waiting" || before.state === "admitted" || before.state === "sold_out") return answer(context, productId, current, before);
  const joined = await joinQueue(context.db, productId, { network: networkKey(context.clientIp), now });
  if (!joined.ok) throw Response.json({ error: joined.error }, { status: joined.status, headers: NO_STORE });
  const headers = new Headers();
  headers.append("Set-Cookie", serialize(ticketCookie(productId), joined.ticketId, cookieOptions(context, 24 * 60 * 60)));
  const view = (await queueView(context.db, productId, joined.ticketId, now))!;
  return answer(context, productId, joined.ticketId, view, headers);
}
