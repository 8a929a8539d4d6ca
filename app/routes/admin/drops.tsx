import { useEditorForm } from "~/components/admin/use-editor-form";
import { EditorFormActions } from "~/components/admin/editor-form-actions";
import { actionAnswer, actionRefusal as refused } from "~/components/admin/action-answers";
import { Rocket } from "lucide-react";
import { useEffect, useState } from "react";
import { useFetcher, useNavigate, useRevalidator, useSearchParams } from "react-router";
import { DeleteIconButton, EditIconLink } from "~/components/admin/row-actions";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { controlClass, Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { SwitchField } from "~/components/ui/switch-field";
import { DROP_HOLD_MINUTES_DEFAULT, DROP_REFUSAL_LABELS, DROP_START_MODES, dropFormSchema, FAIR_WINDOW_MINUTES_DEFAULT, START_MODE_LABELS } from "~/domain/drop-form";
import { limitText } from "~/domain/drop-limit-text";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";
import { formatParisDateTime } from "~/domain/paris-time";
import { readForm } from "~/lib/request-input.server";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { deleteDrop, dropCandidates, listDrops, saveDrop } from "~/services/drops-admin.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/drops";

/**
 * /admin/drops "Sorties": the products the seller releases to a rush, with their rules for
 * buyers (a per-customer limit that holds across orders, an account if wanted, how long a
 * checkout holds its units, how the start is ordered) and their figures. The opening time and
 * the units are the product's (its form).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const [drops, candidates] = await Promise.all([listDrops(context.db), dropCandidates(context.db)]);
  // Under way: a line, holds, or an opening within the hour; the page then refreshes its figures.
  const now = Date.now();
  const live = drops.some((drop) => drop.waiting + drop.admitted + drop.held > 0 || (drop.dropTime !== null && Math.abs(Date.parse(drop.dropTime) - now) < 3_600_000));
  return { drops, candidates, live };
}

export const meta: Route.MetaFunction = () => [{ title: "Sorties" }];

type Answer = ActionToast & { errors?: FieldErrors; saved?: "created" | "updated" };
const answer = actionAnswer<Answer>;
const GONE = "Ce produit n'existe plus ou n'est plus une sortie.";

/** intent=save (editing: the drop's product id) or intent=delete. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request)) as Record<string, string>;
  const editing = form.editing ? (/^\d{1,9}$/.test(form.editing) ? Number(form.editing) : 0) : null;
  try {
    if (form.intent === "save") {
      const values = dropFormSchema.safeParse(editing === null ? form : { ...form, productId: String(editing) });
      if (!values.success) {
        return answer(400, { ok: false, errors: fieldErrors(values.error), toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } });
      }
      const result = await saveDrop(context.db, editing, values.data);
      if (result.outcome === "missing") return refused(404, GONE);
      if (result.outcome === "duplicate") {
        return answer(409, { ok: false, errors: { productId: "Ce produit est déjà une sortie." }, toast: { title: "Déjà une sortie", description: "Modifiez-la dans la liste." } });
      }
      context.logger.info({ ...values.data }, `admin: drop ${result.outcome}`);
      return answer(200, {
        ok: true,
        saved: result.outcome,
        toast: { title: result.outcome === "created" ? "Sortie créée" : "Sortie mise à jour", description: `${result.title} : ${limitText(values.data.perCustomerLimit).toLowerCase()}.` },
      });
    }
    if (form.intent === "delete" && /^\d{1,9}$/.test(form.productId ?? "")) {
      const result = await deleteDrop(context.db, Number(form.productId));
      if (result.outcome === "missing") return refused(404, GONE);
      return answer(200, { ok: true, toast: { title: "Sortie retirée", description: `${result.title} n'a plus de limite par client.` } });
    }
    return refused(400, "Requête invalide.");
  } catch (error) {
    context.logger.error({ err: error, intent: form.intent }, "admin: drop action failed");
    return refused(500, "Une erreur est survenue. Réessayez dans un instant.");
  }
}

type Drop = Route.ComponentProps["loaderData"]["drops"][number];
type Candidate = Route.ComponentProps["loaderData"]["candidates"][number];

export default function AdminDrops({ loaderData }: Route.ComponentProps) {
  const { drops, candidates, live } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editing = drops.find((row) => String(row.productId) === params.get("edit")) ?? null;
  const rowAction = useFetcher<Answer>();
  const [pending, setPending] = useState<Drop | null>(null);
  const [formKey, setFormKey] = useState(0);
  useActionToast(rowAction.data);
  useLiveFigures(live);

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight">Sorties</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Un produit très attendu devient une sortie&nbsp;: sa limite par client vaut pour ses commandes payées ou en attente de paiement depuis
          l'ouverture, reconnues par le compte, l'adresse e-mail (majuscules, points Gmail et +étiquettes compris) et, au paiement, l'adresse de
          livraison. Une seule commande non payée par client, et une réservation courte. La date d'ouverture et les unités sont celles du produit (son
          formulaire)&nbsp;: une nouvelle date d'ouverture (un réassort) ouvre une nouvelle sortie, dont la limite et les chiffres repartent de zéro.
        </p>
      </div>

      <DropForm
        key={editing ? `edit-${editing.productId}` : `new-${formKey}`}
        drop={editing}
        candidates={candidates}
        onSaved={(how) => (how === "created" ? setFormKey((key) => key + 1) : void navigate("/admin/drops", { replace: true, preventScrollReset: true }))}
      />

      {drops.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">Aucune sortie. Créez la première avec le formulaire ci-dessus.</p>
      ) : (
        <ul className="grid gap-4 xl:grid-cols-2" aria-label="Sorties">
          {drops.map((row) => (
            <li key={row.productId} className={cn("flex flex-col gap-3 rounded-2xl border border-border bg-card p-5", editing?.productId === row.productId && "ring-2 ring-ring")}>
              <div className="flex flex-wrap items-start justify-between gap-2">
                <div className="min-w-0">
                  <h2 className="text-lg font-bold [overflow-wrap:anywhere]">{row.title}</h2>
                  <p className="text-sm text-muted-foreground">{row.dropTime ? `Ouverture le ${formatParisDateTime(row.dropTime)}` : "Sans date d'ouverture"}</p>
                </div>
                <div className="flex items-center gap-1">
                  <Badge tone={row.status === "a_venir" ? "warning" : "success"}>{row.status === "a_venir" ? "À venir" : row.status === "en_ligne" ? "En vente" : "Hors ligne"}</Badge>
                  <EditIconLink to={`/admin/drops?edit=${row.productId}`} preventScrollReset label={`Modifier la sortie ${row.title}`} />
                  <DeleteIconButton label={`Retirer la sortie ${row.title}`} onClick={() => setPending(row)} />
                </div>
              </div>
              <p className="text-sm" data-testid="drop-figures">
                <strong>{row.available}</strong> disponibles · <strong>{row.held}</strong> en cours de paiement · <strong>{row.sold}</strong> vendus
              </p>
              <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[12rem_1fr]">
                <DropValue label="Limite" value={limitText(row.perCustomerLimit)} />
                <DropValue label="Compte" value={row.accountRequired ? "Obligatoire" : "Facultatif (adresse e-mail demandée)"} />
                <DropValue label="Réservation" value={`${row.holdMinutes} minutes`} />
                <DropValue label="Départ" value={row.startMode === "fair_start" ? `Équitable : arrivées des ${row.fairWindowMinutes} dernières minutes tirées au sort` : START_MODE_LABELS.first_come} />
                <DropValue label="File d'attente" value={`${row.waiting} en attente · ${row.admitted} admis`} />
                <DropValue label="Alertes en attente" value={String(row.alerts)} />
              </dl>
              <FairnessSummary drop={row} />
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title="Retirer cette sortie ?"
        description={pending ? `${pending.title} restera en vente, sans limite par client ni réservation courte. Ses commandes ne changent pas.` : ""}
        confirmLabel="Retirer"
        busy={rowAction.state !== "idle"}
        onConfirm={() => {
          if (pending) void rowAction.submit({ intent: "delete", productId: String(pending.productId) }, { method: "post" });
          setPending(null);
        }}
      />
    </section>
  );
}

/** A drop under way: its figures refresh every 5 s while the page is seen. */
const LIVE_REFRESH_MS = 5_000;
function useLiveFigures(live: boolean) {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!live) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && revalidator.state === "idle") void revalidator.revalidate();
    }, LIVE_REFRESH_MS);
    return () => window.clearInterval(timer);
  }, [live, revalidator]);
}

/** Who got what, and who was refused why: kept after the drop. */
function FairnessSummary({ drop }: { drop: Drop }) {
  // In the labels' order, whatever order the database gave them in.
  const refusals = Object.keys(DROP_REFUSAL_LABELS)
    .map((reason) => [reason, drop.refusals[reason] ?? 0] as const)
    .filter(([, n]) => n > 0);
  return (
    <div className="rounded-xl bg-muted/50 p-3 text-sm" data-testid="fairness-summary">
      <p className="font-semibold">Équité</p>
      <p>
        {drop.customers} client{drop.customers > 1 ? "s" : ""} servi{drop.customers > 1 ? "s" : ""} · au plus {drop.largestShare} unité{drop.largestShare > 1 ? "s" : ""} par client
        {drop.refusedAtPayment > 0 ? ` · ${drop.refusedAtPayment} commande${drop.refusedAtPayment > 1 ? "s" : ""} remboursée${drop.refusedAtPayment > 1 ? "s" : ""} (même adresse)` : ""}
      </p>
      <p className="text-muted-foreground">
        {refusals.length === 0 ? "Aucun refus." : `Refus : ${refusals.map(([reason, n]) => `${DROP_REFUSAL_LABELS[reason]} ${n}`).join(" · ")}`}
      </p>
    </div>
  );
}

function DropValue({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="font-medium text-muted-foreground">{label}</dt>
      <dd className="[overflow-wrap:anywhere]">{value}</dd>
    </>
  );
}

function DropForm({ drop, candidates, onSaved }: { drop: Drop | null; candidates: Candidate[]; onSaved: (how: "created" | "updated") => void }) {
  const { fetcher, heading } = useEditorForm<Answer>(onSaved, drop !== null);
  const { errors, onSubmit, onChange } = useFormValidation(dropFormSchema, fetcher.data?.errors);
  const busy = fetcher.state !== "idle";
  const select = cn(controlClass, "h-11");

  return (
    <section aria-labelledby="drop-form-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="drop-form-title" ref={heading} tabIndex={-1} className="flex scroll-mt-24 items-center gap-2 text-lg font-bold outline-none">
        <Rocket className="size-5" aria-hidden="true" />
        {drop ? `Modifier la sortie ${drop.title}` : "Nouvelle sortie"}
      </h2>
      <fetcher.Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
        <input type="hidden" name="intent" value="save" />
        {drop ? (
          <>
            <input type="hidden" name="editing" value={drop.productId} />
            <input type="hidden" name="productId" value={drop.productId} />
          </>
        ) : null}
        <div className="grid gap-5 lg:grid-cols-2">
          {drop ? null : (
            <Field label="Produit" required error={errors.productId} hint="Sa date d'ouverture et son stock se règlent dans son formulaire." className="lg:col-span-2">
              {(props) => (
                <select {...props} name="productId" defaultValue="" className={select}>
                  <option value="" disabled>
                    Choisissez un produit
                  </option>
                  {candidates.map((candidate) => (
                    <option key={candidate.id} value={candidate.id}>
                      {candidate.title}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          )}
          <Field label="Limite par client" required error={errors.perCustomerLimit} hint="Affichée sur la fiche produit : « Limité à N par client ».">
            {(props) => <Input {...props} name="perCustomerLimit" inputMode="numeric" defaultValue={String(drop?.perCustomerLimit ?? 1)} autoComplete="off" maxLength={2} />}
          </Field>
          <Field label="Durée de réservation (minutes)" required error={errors.holdMinutes} hint="Le temps de payer avant que l'unité revienne au suivant : 2 à 30 minutes.">
            {(props) => <Input {...props} name="holdMinutes" inputMode="numeric" defaultValue={String(drop?.holdMinutes ?? DROP_HOLD_MINUTES_DEFAULT)} autoComplete="off" maxLength={2} />}
          </Field>
          <Field
            label="Départ"
            required
            error={errors.startMode}
            hint="Départ équitable conseillé pour une sortie attendue : en « premier arrivé », les scripts arrivent toujours les premiers."
          >
            {(props) => (
              <select {...props} name="startMode" defaultValue={drop?.startMode ?? "fair_start"} className={select}>
                {DROP_START_MODES.map((mode) => (
                  <option key={mode} value={mode}>
                    {START_MODE_LABELS[mode]}
                  </option>
                ))}
              </select>
            )}
          </Field>
          <Field
            label="Ouverture de la file avant la sortie (minutes)"
            required
            error={errors.fairWindowMinutes}
            hint="La file d'attente ouvre ce temps avant la sortie. Départ équitable : qui y arrive avant l'ouverture est placé dans un ordre tiré au sort, gratuitement et sans rien réserver ; une place par collectionneur (compte connecté, ou adresse e-mail confirmée par un code envoyé à l'inscription dans la file)."
          >
            {(props) => <Input {...props} name="fairWindowMinutes" inputMode="numeric" defaultValue={String(drop?.fairWindowMinutes ?? FAIR_WINDOW_MINUTES_DEFAULT)} autoComplete="off" maxLength={2} />}
          </Field>
          <div className="lg:col-span-2">
            <SwitchField name="accountRequired" label="Réservée aux clients connectés (compte obligatoire, y compris pour entrer dans la file d'attente)" defaultChecked={drop?.accountRequired ?? false} />
          </div>
        </div>
        <EditorFormActions busy={busy} editing={drop !== null} createLabel="Créer la sortie" cancelTo="/admin/drops" disabled={!drop && candidates.length === 0} />
      </fetcher.Form>
    </section>
  );
}
