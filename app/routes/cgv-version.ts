import { data } from "react-router";
import { cgvFileName } from "~/domain/cgv-snapshot";
import { pdfResponse, readOnlyAction } from "~/lib/http";
import { renderCgvPdf } from "~/services/cgv-pdf.server";
import { getCgvSnapshot } from "~/services/cgv.server";
import type { Route } from "./+types/cgv-version";

const FILE = /^([0-9a-f]{64})\.pdf$/;

/**
 * GET /cgv/{hash}.pdf: a version of the CGV as orders recorded it (services/cgv.server.ts), the
 * PDF the confirmation e-mail carried. Public, as the /legal page it was rendered from (it holds
 * the seller's identity, nothing of the buyer's); the same hash is always the same file.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const file = FILE.exec(params.file);
  const snapshot = file ? await getCgvSnapshot(context.db, file[1]!) : null;
  if (!snapshot) throw data(null, { status: 404 });
  return pdfResponse(await renderCgvPdf(snapshot, context.shop.name), cgvFileName(snapshot.hash), "public, max-age=86400");
}

export const action = readOnlyAction;
