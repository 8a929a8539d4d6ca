import { ArrowLeft, Scale } from "lucide-react";
import { data, Link, useFetcher } from "react-router";
import { AdminTable } from "~/components/admin/admin-table";
import { FormError } from "~/components/admin/form-error";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { controlClass, Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ORDER_STATUS_LABELS } from "~/domain/catalog-values";
import type { FieldErrors } from "~/domain/field-errors";
import { formatEuros } from "~/domain/money";
import { formatCalendarDate } from "~/domain/calendar-date";
import { formatParisDateTime } from "~/domain/paris-time";
import { ALLOCATION_RULE_LABELS, allocationFormSchema } from "~/domain/preorder-allocation-form";
import type { Allocation } from "~/domain/preorder-allocation";
import { readForm } from "~/lib/request-input.server";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { preorderProductView, submitAllocationForm } from "~/services/preorder-allocations.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/preorder";

/**
 * /admin/precommandes/:productId: one pre-order product for the seller (issue 55, decision 061):
 * its pre-orders per customer, the allocation form (units received, rule, preview, apply), the
 * allocation applied (rule, seed, each order's share) and the refunds it issued.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const view = /^\d{1,9}$/.test(params.productId) ? await preorderProductView(context.db, Number(params.productId)) : null;
  if (!view) throw data("Précommande introuvable", { status: 404 });
  return view;
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [{ title: loaderData ? `Précommande ${loaderData.product.title}` : "Précommande introuvable" }];

type Answer = {
  ok: boolean;
  errors?: FieldErrors;
  preview?: Allocation & { seed: string };
  toast?: { title: string; description: string };
};

/** intent=preview (writes nothing) or intent=apply: the form's schema decides, the service refuses what cannot be done now. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  if (!/^\d{1,9}$/.test(params.productId)) return data<Answer>({ ok: false, errors: { form: "Précommande introuvable." } }, { status: 404 });
  const form = Object.fromEntries(await readForm(request));
  const answer = await submitAllocationForm(context.db, context.payments, { productId: Number(params.productId), form, actorId: admin.id }, webhookDepsFrom(context));
  if (!answer.ok) return data<Answer>({ ok: false, errors: answer.errors, toast: { title: "Répartition refusée", description: answer.errors.form ?? "Veuillez corriger les erreurs dans le formulaire." } }, { status: answer.status });
  if (answer.intent === "preview") return data<Answer>({ ok: true, preview: answer.preview });
  context.kickMail();
  context.logger.info({ productId: params.productId, outcome: answer.outcome, ...answer.refunds }, "admin: pre-order allocation");
  const failed = answer.refunds.failed > 0 ? ` ${answer.refunds.failed} remboursement${answer.refunds.failed > 1 ? "s" : ""} en échec, retentés automatiquement.` : "";
  return data<Answer>({
    ok: true,
    toast: {
      title: answer.outcome === "applied" ? "Répartition appliquée" : "Répartition déjà appliquée",
      description: `${answer.refunds.refunded} précommande${answer.refunds.refunded > 1 ? "s" : ""} remboursée${answer.refunds.refunded > 1 ? "s" : ""}.${failed}`,
    },
  });
}

type View = Route.ComponentProps["loaderData"];
const APPLY_FETCHER = "preorder-allocation-apply";

export default function AdminPreorder({ loaderData }: Route.ComponentProps) {
  const { product, preorders, allocation, refunds } = loaderData;
  // The page's, not the form's: the form gives way to the applied allocation when its answer comes.
  const applied = useFetcher<Answer>({ key: APPLY_FETCHER }).data;
  useActionToast(applied?.toast ? (applied as ActionToast) : undefined);
  const paid = preorders.filter((line) => line.status !== "pending_payment" && line.status !== "cancelled" && line.status !== "expired");
  const paidUnits = paid.reduce((sum, line) => sum + line.units, 0);
  return (
    <section className="space-y-6">
      <Link to="/admin/precommandes" className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 h-11" })}>
        <ArrowLeft aria-hidden="true" /> Toutes les précommandes
      </Link>
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight [overflow-wrap:anywhere]">{product.title}</h1>
        <p className="mt-1 text-sm text-muted-foreground">
          Sortie le {formatCalendarDate(product.releaseOn)} · livraison estimée le {formatCalendarDate(product.estimatedDeliveryOn)} · limite de {product.perCustomerLimit} par client
        </p>
        <p className="mt-2 text-sm" data-testid="preorder-figures">
          <strong>{product.orderedUnits}</strong> précommandés sur {product.quantity} · <strong>{paidUnits}</strong> payés ({paid.length} commande{paid.length > 1 ? "s" : ""})
        </p>
        <Link to={`/admin/products/edit/${product.productId}`} className="mt-1 inline-block text-sm underline underline-offset-4">
          Réglages de la précommande (fiche produit)
        </Link>
      </div>

      {allocation ? <AppliedAllocation allocation={allocation} refunds={refunds} /> : <AllocationForm />}

      <section aria-labelledby="preorders-title" className="rounded-2xl border border-border bg-card p-5">
        <h2 id="preorders-title" className="text-lg font-bold">
          Précommandes par client
        </h2>
        {preorders.length === 0 ? (
          <p className="mt-2 text-sm text-muted-foreground">Aucune précommande pour l'instant.</p>
        ) : (
          <div className="mt-3 overflow-x-auto">
            <AdminTable
              className="min-w-[36rem]"
              columns={[{ label: "Commande" }, { label: "Client" }, { label: "Exemplaires", numeric: true }, { label: "État" }, allocation ? { label: "Attribués", numeric: true } : false]}
              rows={preorders}
              rowKey={(line) => line.orderId}
              renderRow={(line) => (
                <>
                  <td className="py-2 pr-3">
                    <Link to={`/admin/orders/${encodeURIComponent(line.number)}`} className="font-mono underline-offset-4 hover:underline focus-visible:underline">
                      {line.number}
                    </Link>
                    <span className="block text-xs text-muted-foreground">{formatParisDateTime(line.createdAt)}</span>
                  </td>
                  <td className="py-2 pr-3 [overflow-wrap:anywhere]">
                    {line.customerName ?? "—"}
                    <span className="block text-xs text-muted-foreground">{line.customerEmail ?? ""}</span>
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{line.units}</td>
                  <td className="py-2 pr-3">{ORDER_STATUS_LABELS[line.status]}</td>
                  {allocation ? <td className="py-2 text-right tabular-nums">{line.allocated === null ? "—" : `${line.allocated} / ${line.units}`}</td> : null}
                </>
              )}
            />
          </div>
        )}
      </section>
    </section>
  );
}

/** Units received and the rule, previewed; then the preview's own values (its seed included) applied. */
function AllocationForm() {
  const previewer = useFetcher<Answer>();
  const applier = useFetcher<Answer>({ key: APPLY_FETCHER });
  const { errors, onSubmit, onChange } = useFormValidation(allocationFormSchema, previewer.data?.errors);
  const preview = previewer.data?.preview;
  const busy = previewer.state !== "idle" || applier.state !== "idle";
  return (
    <section aria-labelledby="allocation-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="allocation-title" className="flex items-center gap-2 text-lg font-bold">
        <Scale className="size-5" aria-hidden="true" /> Répartir la livraison
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Si les exemplaires reçus couvrent toutes les précommandes payées, toutes sont confirmées. Sinon, la règle choisie décide qui est servi ; les
        autres sont remboursés (en entier ou les exemplaires manquants) et reçoivent un e-mail d'excuses. Les exemplaires en trop vont au stock.
      </p>
      <previewer.Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
        <input type="hidden" name="intent" value="preview" />
        <FormError message={errors.form} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Exemplaires reçus" required error={errors.received}>
            {(props) => <Input {...props} name="received" inputMode="numeric" autoComplete="off" />}
          </Field>
          <Field label="Règle de répartition" required error={errors.rule} hint="Le tirage au sort donne un ticket par client, quel que soit le nombre d'exemplaires demandés.">
            {(props) => (
              <select {...props} name="rule" defaultValue="order" className={cn(controlClass, "h-11")}>
                {(Object.keys(ALLOCATION_RULE_LABELS) as (keyof typeof ALLOCATION_RULE_LABELS)[]).map((rule) => (
                  <option key={rule} value={rule}>
                    {ALLOCATION_RULE_LABELS[rule]}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <div>
          <Button type="submit" variant="outline" disabled={busy}>
            Prévisualiser la répartition
          </Button>
        </div>
      </previewer.Form>
      {preview && !applier.data?.ok ? (
        <div className="mt-6 border-t border-border pt-5" aria-live="polite">
          <h3 className="font-semibold">Résultat prévu</h3>
          <AllocationSummary allocation={preview} />
          <ShareTable orders={preview.orders} />
          <applier.Form method="post" className="mt-4">
            <input type="hidden" name="intent" value="apply" />
            <input type="hidden" name="received" value={preview.received} />
            <input type="hidden" name="rule" value={preview.rule} />
            <input type="hidden" name="seed" value={preview.rule === "draw" ? preview.seed : ""} />
            <FormError message={applier.data?.errors ? Object.values(applier.data.errors)[0] : undefined} className="mb-3" />
            <Button type="submit" disabled={busy}>
              Appliquer cette répartition
            </Button>
          </applier.Form>
        </div>
      ) : null}
    </section>
  );
}

function AllocationSummary({ allocation }: { allocation: Pick<Allocation, "rule" | "received" | "allocated" | "orders"> }) {
  const refundedOrders = allocation.orders.filter((order) => order.refunded > 0).length;
  return (
    <p className="mt-1 text-sm" data-testid="allocation-summary">
      {ALLOCATION_RULE_LABELS[allocation.rule]} · {allocation.received} reçus · <strong>{allocation.allocated}</strong> attribués ·{" "}
      {allocation.received - allocation.allocated} au stock · <strong>{refundedOrders}</strong> précommande{refundedOrders > 1 ? "s" : ""} remboursée{refundedOrders > 1 ? "s" : ""} (en tout ou en partie)
    </p>
  );
}

function ShareTable({ orders }: { orders: { orderId: string; ordered: number; allocated: number; refunded: number }[] }) {
  return (
    <div className="mt-3 max-h-96 overflow-auto">
      <AdminTable
        caption="Exemplaires attribués et remboursés par précommande, dans l'ordre des précommandes"
        columns={[{ label: "Précommande" }, { label: "Demandés", numeric: true }, { label: "Attribués", numeric: true }, { label: "Remboursés", numeric: true }]}
        rows={orders}
        rowKey={(order) => order.orderId}
        renderRow={(order, i) => (
          <>
            <td className="py-1.5 pr-3 tabular-nums">n° {i + 1}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{order.ordered}</td>
            <td className="py-1.5 pr-3 text-right tabular-nums">{order.allocated}</td>
            <td className="py-1.5 text-right tabular-nums">{order.refunded}</td>
          </>
        )}
      />
    </div>
  );
}

/** The allocation applied: its rule and seed (to replay the draw), its figures, and the refunds it issued. */
function AppliedAllocation({ allocation, refunds }: { allocation: NonNullable<View["allocation"]>; refunds: View["refunds"] }) {
  return (
    <section aria-labelledby="applied-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="applied-title" className="flex items-center gap-2 text-lg font-bold">
        <Scale className="size-5" aria-hidden="true" /> Répartition appliquée
      </h2>
      <dl className="mt-3 grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
        <dt className="font-medium text-muted-foreground">Appliquée le</dt>
        <dd>{formatParisDateTime(allocation.createdAt)}</dd>
        <dt className="font-medium text-muted-foreground">Règle</dt>
        <dd>{ALLOCATION_RULE_LABELS[allocation.rule]}</dd>
        <dt className="font-medium text-muted-foreground">Exemplaires</dt>
        <dd>
          {allocation.unitsReceived} reçus · {allocation.unitsAllocated} attribués · {allocation.unitsToStock} au stock
        </dd>
        {allocation.seed ? (
          <>
            <dt className="font-medium text-muted-foreground">Graine du tirage</dt>
            <dd className="font-mono text-xs [overflow-wrap:anywhere]">{allocation.seed}</dd>
          </>
        ) : null}
      </dl>
      <p className="mt-2 text-sm" data-testid="allocation-replay">
        {allocation.replayMatches ? "Rejouée depuis ce qui est enregistré, la répartition donne le même résultat." : "Attention : rejouée depuis ce qui est enregistré, la répartition ne donne plus le même résultat."}
        {allocation.seed ? " Le ticket de chaque client est HMAC-SHA256(graine, client) : avec la graine, n'importe qui peut rejouer le tirage." : ""}
      </p>
      <h3 className="mt-5 font-semibold">Remboursements</h3>
      {refunds.length === 0 ? (
        <p className="mt-1 text-sm text-muted-foreground">Aucun remboursement : toutes les précommandes ont été servies.</p>
      ) : (
        <div className="mt-2 overflow-x-auto">
          <AdminTable
            className="min-w-[30rem]"
            columns={[{ label: "Commande" }, { label: "Montant", numeric: true }, { label: "Avoir" }, { label: "État" }]}
            rows={refunds}
            rowKey={(refund) => `${refund.orderNumber}-${refund.creditNoteNumber ?? refund.amountCents}`}
            renderRow={(refund) => (
              <>
                <td className="py-1.5 pr-3 font-mono">{refund.orderNumber}</td>
                <td className="py-1.5 pr-3 text-right tabular-nums">{formatEuros(refund.amountCents)}</td>
                <td className="py-1.5 pr-3 font-mono">{refund.creditNoteNumber ?? "—"}</td>
                <td className="py-1.5">{refund.status === "refunded" ? <Badge tone="success">Remboursé</Badge> : <Badge tone="warning">En cours</Badge>}</td>
              </>
            )}
          />
        </div>
      )}
    </section>
  );
}
