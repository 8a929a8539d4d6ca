import { FormField } from "~/components/ui/form-field";
import { BUYER_EMAIL_FIELD_ID, setBuyerEmail, useBuyerEmail } from "~/lib/buyer-email-store";

/**
 * A guest's e-mail address, asked for in the cart once a drop needs it (its limit per customer
 * counts by it); the payment page then shows the same address.
 */
export function BuyerEmailField({ disabled }: { disabled?: boolean }) {
  const { needed, email, error } = useBuyerEmail();
  if (!needed) return null;
  return (
    <section aria-labelledby="buyer-email-title" className="rounded-2xl border border-border bg-card p-4">
      <h2 id="buyer-email-title" className="text-lg font-bold">
        Votre adresse e-mail
      </h2>
      <div className="mt-3">
        <FormField
          id={BUYER_EMAIL_FIELD_ID}
          label="Adresse e-mail"
          type="email"
          name="email"
          autoComplete="email"
          inputMode="email"
          required
          value={email}
          disabled={disabled}
          onChange={(event) => setBuyerEmail(event.target.value)}
          error={error ?? undefined}
          hint="Cette sortie est limitée par client : l'adresse sert à compter vos commandes, et à vous envoyer la confirmation."
        />
      </div>
    </section>
  );
}
