import { Form, useNavigation } from "react-router";
import { Button } from "~/components/ui/button";

/** The account order page's « Annuler ma précommande » form (the action's intent). */
export const PREORDER_CANCEL_INTENT = "preorder-cancel";

/**
 * The buyer's cancellation of a pre-order before its release (decision 062), always offered on
 * the order page: what goes back, and the button.
 */
export function PreorderCancelAction({ lines }: { lines: { name: string; units: number; note: string | null }[] }) {
  const busy = useNavigation().state !== "idle";
  return (
    <section aria-labelledby="preorder-cancel-title" className="mt-6 flex flex-col gap-3 rounded-2xl border border-border bg-card p-5">
      <h2 id="preorder-cancel-title" className="font-bold">
        Précommande
      </h2>
      <ul className="flex flex-col gap-2 text-sm">
        {lines.map((line, index) => (
          <li key={index}>
            <span className="font-medium">
              {line.units} × {line.name}
            </span>
            {line.note ? <span className="block text-muted-foreground">{line.note}</span> : null}
          </li>
        ))}
      </ul>
      <p className="text-sm text-muted-foreground">Jusqu'à la sortie, vous pouvez l'annuler : son prix vous est remboursé aussitôt, avec une facture d'avoir.</p>
      <Form method="post">
        <Button type="submit" name="intent" value={PREORDER_CANCEL_INTENT} variant="outline" disabled={busy}>
          Annuler ma précommande
        </Button>
      </Form>
    </section>
  );
}
