import { HandCoins, PackageOpen } from "lucide-react";
import { useRef, useState } from "react";
import { useFetcher } from "react-router";
import { useDialogAnswer } from "~/components/admin/use-dialog-answer";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Button } from "~/components/ui/button";
import { Field } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { formatEuros } from "~/domain/money";
import { refundDeadline, withdrawnLineLabel } from "~/domain/withdrawal";
import { withdrawalReturnFormSchema } from "~/domain/withdrawal-return-form";
import { useFormValidation } from "~/lib/use-form-validation";
import type { OrderWithdrawal } from "~/services/withdrawal.server";

type Answer = { ok: boolean; toast: { title: string; description: string }; fieldErrors?: Record<string, string | undefined> };

/**
 * « Marquer le retour reçu » (a shipped order: the articles came back, with an optional deduction
 * for depreciation, L221-23) or « Rembourser la rétractation » (a paid order whose withdrawal covers
 * some articles: nothing came back, no deduction). The server refunds the withdrawn articles, and
 * the delivery when every unit is withdrawn, priced from the order; the refund's key comes from the
 * withdrawal, so a second click refunds nothing more.
 */
export function WithdrawalReturnAction({ number, withdrawal, shipped, shippingCents }: { number: string; withdrawal: OrderWithdrawal; shipped: boolean; shippingCents: number }) {
  const [open, setOpen] = useState(false);
  const fetcher = useFetcher<Answer>();
  const form = useRef<HTMLFormElement>(null);
  const { errors, onSubmit, onChange } = useFormValidation(withdrawalReturnFormSchema, fetcher.data?.fieldErrors);
  useDialogAnswer(fetcher.data, setOpen);
  const busy = fetcher.state !== "idle";
  const label = shipped ? "Marquer le retour reçu" : "Rembourser la rétractation";
  const delivery = withdrawal.whole
    ? shippingCents > 0
      ? ` La livraison (${formatEuros(shippingCents)}) est remboursée aussi : le client se rétracte de toute la commande.`
      : ""
    : " La livraison n'est pas remboursée : le client garde une partie de la commande.";
  return (
    <>
      <Button onClick={() => setOpen(true)}>
        {shipped ? <PackageOpen aria-hidden="true" /> : <HandCoins aria-hidden="true" />} {label}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        size="lg"
        title={label}
        description={`Commande ${number}\u00a0: les articles de la rétractation sont remboursés au client, au plus tard le ${refundDeadline(withdrawal.requestedAt)}. Le montant est calculé par la boutique d'après la commande\u00a0; un avoir est émis et le client prévenu par e-mail.${delivery}`}
        cancelLabel="Retour"
        confirmLabel={busy ? "Remboursement..." : shipped ? "Retour reçu, rembourser" : "Rembourser"}
        confirmVariant="primary"
        busy={busy}
        onConfirm={() => form.current?.requestSubmit()}>
        <fetcher.Form ref={form} method="post" noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-5">
          <input type="hidden" name="intent" value="withdrawal-refund" />
          {errors.form ? (
            <Alert tone="error" title="Remboursement non effectué">
              {errors.form}
            </Alert>
          ) : null}
          <fieldset className="flex flex-col gap-3">
            <legend className="mb-2 text-sm font-semibold">Articles retournés</legend>
            {withdrawal.lines.map((line) => (
              <div key={line.orderItemId} className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1 rounded-lg border border-border p-3">
                <p className="min-w-0 text-sm font-medium [overflow-wrap:anywhere]">{withdrawnLineLabel(line)}</p>
                <label className="flex min-h-11 items-center gap-2 text-sm">
                  <input type="checkbox" name={`restock:${line.orderItemId}`} defaultChecked className="size-5 accent-[var(--accent)]" />
                  Remettre en stock
                </label>
              </div>
            ))}
          </fieldset>
          {shipped ? (
            <fieldset className="flex flex-col gap-3">
              <legend className="mb-2 text-sm font-semibold">Déduction pour dépréciation (facultative)</legend>
              <Field label="Montant retenu (€)" error={errors.deduction} hint="Seulement si les articles ont été manipulés au-delà de ce qui était nécessaire pour en établir la nature, les caractéristiques et le bon fonctionnement (art. L221-23).">
                {(props) => <Input {...props} name="deduction" inputMode="decimal" placeholder="0,00" autoComplete="off" className="h-11" />}
              </Field>
              <Field label="Motif" error={errors.reason} hint="L'état de l'article retourné : le client le lira dans son e-mail et sur l'avoir.">
                {(props) => <Input {...props} name="reason" maxLength={200} autoComplete="off" className="h-11" />}
              </Field>
            </fieldset>
          ) : null}
        </fetcher.Form>
      </ConfirmDialog>
    </>
  );
}
