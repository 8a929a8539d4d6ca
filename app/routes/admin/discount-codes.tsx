import { Pencil, Power, PowerOff, Trash2 } from "lucide-react";
import { actionAnswer, actionRefusal as refused } from "~/components/admin/action-answers";
import { useState } from "react";
import { Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import type { z } from "zod";
import { type CodeFormAnswer, DiscountCodeForm } from "~/components/admin/discount-code-form";
import { useActionToast } from "~/components/admin/use-action-toast";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { fieldErrors } from "~/domain/auth-forms";
import { discountFormSchemaAt, discountLimitsSchema, discountStatus, discountValueLabel, expiryLabel } from "~/domain/discounts";
import { formatEuros } from "~/domain/money";
import type { AppContext } from "~/lib/context";
import { cn } from "~/lib/utils";
import {
  type CodeWriteResult,
  type DiscountCode,
  createDiscountCode,
  deleteDiscountCode,
  getDiscountCode,
  listDiscountCodes,
  setDiscountCodeActive,
  updateDiscountCode,
} from "~/services/discounts.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/discount-codes";
import { readForm } from "~/lib/request-input.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { codes: await listDiscountCodes(context.db), now: new Date() };
}

export const meta: Route.MetaFunction = () => [{ title: "Codes promo" }];

const answer = actionAnswer<CodeFormAnswer>;
const GONE = "Ce code promo n'existe plus.";

/** Create or edit (the form's schema again), activate or deactivate, delete. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request)) as Record<string, string>;
  const current = form.id ? await getDiscountCode(context.db, form.id) : null;
  if (form.id && !current) return refused(404, GONE);
  try {
    switch (form.intent) {
      case "save":
        return await save(context, form, current);
      case "toggle":
        return current ? await toggle(context, current, form.active === "true") : refused(400, "Requête invalide.");
      case "delete":
        return current ? await remove(context, current) : refused(400, "Requête invalide.");
      default:
        return refused(400, "Requête invalide.");
    }
  } catch (error) {
    context.logger.error({ err: error, intent: form.intent }, "admin: discount code action failed");
    return refused(500, "Une erreur est survenue. Réessayez dans un instant.");
  }
}

async function save(context: AppContext, form: Record<string, string>, current: DiscountCode | null) {
  // The promotion's code takes only its minimum and limits here (its form decides the rest).
  if (current?.isPromotion) {
    const limits = discountLimitsSchema.safeParse(form);
    return limits.success ? saved(await updateDiscountCode(context.db, current.id, limits.data), true) : invalidForm(limits.error);
  }
  const values = discountFormSchemaAt({ now: () => new Date(), storedExpiry: current?.expiresAt }).safeParse(form);
  if (!values.success) return invalidForm(values.error);
  return saved(current ? await updateDiscountCode(context.db, current.id, values.data) : await createDiscountCode(context.db, values.data), current !== null);
}

function invalidForm(error: z.ZodError) {
  return answer(400, { ok: false, errors: fieldErrors(error), toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } });
}

function saved(result: CodeWriteResult, updated: boolean) {
  switch (result.outcome) {
    case "missing":
      return refused(404, GONE);
    case "duplicate":
      return answer(409, { ok: false, errors: { code: "Ce code existe déjà." }, toast: { title: "Code déjà utilisé", description: "Un autre code promo porte déjà ce nom." } });
    case "below-uses":
      return answer(409, {
        ok: false,
        errors: { maxUses: `Déjà ${usesText(result.uses)} (payées ou en cours)\u00a0: la limite ne peut pas être plus basse.` },
        toast: { title: "Limite trop basse", description: "Ce code a déjà servi plus de fois que la limite demandée." },
      });
    case "saved":
      return answer(200, {
        ok: true,
        saved: updated ? "updated" : "created",
        toast: updated
          ? { title: "Code promo mis à jour", description: `${result.code.code} est enregistré.` }
          : { title: "Code promo créé", description: `Les clients peuvent utiliser ${result.code.code}${result.code.isActive ? " dès maintenant" : " une fois activé"}.` },
      });
  }
}

const usesText = (n: number) => `${n} utilisation${n > 1 ? "s" : ""}`;

async function toggle(context: AppContext, current: DiscountCode, active: boolean) {
  const result = await setDiscountCodeActive(context.db, current.id, active);
  if (result.outcome === "promotion") return refused(409, "Ce code suit la promotion\u00a0: activez-le ou désactivez-le dans Promotions.");
  if (result.outcome !== "done") return refused(404, GONE);
  return answer(200, {
    ok: true,
    toast: active
      ? { title: "Code promo activé", description: `${current.code} peut être utilisé.` }
      : { title: "Code promo désactivé", description: `${current.code} ne peut plus être utilisé\u00a0; les commandes déjà passées le gardent.` },
  });
}

async function remove(context: AppContext, current: DiscountCode) {
  const result = await deleteDiscountCode(context.db, current.id);
  switch (result.outcome) {
    case "done":
      return answer(200, { ok: true, toast: { title: "Code promo supprimé", description: `${current.code} a été supprimé.` } });
    case "promotion":
      return refused(409, "Ce code est celui de la promotion\u00a0: changez-le dans Promotions.");
    case "used":
      return answer(409, { ok: false, toast: { title: "Suppression impossible", description: `${current.code} a déjà servi\u00a0: désactivez-le plutôt.` } });
    case "missing":
      return refused(404, GONE);
  }
}

type Row = Route.ComponentProps["loaderData"]["codes"][number];
type Pending = { row: Row; used: boolean } | null;

/** /admin/codes: the codes, their figures, and the form to create or edit one. */
export default function AdminDiscountCodes({ loaderData }: Route.ComponentProps) {
  const { codes, now } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editing = codes.find((row) => row.id === params.get("edit")) ?? null;
  const rowAction = useFetcher<CodeFormAnswer>();
  const [pending, setPending] = useState<Pending>(null);
  // A created code clears the form (a new key); an edited one closes it.
  const [formKey, setFormKey] = useState(0);
  useActionToast(rowAction.data);

  const used = (row: Row) => row.usedCount + row.reservedCount > 0;
  const toggleActive = (row: Row) => void rowAction.submit({ intent: "toggle", id: row.id, active: String(!row.isActive) }, { method: "post" });

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight">Codes promo</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Un pourcentage ou un montant fixe sur les articles (jamais sur la remise contre signature), calculé par le serveur au paiement. Une utilisation est réservée dès qu'une
          commande est créée et comptée quand elle est payée ; elle revient si la commande n'est pas payée (réservation expirée ou paiement annulé). Une commande
          payée puis remboursée garde son utilisation.
        </p>
      </div>

      <DiscountCodeForm
        key={editing ? `edit-${editing.id}` : `new-${formKey}`}
        code={editing}
        onSaved={(how) => (how === "created" ? setFormKey((key) => key + 1) : void navigate("/admin/codes", { replace: true, preventScrollReset: true }))}
      />

      {codes.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">Aucun code promo. Créez le premier avec le formulaire ci-dessus.</p>
      ) : (
        <div className="overflow-x-auto rounded-2xl border border-border bg-card">
          <table className="w-full min-w-[52rem] text-left text-sm">
            <caption className="sr-only">Codes promo, {codes.length}</caption>
            <thead className="border-b border-border text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium">Code</th>
                <th scope="col" className="px-3 py-3 font-medium">Réduction</th>
                <th scope="col" className="px-3 py-3 font-medium">Minimum</th>
                <th scope="col" className="px-3 py-3 font-medium">Expiration</th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Utilisations <span className="font-normal">(payées / limite)</span>
                </th>
                <th scope="col" className="px-3 py-3 font-medium">Par client</th>
                <th scope="col" className="px-3 py-3 font-medium">Statut</th>
                <th scope="col" className="px-3 py-3 text-right font-medium">Actions</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {codes.map((row) => {
                const status = discountStatus(row, now);
                return (
                  <tr key={row.id} className={cn("hover:bg-muted/40", editing?.id === row.id && "bg-muted/40")}>
                    <th scope="row" className="px-3 py-2 font-semibold tracking-wide">
                      {row.code}
                    </th>
                    <td className="tabular px-3 py-2 whitespace-nowrap">{discountValueLabel(row)}</td>
                    <td className="tabular px-3 py-2 whitespace-nowrap">{row.minSubtotalCents > 0 ? formatEuros(row.minSubtotalCents) : "Aucun"}</td>
                    <td className="tabular px-3 py-2 whitespace-nowrap">{expiryLabel(row.expiresAt)}</td>
                    <td className="tabular px-3 py-2 whitespace-nowrap">
                      {row.usedCount} / {row.maxUses ?? "illimité"}
                      {row.reservedCount > 0 ? <span className="block text-xs text-muted-foreground">+ {row.reservedCount} en cours</span> : null}
                    </td>
                    <td className="tabular px-3 py-2 whitespace-nowrap">{row.maxUsesPerCustomer ?? "Illimité"}</td>
                    <td className="px-3 py-2">
                      <span className="flex flex-wrap gap-1">
                        <Badge tone={status.tone}>{status.label}</Badge>
                        {row.isPromotion ? <Badge tone="info">Promotion</Badge> : null}
                      </span>
                    </td>
                    <td className="px-3 py-2">
                      <div className="flex justify-end gap-1">
                        <Link
                          to={`/admin/codes?edit=${row.id}`}
                          preventScrollReset
                          className={buttonVariants({ variant: "ghost", size: "icon" })}
                          aria-label={`Modifier ${row.code}`}
                          title="Modifier"
                        >
                          <Pencil aria-hidden="true" />
                        </Link>
                        {row.isPromotion ? null : (
                          <>
                            <Button
                              variant="ghost"
                              size="icon"
                              aria-label={`${row.isActive ? "Désactiver" : "Activer"} ${row.code}`}
                              title={row.isActive ? "Désactiver" : "Activer"}
                              disabled={rowAction.state !== "idle"}
                              onClick={() => toggleActive(row)}
                            >
                              {row.isActive ? <PowerOff aria-hidden="true" /> : <Power aria-hidden="true" />}
                            </Button>
                            <Button
                              variant="ghost"
                              size="icon"
                              className="text-destructive hover:text-destructive"
                              aria-label={`Supprimer ${row.code}`}
                              title="Supprimer"
                              onClick={() => setPending({ row, used: used(row) })}
                            >
                              <Trash2 aria-hidden="true" />
                            </Button>
                          </>
                        )}
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending?.used ? "Ce code a déjà servi" : "Supprimer ce code promo ?"}
        description={
          pending?.used
            ? `${pending.row.code} compte ${usesText(pending.row.usedCount + pending.row.reservedCount)} (payées ou en cours)\u00a0: il reste pour l'historique des commandes. ${pending.row.isActive ? "Désactivez-le pour qu'il ne puisse plus servir." : "Il est déjà désactivé."}`
            : `${pending?.row.code ?? ""} ne pourra plus être utilisé. Cette action est irréversible.`
        }
        confirmLabel={pending?.used ? (pending.row.isActive ? "Désactiver" : "Fermer") : "Supprimer"}
        confirmVariant={pending?.used ? "primary" : "destructive"}
        busy={rowAction.state !== "idle"}
        onConfirm={() => {
          if (!pending) return;
          if (!pending.used) void rowAction.submit({ intent: "delete", id: pending.row.id }, { method: "post" });
          else if (pending.row.isActive) toggleActive(pending.row);
          setPending(null);
        }}
      />
    </section>
  );
}
