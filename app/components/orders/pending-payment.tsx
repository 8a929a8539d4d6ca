import { CreditCard, XCircle } from "lucide-react";
import { Form, useNavigation } from "react-router";
import { Button, buttonVariants } from "~/components/ui/button";
import { formatParisTime } from "~/domain/paris-time";

/** The form field of the order page's action that cancels an unpaid order. */
export const CANCEL_PAYMENT_INTENT = "cancel-payment";

/**
 * An order whose payment was left unfinished (a closed tab, another device): back to the
 * payment page while the units are held, or cancel so they go back on sale at once. A plain
 * link and a plain form: both work before the page's scripts have run. Unlike the cart's
 * checkout, the browser's Back from the payment page keeps the order: the customer came to look
 * at it, and cancelling is this page's button.
 */
export function PendingPayment({ paymentUrl, reservedUntil }: { paymentUrl: string; reservedUntil: string }) {
  const navigation = useNavigation();
  const cancelling = navigation.state === "submitting" && navigation.formData?.get("intent") === CANCEL_PAYMENT_INTENT;
  return (
    <section aria-labelledby="pending-payment-title" className="mt-6 rounded-2xl border border-warning/60 bg-card p-5">
      <h2 id="pending-payment-title" className="font-bold">
        Paiement en attente
      </h2>
      <p className="mt-1 text-sm text-muted-foreground">
        Vos articles vous sont réservés jusqu'à {formatParisTime(reservedUntil)}. Sans paiement d'ici là, la commande s'annule d'elle-même et
        ils sont remis en vente.
      </p>
      <div className="mt-4 flex flex-wrap gap-3">
        <a href={paymentUrl} className={buttonVariants()}>
          <CreditCard aria-hidden="true" /> Reprendre le paiement
        </a>
        <Form method="post">
          <input type="hidden" name="intent" value={CANCEL_PAYMENT_INTENT} />
          <Button type="submit" variant="outline" disabled={cancelling}>
            <XCircle aria-hidden="true" /> {cancelling ? "Annulation..." : "Annuler la commande"}
          </Button>
        </Form>
      </div>
    </section>
  );
}
