import { data } from "react-router";
import { PRIVATE_PAGE_CACHE_CONTROL, pdfResponse, readOnlyAction } from "~/lib/http";
import { documentPdf } from "~/services/invoices.server";
import type { Route } from "./+types/order-document";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const FILE = /^([AF]-\d{4}-\d{6})\.pdf$/;

/**
 * GET /commande/{order id}/documents/{number}.pdf: an order's invoice or credit note, as issued
 * (services/invoices.server.ts). The order's random id is the key, as in the link of the
 * confirmation e-mail, the buyer's order page and the admin's: a guest has no account to sign
 * into. Never cached by a shared cache, never indexed.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const file = FILE.exec(params.file);
  if (!UUID.test(params.orderId) || !file) throw data(null, { status: 404 });
  const document = await documentPdf(context.db, params.orderId, file[1]!);
  if (!document) throw data(null, { status: 404 });
  return pdfResponse(document.pdf, `${document.number}.pdf`, PRIVATE_PAGE_CACHE_CONTROL);
}

export const action = readOnlyAction;
