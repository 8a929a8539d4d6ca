import { Badge } from "~/components/ui/badge";
import { Pagination } from "~/components/ui/pagination";
import { OUTBOX_STATUS_LABELS, OUTBOX_STATUS_TONES } from "~/domain/outbox";
import { parsePageNumber } from "~/domain/pagination";
import { listOutbox } from "~/services/mail.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/emails";
import { formatParisShortDateTime } from "~/domain/paris-time";
import { Link } from "react-router";

const PAGE_SIZE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const page = parsePageNumber(new URL(request.url).searchParams.get("page"));
  return listOutbox(context.db, { page, pageSize: PAGE_SIZE });
}

export const meta: Route.MetaFunction = () => [{ title: "E-mails envoyés" }];



/** The outbox: every e-mail the shop sent or will send (without SMTP_URL they wait here). */
export default function AdminEmails({ loaderData }: Route.ComponentProps) {
  const { emails, counts, page, pageCount } = loaderData;
  return (
    <section>
      <h1 className="text-3xl font-extrabold tracking-tight">E-mails</h1>
      <p className="mt-1 text-sm text-muted-foreground">
        {counts.sent} envoyé{counts.sent > 1 ? "s" : ""} · {counts.pending} en attente · {counts.failed} en échec
      </p>
      {emails.length === 0 ? (
        <p className="mt-8 rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">Aucun e-mail pour le moment.</p>
      ) : (
        <div className="mt-6 overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full text-left text-sm">
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="px-4 py-3 font-medium">Date</th>
                <th scope="col" className="px-4 py-3 font-medium">Destinataire</th>
                <th scope="col" className="px-4 py-3 font-medium">Sujet</th>
                <th scope="col" className="px-4 py-3 font-medium">Statut</th>
              </tr>
            </thead>
            <tbody>
              {emails.map((email) => (
                <tr key={email.id} className="border-b border-border last:border-0">
                  <td className="tabular whitespace-nowrap px-4 py-3 text-muted-foreground">{formatParisShortDateTime(email.createdAt)}</td>
                  <td className="px-4 py-3">{email.to}</td>
                  <td className="px-4 py-3">
                    <Link to={`/admin/emails/${email.id}`} className="font-medium text-accent hover:underline">
                      {email.subject}
                    </Link>
                  </td>
                  <td className="px-4 py-3">
                    <Badge tone={OUTBOX_STATUS_TONES[email.status]}>{OUTBOX_STATUS_LABELS[email.status]}</Badge>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pagination page={page} pageCount={pageCount} href={(n) => `/admin/emails?page=${n}`} className="mt-6" />
    </section>
  );
}
