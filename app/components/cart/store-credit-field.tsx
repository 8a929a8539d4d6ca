import { FormField } from "~/components/ui/form-field";
import { toast } from "~/components/ui/toaster";
import { centsToFrenchDecimal, formatEuros, parseEurosToCents } from "~/domain/money";

import { STORE_CREDIT_AMOUNT_ID, STORE_CREDIT_USE_ID } from "./store-credit-ids";

/**
 * « Utiliser mon avoir » (issue 54): a signed-in customer's balance, drawn by the server, and
 * what of it to spend. Uncontrolled fields read at checkout: no state, no client library. The
 * server spends at most the balance and the order's total, whatever is typed.
 */
export function StoreCreditField({
  balanceCents,
  disabled,
}: {
  balanceCents: number;
  disabled?: boolean;
}) {
  return (
    <section
      aria-labelledby="store-credit-title"
      className="rounded-2xl border border-border bg-card p-4"
    >
      <h2 id="store-credit-title" className="text-lg font-bold">
        Mon avoir
      </h2>
      <p className="mt-1 text-sm">
        Solde disponible :{" "}
        <strong className="tabular">{formatEuros(balanceCents)}</strong>
      </p>
      <div className="mt-3 flex flex-col gap-3">
        <label
          htmlFor={STORE_CREDIT_USE_ID}
          className="flex items-center gap-2 text-sm font-medium"
        >
          <input
            id={STORE_CREDIT_USE_ID}
            type="checkbox"
            defaultChecked
            disabled={disabled}
            className="size-4 accent-primary"
          />
          Utiliser mon avoir pour cette commande
        </label>
        <FormField
          id={STORE_CREDIT_AMOUNT_ID}
          label="Montant à utiliser (€)"
          inputMode="decimal"
          autoComplete="off"
          defaultValue={centsToFrenchDecimal(balanceCents)}
          disabled={disabled}
          hint="Au plus le total de la commande ; le reste se paie par carte."
        />
      </div>
    </section>
  );
}

/**
 * The store credit asked for in the cart's « Mon avoir » (absent: none; the server caps it at the
 * balance and the total); null after telling the customer their amount is unreadable.
 */
export function storeCreditToSend(): number | null {
  const use = document.getElementById(STORE_CREDIT_USE_ID) as HTMLInputElement | null;
  const amount = document.getElementById(STORE_CREDIT_AMOUNT_ID) as HTMLInputElement | null;
  if (!use?.checked || !amount) return 0;
  const cents = parseEurosToCents(amount.value);
  if (cents === null) {
    toast.error("Montant d'avoir illisible", { description: "Indiquez un montant en euros, par exemple 12,50, ou décochez « Utiliser mon avoir »." });
    amount.focus();
    return null;
  }
  return cents;
}
