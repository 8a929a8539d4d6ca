import { CalendarClock } from "lucide-react";
import { useEffect } from "react";
import { Link, useFetcher } from "react-router";
import { FormError } from "~/components/admin/form-error";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { FieldErrors } from "~/domain/field-errors";
import { preorderFormSchema } from "~/domain/preorder-form";
import { useFormValidation } from "~/lib/use-form-validation";

export type PreorderSettingsValues = { releaseOn: string; estimatedDeliveryOn: string; quantity: number; perCustomerLimit: number; orderedUnits: number };

type Answer = { ok?: boolean; errors?: FieldErrors; toast?: { title: string; description: string } };

/**
 * The product's pre-order settings (issue 55), on its edit page: a form of its own, checked with
 * the schema the action uses (domain/preorder-form.ts).
 */
export function PreorderSettings({ productId, preorder, today }: { productId: number; preorder: PreorderSettingsValues | null; today: string }) {
  const fetcher = useFetcher<Answer>();
  const schema = preorderFormSchema({ today, currentReleaseOn: preorder?.releaseOn ?? null, orderedUnits: preorder?.orderedUnits ?? 0 });
  const { errors, onSubmit, onChange } = useFormValidation(schema, fetcher.data?.errors);
  const busy = fetcher.state !== "idle";
  useEffect(() => {
    const answer = fetcher.data?.toast;
    if (answer) (fetcher.data?.ok ? toast.success : toast.error)(answer.title, { description: answer.description });
  }, [fetcher.data]);
  return (
    <section aria-labelledby="preorder-title" className="mt-8 rounded-2xl border border-border bg-card p-5">
      <h2 id="preorder-title" className="flex items-center gap-2 text-lg font-bold">
        <CalendarClock className="size-5" aria-hidden="true" />
        Précommande
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        {preorder
          ? `${preorder.orderedUnits} exemplaire${preorder.orderedUnits > 1 ? "s" : ""} précommandé${preorder.orderedUnits > 1 ? "s" : ""} sur ${preorder.quantity}.`
          : "Vendez ce produit avant sa sortie, payé à la commande, dans la limite d'une quantité que vous fixez."}
      </p>
      {preorder ? (
        <Link to={`/admin/precommandes/${productId}`} className="mt-1 inline-block text-sm font-medium underline underline-offset-4">
          Précommandes par client et répartition de la livraison
        </Link>
      ) : null}
      <fetcher.Form method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
        <FormError message={errors.form} />
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Date de sortie" required error={errors.releaseOn} hint="Les précommandes sont prises jusqu'à la veille.">
            {(props) => <Input {...props} type="date" name="releaseOn" defaultValue={preorder?.releaseOn ?? ""} />}
          </Field>
          <Field label="Date de livraison estimée" required error={errors.estimatedDeliveryOn}>
            {(props) => <Input {...props} type="date" name="estimatedDeliveryOn" defaultValue={preorder?.estimatedDeliveryOn ?? ""} />}
          </Field>
          <Field label="Quantité en précommande" required error={errors.quantity} hint="Jamais dépassée, même lors d'une forte affluence.">
            {(props) => <Input {...props} name="quantity" inputMode="numeric" autoComplete="off" defaultValue={preorder ? String(preorder.quantity) : ""} />}
          </Field>
          <Field label="Limite par client" required error={errors.perCustomerLimit} hint="Par compte, adresse e-mail et adresse de livraison.">
            {(props) => <Input {...props} name="perCustomerLimit" inputMode="numeric" autoComplete="off" maxLength={2} defaultValue={String(preorder?.perCustomerLimit ?? 1)} />}
          </Field>
        </div>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" name="intent" value="preorder-save" disabled={busy}>
            {preorder ? "Enregistrer la précommande" : "Vendre en précommande"}
          </Button>
          {preorder && preorder.orderedUnits === 0 ? (
            <Button type="submit" name="intent" value="preorder-remove" variant="outline" disabled={busy} formNoValidate>
              Retirer la précommande
            </Button>
          ) : null}
        </div>
      </fetcher.Form>
    </section>
  );
}
