import { Download, Search, UserX } from "lucide-react";
import { actionAnswer } from "~/components/admin/action-answers";
import { useState } from "react";
import { Link, useFetcher } from "react-router";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Input } from "~/components/ui/input";
import { PRIVACY_EMAIL_INVALID, normalizePrivacyEmail, privacyActionSchema } from "~/domain/privacy";
import { readForm } from "~/lib/request-input.server";
import { eraseGuestData, exportGuestData } from "~/services/gdpr.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/privacy";

/**
 * /admin/privacy "Données personnelles": the GDPR tools for people without an account (guest
 * buyers, people who wrote through /contact or /rachat, withdrawals), by e-mail address, in any
 * case: what is held (counts), the JSON export, and the erasure after a confirmation. An
 * account's address is sent to its own page, whose erasure also closes the account.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Données personnelles" }];

type Held = { email: string; accountId: string | null; orders: number; requests: number; withdrawals: number; alerts: number; emails: number };
type Answer = ActionToast & { held?: Held };

const answer = actionAnswer<Answer>;

export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const parsed = privacyActionSchema.safeParse(Object.fromEntries(await readForm(request)));
  if (!parsed.success) return answer(400, { ok: false, toast: { title: "Erreur", description: parsed.error.issues[0]?.message ?? "Requête invalide." } });
  const email = normalizePrivacyEmail(parsed.data.email);
  if (!email) return answer(400, { ok: false, toast: { title: "Adresse invalide", description: PRIVACY_EMAIL_INVALID } });
  try {
    if (parsed.data.intent === "erase") {
      const result = await eraseGuestData({ db: context.db, privateFiles: context.privateFiles }, { email });
      if (result.outcome === "refused") return answer(409, { ok: false, toast: { title: "Action refusée", description: result.message } });
      if (result.outcome === "missing") return answer(200, { ok: true, toast: { title: "Rien à effacer", description: result.message } });
      // The record of the erasure: who and when, counts only (never the address).
      context.logger.info({ adminId: admin.id, orders: result.orders, requests: result.requests, emails: result.emails, withdrawals: result.withdrawals, alerts: result.alerts }, "gdpr: data by e-mail address erased");
      if ("photosLeft" in result && result.photosLeft > 0) context.logger.warn({ count: result.photosLeft }, "gdpr: buy-back photos of an erased address left in storage");
      return answer(200, {
        ok: true,
        toast: { title: "Données effacées", description: "Nom, adresse, téléphone et e-mail sont effacés ; les commandes gardent leurs montants et les factures restent telles qu'émises." },
      });
    }
    const exported = (await exportGuestData(context.db, email))!;
    const held: Held = {
      email,
      accountId: exported.account?.id ?? null,
      orders: exported.orders.length,
      requests: exported.requests.length,
      withdrawals: exported.orders.filter((o) => o.withdrawal).length,
      alerts: exported.alerts.length,
      emails: exported.emails.length,
    };
    return answer(200, { ok: true, toast: { title: "Recherche effectuée" }, held });
  } catch (error) {
    context.logger.error({ err: error, intent: parsed.data.intent }, "admin: privacy action failed");
    return answer(500, { ok: false, toast: { title: "Erreur", description: "Une erreur est survenue. Réessayez dans un instant." } });
  }
}

export default function AdminPrivacy() {
  const lookup = useFetcher<Answer>();
  const erase = useFetcher<Answer>();
  useActionToast(erase.data);
  const [confirming, setConfirming] = useState(false);
  const held = erase.data?.ok && erase.state === "idle" ? undefined : lookup.data?.held;
  const busy = lookup.state !== "idle" || erase.state !== "idle";

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight">Données personnelles</h1>
        <p className="mt-2 max-w-prose text-sm text-muted-foreground">
          Pour une personne sans compte (achat en invité, message de contact ou de rachat, rétractation) : saisissez son adresse e-mail pour exporter ou effacer ses données
          (majuscules et minuscules indifférentes). Les factures restent telles qu'émises et les montants des commandes sont conservés 10 ans (obligation légale).
        </p>
      </div>

      <lookup.Form method="post" className="flex max-w-xl flex-wrap items-end gap-3">
        <input type="hidden" name="intent" value="lookup" />
        <label className="flex min-w-64 flex-1 flex-col gap-1 text-sm font-medium">
          Adresse e-mail
          <Input type="email" name="email" required maxLength={254} autoComplete="off" />
        </label>
        <Button type="submit" disabled={busy}>
          <Search aria-hidden="true" /> Rechercher
        </Button>
      </lookup.Form>

      {lookup.data && !lookup.data.ok ? <Alert tone="error" title={lookup.data.toast.title}>{lookup.data.toast.description}</Alert> : null}

      {held ? (
        <div className="max-w-xl space-y-4 rounded-2xl border border-border bg-card p-5">
          <h2 className="font-bold break-all">{held.email}</h2>
          <ul className="list-disc space-y-1 pl-5 text-sm">
            <li>Commandes : {held.orders}</li>
            <li>Messages de contact et de rachat : {held.requests}</li>
            <li>Rétractations : {held.withdrawals}</li>
            <li>Alertes « Prévenez-moi » : {held.alerts}</li>
            <li>E-mails envoyés : {held.emails}</li>
          </ul>
          {held.accountId ? (
            <Alert tone="info" title="Cette adresse est celle d'un compte client">
              Exportez ou effacez ses données depuis <Link to={`/admin/users/${held.accountId}`} className="font-medium text-accent underline">sa fiche</Link>.
            </Alert>
          ) : (
            <div className="flex flex-wrap gap-3">
              <form method="post" action="/admin/privacy/export">
                <input type="hidden" name="email" value={held.email} />
                <Button type="submit" variant="outline">
                  <Download aria-hidden="true" /> Exporter (JSON)
                </Button>
              </form>
              <Button variant="destructive" disabled={busy} onClick={() => setConfirming(true)}>
                <UserX aria-hidden="true" /> Effacer ces données (RGPD)
              </Button>
            </div>
          )}
        </div>
      ) : null}

      <ConfirmDialog
        open={confirming && held !== undefined}
        onOpenChange={(open) => !open && setConfirming(false)}
        title="Effacer les données de cette adresse ?"
        description={`Les données personnelles liées à ${held?.email ?? ""} seront effacées. Cette action est irréversible.`}
        confirmLabel="Effacer définitivement"
        busy={busy}
        onConfirm={() => {
          if (held) void erase.submit({ intent: "erase", email: held.email }, { method: "post" });
          setConfirming(false);
        }}
      >
        <ul className="mt-3 list-disc space-y-1 pl-5 text-sm">
          <li>Nom, e-mail, adresse et téléphone remplacés : commandes, rétractations, messages, e-mails.</li>
          <li>Photos de rachat supprimées du stockage.</li>
          <li>Commandes conservées (articles, montants, pays) et factures inchangées : obligation légale de conservation.</li>
        </ul>
      </ConfirmDialog>
    </section>
  );
}
