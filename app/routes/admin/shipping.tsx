import { ArrowDown, ArrowUp, Plus } from "lucide-react";
import { actionAnswer, actionRefusal as refused } from "~/components/admin/action-answers";
import { DeleteIconButton, EditIconLink } from "~/components/admin/row-actions";
import { useLayoutEffect, useRef, useState } from "react";
import { Link, useFetcher, useNavigate, useSearchParams } from "react-router";
import { type ShippingFormAnswer, ShippingMethodForm } from "~/components/admin/shipping-method-form";
import { useActionToast } from "~/components/admin/use-action-toast";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { fieldErrors } from "~/domain/field-errors";
import { countOf } from "~/domain/numbers";
import { SHIPPING_KIND_LABELS } from "~/domain/shipping-method";
import { bandsSummary, countriesSummary, freeFromLabel, shippingMethodFormDefaults, shippingMethodFormSchema } from "~/domain/shipping-method-form";
import type { AppContext } from "~/lib/context";
import { readForm } from "~/lib/request-input.server";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/services/session.server";
import {
  createShippingMethod,
  deleteShippingMethod,
  listShippingMethods,
  moveShippingMethod,
  setShippingMethodActive,
  shippingMethodId,
  updateShippingMethod,
} from "~/services/shipping-admin.server";
import { formatEuros } from "~/domain/money";
import { SIGNATURE_DELIVERY_LABEL, SIGNATURE_DELIVERY_TIERS } from "~/domain/signature-delivery";
import { isSignatureDeliveryEnabled, setSignatureDeliveryEnabled } from "~/services/signature-delivery-setting.server";
import type { Route } from "./+types/shipping";

const PATH = "/admin/shipping";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [methods, signatureEnabled] = await Promise.all([listShippingMethods(context.db), isSignatureDeliveryEnabled(context.db)]);
  return { methods, signatureEnabled };
}

export const meta: Route.MetaFunction = () => [{ title: "Livraison" }];

export type ShippingAnswer = ShippingFormAnswer & { intent?: "toggle" | "move" | "delete" | "signature"; id?: number; announce?: string };

const answer = actionAnswer<ShippingAnswer>;
const GONE = "Ce mode de livraison n'existe plus\u00a0: il a peut-être été supprimé dans un autre onglet.";
const quoted = (name: string) => `«\u00a0${name}\u00a0»`;

/** Add or edit (the form's schema again), activate or deactivate, move up or down, delete. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = Object.fromEntries([...(await readForm(request)).entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const id = form.id === undefined || form.id === "" ? null : shippingMethodId(form.id);
  if (form.id && id === null) return refused(400, "Requête invalide.");
  try {
    switch (form.intent) {
      case "save":
        return await save(context, form, id);
      case "toggle":
        if (id === null || (form.active !== "true" && form.active !== "false")) return refused(400, "Requête invalide.");
        return await toggle(context, id, form.active === "true");
      case "move":
        if (id === null || (form.direction !== "up" && form.direction !== "down")) return refused(400, "Requête invalide.");
        return await move(context, id, form.direction);
      case "delete":
        return id === null ? refused(400, "Requête invalide.") : await remove(context, id);
      case "signature":
        if (form.enabled !== "true" && form.enabled !== "false") return refused(400, "Requête invalide.");
        return await switchSignatureDelivery(context, form.enabled === "true");
      default:
        return refused(400, "Requête invalide.");
    }
  } catch (error) {
    context.logger.error({ err: error, intent: form.intent, id }, "admin: shipping method action failed");
    return refused(500, "Une erreur est survenue. Réessayez dans un instant.");
  }
}

async function save(context: AppContext, form: Record<string, string>, id: number | null) {
  const parsed = shippingMethodFormSchema.safeParse(form);
  if (!parsed.success) {
    return answer(400, { ok: false, errors: fieldErrors(parsed.error), toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } });
  }
  const values = parsed.data;
  if (id === null) {
    const row = await createShippingMethod(context.db, values);
    return answer(200, {
      ok: true,
      saved: { id: row.id, how: "created" },
      toast: {
        title: "Mode de livraison ajouté",
        description: row.active ? `${quoted(row.name)} est proposé aux clients.` : `${quoted(row.name)} est enregistré, désactivé\u00a0: les clients ne le voient pas encore.`,
      },
    });
  }
  const row = await updateShippingMethod(context.db, id, values);
  if (!row) return refused(404, GONE);
  return answer(200, {
    ok: true,
    saved: { id: row.id, how: "updated" },
    toast: { title: "Mode de livraison mis à jour", description: `${quoted(row.name)} est enregistré. Les commandes déjà passées gardent leur tarif.` },
  });
}

async function switchSignatureDelivery(context: AppContext, enabled: boolean) {
  await setSignatureDeliveryEnabled(context.db, enabled);
  return answer(200, {
    ok: true,
    intent: "signature",
    toast: enabled
      ? { title: `${SIGNATURE_DELIVERY_LABEL} proposée`, description: "Les clients peuvent la choisir dans le panier." }
      : { title: `${SIGNATURE_DELIVERY_LABEL} retirée`, description: "Le panier ne la propose plus et le paiement la refuse\u00a0; les commandes passées la gardent." },
  });
}

async function toggle(context: AppContext, id: number, active: boolean) {
  const row = await setShippingMethodActive(context.db, id, active);
  if (!row) return refused(404, GONE);
  return answer(200, {
    ok: true,
    intent: "toggle",
    id,
    toast: row.active
      ? { title: "Mode de livraison activé", description: `${quoted(row.name)} est proposé aux clients.` }
      : { title: "Mode de livraison désactivé", description: `${quoted(row.name)} n'est plus proposé\u00a0; les commandes déjà passées le gardent.` },
  });
}

async function move(context: AppContext, id: number, direction: "up" | "down") {
  const result = await moveShippingMethod(context.db, id, direction);
  if (result.outcome === "missing") return refused(404, GONE);
  const index = result.methods.findIndex((method) => method.id === id);
  const method = result.methods[index]!;
  // No toast: the row moves under the seller's eyes; screen readers hear where it went.
  return answer(200, { ok: true, intent: "move", id, toast: { title: "" }, announce: `${quoted(method.name)} est en position ${index + 1} sur ${result.methods.length}.` });
}

async function remove(context: AppContext, id: number) {
  const result = await deleteShippingMethod(context.db, id);
  switch (result.outcome) {
    case "missing":
      return refused(404, GONE);
    case "deleted":
      return answer(200, { ok: true, intent: "delete", id, toast: { title: "Mode de livraison supprimé", description: `${quoted(result.method.name)} a été supprimé.` } });
    case "deactivated":
      return answer(200, {
        ok: true,
        intent: "delete",
        id,
        toast: {
          title: "Mode de livraison désactivé",
          description: `${quoted(result.method.name)} a servi pour ${countOf(result.orderCount, "commande")}\u00a0: il reste dans la liste pour leur historique, désactivé.`,
        },
      });
  }
}

type Row = Route.ComponentProps["loaderData"]["methods"][number];

/** /admin/shipping: the delivery methods, their rates, and the form to add or edit one. */
export default function AdminShipping({ loaderData }: Route.ComponentProps) {
  const { methods, signatureEnabled } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editId = shippingMethodIdParam(params.get("edit"));
  const editing = editId === null ? null : (methods.find((method) => method.id === editId) ?? null);
  const creating = params.has("new");
  const rowAction = useFetcher<ShippingAnswer>();
  const [pending, setPending] = useState<Row | null>(null);
  // Screen readers hear where a moved method went (a move shows no toast).
  const announce = rowAction.data?.intent === "move" ? (rowAction.data.announce ?? "") : "";
  useActionToast(rowAction.data?.intent === "move" && rowAction.data.ok ? undefined : rowAction.data);

  // Where the focus goes once the list has its new rows: a method's own "Modifier" or move button.
  const focusNext = useRef<string | null>(null);
  useLayoutEffect(() => {
    const target = focusNext.current;
    if (!target) return;
    const element = document.querySelector<HTMLElement>(target);
    if (element) {
      focusNext.current = null;
      element.focus();
    }
  }, [methods]);

  function closeForm(focusId: number | null) {
    focusNext.current = focusId === null ? "#shipping-add" : `[data-edit="${focusId}"]`;
    void navigate(PATH, { replace: true, preventScrollReset: true });
  }

  const move = (row: Row, direction: "up" | "down") => {
    focusNext.current = `[data-move="${row.id}-${direction}"]`;
    void rowAction.submit({ intent: "move", id: String(row.id), direction }, { method: "post" });
  };
  const activeCount = methods.filter((method) => method.active).length;
  const franceCovered = methods.some((method) => method.active && method.countries.includes("FR"));

  return (
    <section className="space-y-6">
      <div className="flex flex-wrap items-end justify-between gap-4">
        <div>
          <h1 className="text-3xl font-extrabold tracking-tight">Livraison</h1>
          <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
            Les modes de livraison proposés dans le panier, leurs pays et leurs tarifs par tranche de poids. Le panier les classe du moins cher au plus cher, puis dans
            l'ordre ci-dessous. Une commande garde le mode, le délai et le prix choisis&nbsp;: les modifier ne change rien aux commandes passées.
          </p>
        </div>
        {creating ? null : (
          <Link id="shipping-add" to={`${PATH}?new`} preventScrollReset className={buttonVariants()}>
            <Plus aria-hidden="true" /> Ajouter un mode de livraison
          </Link>
        )}
      </div>

      {activeCount === 0 ? (
        <Alert tone="error" title="Aucun mode de livraison actif">
          Les clients ne peuvent pas commander&nbsp;: activez au moins un mode de livraison.
        </Alert>
      ) : !franceCovered ? (
        <Alert tone="info" title="Aucun mode actif ne livre en France">
          Les clients français ne peuvent pas commander.
        </Alert>
      ) : null}

      {creating || editing ? (
        <ShippingMethodForm
          key={editing ? `edit-${editing.id}` : "new"}
          methodId={editing?.id ?? null}
          initial={shippingMethodFormDefaults(editing)}
          onSaved={(saved) => closeForm(saved.id)}
          onCancel={() => closeForm(editing?.id ?? null)}
        />
      ) : null}

      {methods.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">
          Aucun mode de livraison. Ajoutez-en un&nbsp;: sans lui, les clients ne peuvent pas commander.
        </p>
      ) : (
        <div className="rounded-2xl border border-border bg-card md:overflow-x-auto">
          <table className="w-full text-left text-sm md:min-w-[56rem]">
            <caption className="sr-only">Modes de livraison, {methods.length}, dans l'ordre du panier</caption>
            {/* Under 768 px each row is a card (the headers become labels in the cells). */}
            <thead className="hidden border-b border-border text-muted-foreground md:table-header-group">
              <tr>
                {["Ordre", "Mode", "Pays", "Tarifs", "Offerte", "Délai", "Actif"].map((label) => (
                  <th key={label} scope="col" className="px-3 py-3 font-medium">
                    {label}
                  </th>
                ))}
                <th scope="col" className="px-3 py-3 text-right font-medium">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {methods.map((row, index) => {
                const countries = countriesSummary(row.countries);
                const bands = bandsSummary(row.bands);
                return (
                  <tr
                    key={row.id}
                    className={cn(
                      "grid grid-cols-2 gap-x-3 gap-y-2 p-4 hover:bg-muted/40 md:table-row md:p-0",
                      editing?.id === row.id && "bg-muted/40",
                      !row.active && "text-muted-foreground",
                    )}
                  >
                    <td className={cn(CELL, "order-7 self-center")}>
                      <div className="-ml-2 flex items-center gap-0.5 md:ml-0">
                        <MoveButton row={row} direction="up" limit={index === 0} busy={rowAction.state !== "idle"} onMove={move} />
                        <MoveButton row={row} direction="down" limit={index === methods.length - 1} busy={rowAction.state !== "idle"} onMove={move} />
                      </div>
                    </td>
                    <th scope="row" className={cn(CELL, "order-1 font-semibold md:min-w-36")}>
                      <span className="block text-base text-foreground md:text-sm">{row.name}</span>
                      <span className="mt-0.5 flex flex-wrap gap-1">
                        <Badge tone="info">{SHIPPING_KIND_LABELS[row.kind]}</Badge>
                        {row.orderCount > 0 ? <Badge tone="neutral">{countOf(row.orderCount, "commande")}</Badge> : null}
                        {/* An example the shop started with, never saved by the seller: the launch checklist waits for it. */}
                        {row.reviewedAt === null ? <Badge tone="warning">Exemple à vérifier</Badge> : null}
                      </span>
                    </th>
                    <td className={cn(CELL, "order-3 col-span-2")}>
                      <CellLabel>Pays</CellLabel>
                      <span className="block">{countries.label}</span>
                      {countries.others ? <span className="block text-xs text-muted-foreground md:max-w-48">{countries.others}</span> : null}
                    </td>
                    <td className={cn(CELL, "order-4 col-span-2")}>
                      <CellLabel>Tarifs</CellLabel>
                      <span className="tabular block whitespace-nowrap">{bands.prices}</span>
                      <span className="block text-xs whitespace-nowrap text-muted-foreground">{bands.detail}</span>
                    </td>
                    <td className={cn(CELL, "tabular order-5 md:whitespace-nowrap")}>
                      <CellLabel>Offerte</CellLabel>
                      {freeFromLabel(row.freeFromCents)}
                    </td>
                    <td className={cn(CELL, "order-6 md:min-w-24")}>
                      <CellLabel>Délai</CellLabel>
                      {row.deliveryTime || <span className="text-muted-foreground">—</span>}
                    </td>
                    <td className={cn(CELL, "order-2 justify-self-end md:justify-self-auto")}>
                      <ActiveSwitch row={row} />
                    </td>
                    <td className={cn(CELL, "order-8 self-center")}>
                      <div className="-mr-2 flex justify-end gap-1 md:mr-0">
                        <EditIconLink to={`${PATH}?edit=${row.id}`} preventScrollReset data-edit={row.id} label={`Modifier ${row.name}`} />
                        <DeleteIconButton label={`Supprimer ${row.name}`} onClick={() => setPending(row)} />
                      </div>
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      <p role="status" className="sr-only">
        {announce}
      </p>

      <SignatureDeliverySwitch enabled={signatureEnabled} />

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title={pending && pending.orderCount > 0 ? "Ce mode de livraison a déjà servi" : "Supprimer ce mode de livraison ?"}
        description={
          pending && pending.orderCount > 0
            ? `${quoted(pending.name)} a servi pour ${countOf(pending.orderCount, "commande")}\u00a0: il reste dans la liste pour leur historique. ${pending.active ? "Il sera désactivé\u00a0: les clients ne le verront plus." : "Il est déjà désactivé."}`
            : `${quoted(pending?.name ?? "")} ne sera plus proposé aux clients. Cette action est irréversible.`
        }
        confirmLabel={pending && pending.orderCount > 0 ? (pending.active ? "Désactiver" : "Fermer") : "Supprimer"}
        confirmVariant={pending && pending.orderCount > 0 ? "primary" : "destructive"}
        busy={rowAction.state !== "idle"}
        onConfirm={() => {
          if (!pending) return;
          if (pending.orderCount === 0 || pending.active) void rowAction.submit({ intent: "delete", id: String(pending.id) }, { method: "post" });
          if (editing?.id === pending.id) void navigate(PATH, { replace: true, preventScrollReset: true });
          setPending(null);
        }}
      />
    </section>
  );
}

/** A cell: a block of the row's card on phones, a table cell from 768 px. */
const CELL = "block md:table-cell md:order-none md:px-3 md:py-2 md:align-middle";

/** The column's name inside the cell, on phones only (the table's headers are hidden there). */
function CellLabel({ children }: { children: string }) {
  return <span className="block text-xs font-medium text-muted-foreground md:hidden">{children}</span>;
}

function shippingMethodIdParam(value: string | null): number | null {
  return value && /^\d{1,9}$/.test(value) ? Number(value) : null;
}

/**
 * Up or down one place. At the top (or the bottom) it says so (aria-disabled) but keeps the
 * focus: a keyboard user who moved a method to the top is still on its button.
 */
function MoveButton({ row, direction, limit, busy, onMove }: { row: Row; direction: "up" | "down"; limit: boolean; busy: boolean; onMove: (row: Row, direction: "up" | "down") => void }) {
  const Icon = direction === "up" ? ArrowUp : ArrowDown;
  const label = `${direction === "up" ? "Monter" : "Descendre"} ${row.name}`;
  return (
    <Button
      variant="ghost"
      size="icon"
      data-move={`${row.id}-${direction}`}
      aria-label={label}
      title={direction === "up" ? "Monter" : "Descendre"}
      aria-disabled={limit || undefined}
      className="aria-disabled:cursor-not-allowed aria-disabled:opacity-40 aria-disabled:hover:bg-transparent"
      onClick={() => {
        if (!limit && !busy) onMove(row, direction);
      }}
    >
      <Icon aria-hidden="true" />
    </Button>
  );
}

/** The list's switch: optimistic, the reloaded list says what the server kept. */
function ActiveSwitch({ row }: { row: Row }) {
  return <OnOffSwitch fields={{ intent: "toggle", id: String(row.id) }} name="active" on={row.active} label={`Proposer ${row.name} aux clients`} />;
}

/** "Remise contre signature" offered in the cart or not (decision 044); the server refuses it when off. */
function SignatureDeliverySwitch({ enabled }: { enabled: boolean }) {
  return (
    <section aria-labelledby="signature-delivery-title" className="rounded-2xl border border-border bg-card p-5">
      <div className="flex items-start justify-between gap-4">
        <div>
          <h2 id="signature-delivery-title" className="text-lg font-bold">
            {SIGNATURE_DELIVERY_LABEL}
          </h2>
          <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
            Option du panier&nbsp;: le colis n'est remis que contre la signature du destinataire, pour{" "}
            {SIGNATURE_DELIVERY_TIERS.map((tier) => `${formatEuros(tier.feeCents)} jusqu'à ${formatEuros(tier.upToCents)}`).join(" et ")} d'articles, non proposée au-delà. C'est un service de livraison, jamais une assurance&nbsp;: vous supportez de toute façon les risques du transport
            jusqu'à la remise du colis (article L216-4 du Code de la consommation). Ne la proposez que si votre transporteur fait signer la remise.
          </p>
        </div>
        <OnOffSwitch fields={{ intent: "signature" }} name="enabled" on={enabled} label={`Proposer la ${SIGNATURE_DELIVERY_LABEL.toLowerCase()} aux clients`} />
      </div>
    </section>
  );
}

/** A switch posting `name` = its next state with `fields`: optimistic, the reloaded page says what the server kept. */
function OnOffSwitch({ fields, name, on: saved, label }: { fields: Record<string, string>; name: string; on: boolean; label: string }) {
  const fetcher = useFetcher<ShippingAnswer>();
  useActionToast(fetcher.data);
  const on = fetcher.formData ? fetcher.formData.get(name) === "true" : saved;
  return (
    <fetcher.Form method="post">
      {Object.entries(fields).map(([key, value]) => (
        <input key={key} type="hidden" name={key} value={value} />
      ))}
      <input type="hidden" name={name} value={String(!on)} />
      <button
        type="submit"
        role="switch"
        aria-checked={on}
        aria-label={label}
        className="group inline-flex min-h-11 items-center rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
      >
        <span className={cn("relative inline-flex h-6 w-11 items-center rounded-full border transition-colors", on ? "border-primary bg-primary" : "border-border bg-muted")}>
          <span className={cn("inline-block size-4 rounded-full bg-background shadow transition-transform", on ? "translate-x-6" : "translate-x-1")} />
        </span>
      </button>
    </fetcher.Form>
  );
}
