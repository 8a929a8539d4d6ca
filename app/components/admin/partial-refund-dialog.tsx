import { HandCoins } from "lucide-react";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useDialogAnswer } from "~/components/admin/use-dialog-answer";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { formatEuros } from "~/domain/money";
import { REFUND_ADJUSTMENT_LABELS } from "~/domain/partial-refund";
import { partialRefundFormSchema } from "~/domain/partial-refund-form";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import type { AdminOrder } from "~/services/admin-orders.server";
import { SIGNATURE_DELIVERY_LABEL } from "~/domain/signature-delivery";

type Answer = { ok: boolean; toast: { title: string; description: string }; fieldErrors?: Record<string, string | undefined> };

/**
 * "Rembourser une partie": articles and units, the delivery, a goodwill amount or a deduction
 * with its reason. The figures it sends are the seller's choices only; the server prices them
 * from the order. Each opening carries a new key: a double click or a resent post is one refund.
 */
export function PartialRefundAction({ number, refundable }: { number: string; refundable: AdminOrder["refundable"] }) {
  const [open, setOpen] = useState(false);
  const [requestKey, setRequestKey] = useState("");
  const [kind, setKind] = useState("");
  const fetcher = useFetcher<Answer>();
  const form = useRef<HTMLFormElement>(null);
  const { errors, onSubmit, onChange } = useFormValidation(partialRefundFormSchema, fetcher.data?.fieldErrors);
  useDialogAnswer(fetcher.data, setOpen);
  const busy = fetcher.state !== "idle";
  const lines = refundable.lines.filter((line) => line.left > 0);
  return (
    <>
      <Button
        variant="outline"
        onClick={() => {
          setRequestKey(crypto.randomUUID());
          setKind("");
          setOpen(true);
        }}>
        <HandCoins aria-hidden="true" /> Rembourser une partie
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        size="lg"
        title="Rembourser une partie de la commande"
        description={`Commande ${number}\u00a0: ${formatEuros(refundable.totalCents)} restent à rembourser. Le montant est calculé par la boutique d'après la commande\u00a0; un avoir est émis et le client prévenu par e-mail.`}
        cancelLabel="Retour"
        confirmLabel={busy ? "Remboursement..." : "Rembourser"}
        confirmVariant="primary"
        busy={busy}
        onConfirm={() => form.current?.requestSubmit()}>
        <fetcher.Form ref={form} method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
          <input type="hidden" name="intent" value="partial-refund" />
          <input type="hidden" name="requestKey" value={requestKey} />
          {errors.form ? <Alert tone="error" title="Remboursement non effectué">{errors.form}</Alert> : null}
          {errors.requestKey ? <Alert tone="error" title="Formulaire expiré">{errors.requestKey}</Alert> : null}
          {lines.length > 0 ? (
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-2 text-sm font-semibold">Articles</legend>
              {lines.map((line) => (
                <div key={line.id} className="grid grid-cols-[minmax(0,1fr)_5.5rem] items-start gap-x-3 gap-y-1 rounded-lg border border-border p-3">
                  <div className="min-w-0 text-sm">
                    <p className="font-medium">{line.name}</p>
                    <p className="text-muted-foreground">
                      {line.left} sur {line.quantity} à rembourser · {formatEuros(line.unitPriceCents)} l'unité
                    </p>
                  </div>
                  <Field label="Quantité" error={errors[`qty:${line.id}`]}>
                    {(props) => <Input {...props} name={`qty:${line.id}`} type="number" inputMode="numeric" min={0} max={line.left} defaultValue={0} aria-label={`Quantité à rembourser : ${line.name}`} className="h-11" />}
                  </Field>
                  <label className="col-span-2 flex min-h-11 items-center gap-2 text-sm">
                    <input type="checkbox" name={`restock:${line.id}`} defaultChecked className="size-5 accent-[var(--accent)]" />
                    Remettre en stock
                  </label>
                </div>
              ))}
            </fieldset>
          ) : null}
          {refundable.shippingCents > 0 ? (
            <Field label="Livraison à rembourser (€)" error={errors.shipping} hint={`Jusqu'à ${formatEuros(refundable.shippingCents)}.`}>
              {(props) => <Input {...props} name="shipping" inputMode="decimal" placeholder="0,00" autoComplete="off" className="h-11" />}
            </Field>
          ) : null}
          {refundable.insuranceCents > 0 ? (
            <Field label={`${SIGNATURE_DELIVERY_LABEL} à rembourser (€)`} error={errors.insurance} hint={`Jusqu'à ${formatEuros(refundable.insuranceCents)}.`}>
              {(props) => <Input {...props} name="insurance" inputMode="decimal" placeholder="0,00" autoComplete="off" className="h-11" />}
            </Field>
          ) : null}
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-semibold">Montant supplémentaire ou déduction</legend>
            <Field label="Type" error={errors.adjustmentKind}>
              {(props) => (
                <select {...props} name="adjustmentKind" value={kind} onChange={(event) => setKind(event.target.value)} className={cn(controlClass, "h-11")}>
                  <option value="">Aucun</option>
                  <option value="goodwill">{REFUND_ADJUSTMENT_LABELS.goodwill} (en plus)</option>
                  <option value="depreciation">{REFUND_ADJUSTMENT_LABELS.depreciation} (retenue)</option>
                </select>
              )}
            </Field>
            {kind ? (
              <>
                <Field label="Montant (€)" error={errors.adjustmentAmount} required>
                  {(props) => <Input {...props} name="adjustmentAmount" inputMode="decimal" placeholder="0,00" autoComplete="off" className="h-11" />}
                </Field>
                <Field label="Motif" error={errors.reason} hint={kind === "depreciation" ? "L'état de l'article retourné (art. L221-23 du Code de la consommation) : le client le lira." : "Le client le lira dans son e-mail et sur l'avoir."} required>
                  {(props) => <Input {...props} name="reason" maxLength={200} autoComplete="off" className="h-11" />}
                </Field>
              </>
            ) : null}
          </fieldset>
        </fetcher.Form>
      </ConfirmDialog>
    </>
  );
}
