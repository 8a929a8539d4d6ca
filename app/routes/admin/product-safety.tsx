import { useEditorForm } from "~/components/admin/use-editor-form";
import { EditorFormActions } from "~/components/admin/editor-form-actions";
import { actionAnswer, actionRefusal as refused } from "~/components/admin/action-answers";
import { AlertTriangle, CheckCircle2 } from "lucide-react";
import { DeleteIconButton, EditIconLink } from "~/components/admin/row-actions";
import { useState } from "react";
import { useFetcher, useNavigate, useSearchParams } from "react-router";
import { type ActionToast, useActionToast } from "~/components/admin/use-action-toast";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { controlClass, Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";
import { missingSafetyFields, safetyProfileSchema, TCG_AGE_WARNING_SUGGESTION } from "~/domain/safety-profile";
import { readForm } from "~/lib/request-input.server";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { deleteSafetyProfile, listSafetyProfiles, saveSafetyProfile } from "~/services/product-safety.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/product-safety";

/**
 * /admin/product-safety "Sécurité des produits": the brands' product-safety profiles (GPSR, Reg.
 * 2023/988 art. 19), which product pages show unless a product says otherwise. A profile whose
 * postal or electronic address is unknown says so: nothing is made up to fill it.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { profiles: await listSafetyProfiles(context.db) };
}

export const meta: Route.MetaFunction = () => [{ title: "Sécurité des produits" }];

type Answer = ActionToast & { errors?: FieldErrors; saved?: "created" | "updated" };
const answer = actionAnswer<Answer>;
const GONE = "Cette fiche n'existe plus.";

/** intent=save (id: edit, none: create) or intent=delete. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = Object.fromEntries(await readForm(request)) as Record<string, string>;
  const id = form.id ? (/^\d{1,9}$/.test(form.id) ? Number(form.id) : 0) : null;
  try {
    if (form.intent === "save") {
      const values = safetyProfileSchema.safeParse(form);
      if (!values.success) {
        return answer(400, { ok: false, errors: fieldErrors(values.error), toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } });
      }
      const result = await saveSafetyProfile(context.db, id, values.data);
      if (result.outcome === "missing") return refused(404, GONE);
      if (result.outcome === "duplicate") {
        return answer(409, { ok: false, errors: { brand: "Cette marque a déjà une fiche." }, toast: { title: "Marque déjà enregistrée", description: "Modifiez sa fiche dans la liste." } });
      }
      const missing = missingSafetyFields(result.profile);
      return answer(200, {
        ok: true,
        saved: id === null ? "created" : "updated",
        toast: {
          title: id === null ? "Fiche créée" : "Fiche mise à jour",
          description: missing.length > 0 ? `${result.profile.brand} : ${missing.join(", ")} à compléter.` : `${result.profile.brand} est complète.`,
        },
      });
    }
    if (form.intent === "delete" && id !== null) {
      const result = await deleteSafetyProfile(context.db, id);
      if (result.outcome === "missing") return refused(404, GONE);
      return answer(200, { ok: true, toast: { title: "Fiche supprimée", description: `${result.brand} a été supprimée.` } });
    }
    return refused(400, "Requête invalide.");
  } catch (error) {
    context.logger.error({ err: error, intent: form.intent }, "admin: safety profile action failed");
    return refused(500, "Une erreur est survenue. Réessayez dans un instant.");
  }
}

type Profile = Route.ComponentProps["loaderData"]["profiles"][number];

export default function AdminProductSafety({ loaderData }: Route.ComponentProps) {
  const { profiles } = loaderData;
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const editing = profiles.find((row) => String(row.id) === params.get("edit")) ?? null;
  const rowAction = useFetcher<Answer>();
  const [pending, setPending] = useState<Profile | null>(null);
  // A created profile clears the form (a new key); an edited one closes it.
  const [formKey, setFormKey] = useState(0);
  useActionToast(rowAction.data);

  return (
    <section className="space-y-6">
      <div>
        <h1 className="text-3xl font-extrabold tracking-tight">Sécurité des produits</h1>
        <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
          Chaque fiche produit indique le fabricant, son adresse postale et électronique, la personne responsable dans l'UE quand le fabricant est établi hors de
          l'Union européenne, un identifiant du produit et ses avertissements (règlement (UE) 2023/988, article 19). Renseignez-les ici une fois par marque&nbsp;;
          un produit peut remplacer chaque valeur dans son formulaire. Un produit ne peut être mis en ligne ou programmé qu'avec des informations complètes.
        </p>
      </div>

      <ProfileForm
        key={editing ? `edit-${editing.id}` : `new-${formKey}`}
        profile={editing}
        onSaved={(how) => (how === "created" ? setFormKey((key) => key + 1) : void navigate("/admin/product-safety", { replace: true, preventScrollReset: true }))}
      />

      {profiles.length === 0 ? (
        <p className="rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">Aucune fiche. Créez la première avec le formulaire ci-dessus.</p>
      ) : (
        <ul className="grid gap-4 xl:grid-cols-2" aria-label="Fiches des marques">
          {profiles.map((row) => {
            const missing = missingSafetyFields(row);
            return (
              <li key={row.id} className={cn("flex flex-col gap-3 rounded-2xl border border-border bg-card p-5", editing?.id === row.id && "ring-2 ring-ring")}>
                <div className="flex flex-wrap items-start justify-between gap-2">
                  <div className="min-w-0">
                    <h2 className="text-lg font-bold [overflow-wrap:anywhere]">{row.brand}</h2>
                    <p className="text-sm text-muted-foreground">
                      {row.productCount === 0 ? "Aucun produit" : `${row.productCount} produit${row.productCount > 1 ? "s" : ""}`}
                    </p>
                  </div>
                  <div className="flex items-center gap-1">
                    {missing.length > 0 ? (
                      <Badge tone="warning">
                        <AlertTriangle className="size-3.5" aria-hidden="true" /> Incomplète
                      </Badge>
                    ) : (
                      <Badge tone="success">
                        <CheckCircle2 className="size-3.5" aria-hidden="true" /> Complète
                      </Badge>
                    )}
                    <EditIconLink to={`/admin/product-safety?edit=${row.id}`} preventScrollReset label={`Modifier la fiche ${row.brand}`} />
                    <DeleteIconButton label={`Supprimer la fiche ${row.brand}`} onClick={() => setPending(row)} />
                  </div>
                </div>
                {missing.length > 0 ? (
                  <p className="text-sm font-medium">
                    À compléter&nbsp;: {missing.join(", ")}. Les produits de cette marque ne peuvent être mis en ligne qu'en les renseignant eux-mêmes.
                  </p>
                ) : null}
                <dl className="grid gap-x-4 gap-y-2 text-sm sm:grid-cols-[10rem_1fr]">
                  <ProfileValue label="Fabricant" value={row.manufacturerName} />
                  <ProfileValue label="Adresse postale" value={row.postalAddress} />
                  <ProfileValue label="E-mail" value={row.email} />
                  <dt className="font-medium text-muted-foreground">Établi</dt>
                  <dd>{row.manufacturerOutsideEu ? "Hors de l'Union européenne" : "Dans l'Union européenne"}</dd>
                  {row.manufacturerOutsideEu ? (
                    <>
                      <ProfileValue label="Personne responsable UE" value={row.euRepName} />
                      <ProfileValue label="Son adresse postale" value={row.euRepAddress} />
                      <ProfileValue label="Son e-mail" value={row.euRepEmail} />
                    </>
                  ) : null}
                  <ProfileValue label="Avertissements" value={row.warnings} />
                </dl>
              </li>
            );
          })}
        </ul>
      )}

      <ConfirmDialog
        open={pending !== null}
        onOpenChange={(open) => !open && setPending(null)}
        title="Supprimer cette fiche ?"
        description={
          pending
            ? pending.productCount > 0
              ? `${pending.productCount} produit${pending.productCount > 1 ? "s" : ""} de la marque ${pending.brand} n'afficheront plus que leurs propres informations de sécurité. Cette action est irréversible.`
              : `La fiche ${pending.brand} sera supprimée. Cette action est irréversible.`
            : ""
        }
        confirmLabel="Supprimer"
        busy={rowAction.state !== "idle"}
        onConfirm={() => {
          if (pending) void rowAction.submit({ intent: "delete", id: String(pending.id) }, { method: "post" });
          setPending(null);
        }}
      />
    </section>
  );
}

function ProfileValue({ label, value }: { label: string; value: string }) {
  return (
    <>
      <dt className="font-medium text-muted-foreground">{label}</dt>
      <dd className="whitespace-pre-line [overflow-wrap:anywhere]">{value.trim() ? value : <span className="font-semibold text-warning">Non renseigné</span>}</dd>
    </>
  );
}

function ProfileForm({ profile, onSaved }: { profile: Profile | null; onSaved: (how: "created" | "updated") => void }) {
  // Editing starts from a card's "Modifier": the form comes into view with the focus.
  const { fetcher, heading } = useEditorForm<Answer>(onSaved, profile !== null);
  const { errors, onSubmit, onChange } = useFormValidation(safetyProfileSchema, fetcher.data?.errors);
  const busy = fetcher.state !== "idle";
  const area = cn(controlClass, "py-2");
  const [outsideEu, setOutsideEu] = useState(profile?.manufacturerOutsideEu ?? false);

  return (
    <section aria-labelledby="profile-form-title" className="rounded-2xl border border-border bg-card p-5">
      <h2 id="profile-form-title" ref={heading} tabIndex={-1} className="scroll-mt-24 text-lg font-bold outline-none">
        {profile ? `Modifier la fiche ${profile.brand}` : "Nouvelle fiche de marque"}
      </h2>
      <fetcher.Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
        <input type="hidden" name="intent" value="save" />
        {profile ? <input type="hidden" name="id" value={profile.id} /> : null}
        <div className="grid gap-5 lg:grid-cols-2">
          <Field label="Marque" required error={errors.brand} hint="Comme vous la nommez : Pokémon, Magic, One Piece… (la colonne safety_brand du CSV).">
            {(props) => <Input {...props} name="brand" defaultValue={profile?.brand ?? ""} autoComplete="off" maxLength={100} />}
          </Field>
          <Field label="Fabricant" required error={errors.manufacturerName} hint="Sa raison sociale, telle qu'elle figure sur l'emballage.">
            {(props) => <Input {...props} name="manufacturerName" defaultValue={profile?.manufacturerName ?? ""} autoComplete="off" maxLength={200} />}
          </Field>
          <Field label="Adresse postale" error={errors.postalAddress} hint="Vide : inconnue, la fiche reste incomplète.">
            {(props) => <textarea {...props} name="postalAddress" defaultValue={profile?.postalAddress ?? ""} rows={4} maxLength={500} className={area} />}
          </Field>
          <Field label="E-mail ou adresse électronique" error={errors.email} hint="Vide : inconnue, la fiche reste incomplète.">
            {(props) => <Input {...props} name="email" type="email" defaultValue={profile?.email ?? ""} autoComplete="off" maxLength={254} />}
          </Field>
          <label className="flex min-h-11 cursor-pointer items-center gap-3 text-sm font-medium lg:col-span-2">
            <input
              type="checkbox"
              name="manufacturerOutsideEu"
              checked={outsideEu}
              onChange={(event) => setOutsideEu(event.target.checked)}
              className="size-5 accent-primary focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
            />
            Fabricant établi hors de l'Union européenne (une personne responsable dans l'UE est alors obligatoire)
          </label>
          {outsideEu ? (
            <>
              <Field label="Personne responsable dans l'UE" error={errors.euRepName} hint="Son nom ou sa raison sociale (importateur, mandataire…), tel qu'il figure sur l'emballage.">
                {(props) => <Input {...props} name="euRepName" defaultValue={profile?.euRepName ?? ""} autoComplete="off" maxLength={200} />}
              </Field>
              <Field label="E-mail de la personne responsable" error={errors.euRepEmail}>
                {(props) => <Input {...props} name="euRepEmail" type="email" defaultValue={profile?.euRepEmail ?? ""} autoComplete="off" maxLength={254} />}
              </Field>
              <Field label="Adresse postale de la personne responsable" error={errors.euRepAddress} className="lg:col-span-2">
                {(props) => <textarea {...props} name="euRepAddress" defaultValue={profile?.euRepAddress ?? ""} rows={3} maxLength={500} className={area} />}
              </Field>
            </>
          ) : null}
          <Field
            label="Avertissements et informations de sécurité"
            error={errors.warnings}
            hint={`Recopiez ceux de l'emballage. Pour des cartes à collectionner, souvent : « ${TCG_AGE_WARNING_SUGGESTION} »`}
            className="lg:col-span-2"
          >
            {(props) => <textarea {...props} name="warnings" defaultValue={profile?.warnings ?? ""} rows={3} maxLength={2000} className={area} />}
          </Field>
        </div>
        <EditorFormActions busy={busy} editing={profile !== null} createLabel="Créer la fiche" cancelTo="/admin/product-safety" />
      </fetcher.Form>
    </section>
  );
}
