import { fieldErrors } from "~/domain/field-errors";
import { WISHLIST_SIGNED_OUT, wishlistToggleSchema } from "~/domain/wishlist";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { addToWishlist, removeFromWishlist, wishlistProductIds } from "~/services/wishlist.server";
import { getViewer, isSameOriginPost } from "~/services/session.server";
import type { Route } from "./+types/api.wishlist";

/**
 * /api/wishlist: the hearts of cached public pages. GET gives the signed-in viewer's listed
 * product ids (components/product/wishlist-heart.tsx asks once a page load, only when the viewer hint says
 * signed in); POST adds or removes one product. Never cached: it is one person's.
 */
const NO_STORE = { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
const signedOut = () => Response.json({ error: WISHLIST_SIGNED_OUT }, { status: 401, headers: NO_STORE });

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await getViewer(request, context);
  if (!viewer) return signedOut();
  return Response.json({ productIds: await wishlistProductIds(context.db, viewer.id) }, { headers: NO_STORE });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) return Response.json({ error: "Requête refusée : elle doit venir du site de la boutique." }, { status: 403, headers: NO_STORE });
  const viewer = await getViewer(request, context);
  if (!viewer) return signedOut();
  const parsed = wishlistToggleSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    return Response.json({ error: errors.productId ?? errors.intent }, { status: 400, headers: NO_STORE });
  }
  const { productId, intent } = parsed.data;
  if (intent === "remove") {
    await removeFromWishlist(context.db, viewer.id, productId);
  } else {
    const added = await addToWishlist(context.db, viewer.id, productId);
    if (!added.ok) return Response.json({ error: added.message }, { status: added.status, headers: NO_STORE });
  }
  return Response.json({ ok: true }, { headers: NO_STORE });
}
