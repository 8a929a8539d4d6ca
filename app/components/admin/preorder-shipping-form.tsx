import { Form } from "react-router";
import { Button } from "~/components/ui/button";
import { PREORDER_SHIPPING_LABELS, PREORDER_SHIPPING_MODES, type PreorderShippingMode } from "~/domain/preorder-shipping";

/**
 * /admin/settings: how a cart mixing pre-orders and items in stock ships (decision 062). Radio
 * buttons: the browser only lets a listed value be sent; the server checks it with
 * preorderShippingSchema all the same.
 */
export function PreorderShippingForm({ mode, saving }: { mode: PreorderShippingMode; saving: boolean }) {
  return (
    <Form method="post" className="mt-8 flex flex-col gap-4 rounded-2xl border border-border bg-card p-5" aria-labelledby="preorder-shipping-title">
      <h2 id="preorder-shipping-title" className="text-lg font-bold">
        Précommandes&nbsp;: paniers mixtes
      </h2>
      <p className="max-w-prose text-sm text-muted-foreground">
        Quand un panier réunit des précommandes et des articles disponibles, le panier et la page de paiement disent comment la commande
        est expédiée, et la commande le garde. La livraison n&apos;est facturée qu&apos;une fois dans les deux cas.
      </p>
      <fieldset key={mode} className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold">Expédition des paniers mixtes</legend>
        {PREORDER_SHIPPING_MODES.map((value) => (
          <label key={value} className="flex min-h-11 items-start gap-3 text-sm">
            <input type="radio" name="preorderShipping" value={value} defaultChecked={mode === value} className="mt-0.5 size-5 shrink-0 accent-[var(--color-accent)] focus-visible:outline-2 focus-visible:outline-offset-2" />
            <span>{PREORDER_SHIPPING_LABELS[value]}</span>
          </label>
        ))}
      </fieldset>
      <div>
        <Button type="submit" name="intent" value="preorder-shipping" variant="outline" disabled={saving}>
          Enregistrer l&apos;expédition des paniers mixtes
        </Button>
      </div>
    </Form>
  );
}
