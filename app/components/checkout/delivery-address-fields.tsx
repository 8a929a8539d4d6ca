import { MapPin, Truck } from "lucide-react";
import { useState } from "react";
import { FormField } from "~/components/ui/form-field";
import { type AddressProposal, type CheckoutProposals, SAVE_ADDRESS_FIELDS } from "~/domain/address-proposals";
import type { PaymentDelivery } from "~/domain/delivery-address-form";
import type { FieldErrors } from "~/domain/field-errors";
import { countryName } from "~/domain/shipping-countries";
import { SaveAddressBox, SavedAddressSelect } from "./saved-addresses";

/**
 * The delivery's part of a form that asks where the parcel goes (domain/delivery-address-form.ts):
 * the method chosen in the cart, then the recipient, the address (none for a relay point, given
 * in the cart) and the phone. On the test payment page and on the page where a home delivery
 * paid by store credit gets its address. `proposals`, for a signed-in buyer on the payment page:
 * their saved addresses (the default filled in) and the box that saves a new one.
 */
export function DeliveryAddressFields({
  delivery,
  errors,
  proposals = null,
}: {
  delivery: PaymentDelivery & { name: string; deliveryTime: string; note?: string | null };
  errors: FieldErrors;
  proposals?: CheckoutProposals | null;
}) {
  const relay = delivery.kind === "relay" ? delivery.relayPoint : null;
  const saved = proposals?.delivery ?? [];
  const [chosen, setChosen] = useState<AddressProposal | null>(saved[0] ?? null);
  const values = chosen?.values ?? {};
  return (
    <fieldset className="flex flex-col gap-4">
      <legend className="mb-3 text-lg font-bold">Livraison</legend>
      <div className="flex items-start gap-3 rounded-xl border border-border bg-muted/40 p-3 text-sm">
        {relay ? <MapPin className="mt-0.5 size-5 shrink-0" aria-hidden="true" /> : <Truck className="mt-0.5 size-5 shrink-0" aria-hidden="true" />}
        <div>
          <p className="font-semibold">{delivery.name}</p>
          {delivery.deliveryTime ? <p className="text-muted-foreground">{delivery.deliveryTime}</p> : null}
          {delivery.note ? <p className="mt-1" data-testid="mixed-cart-shipping">{delivery.note}</p> : null}
          {relay ? (
            <p className="mt-1" data-testid="relay-point">
              {relay.relayPointName} (n° {relay.relayPointId})<br />
              {relay.line1}, {relay.postalCode} {relay.city}, {countryName(relay.country)}
            </p>
          ) : null}
          <p className="mt-1 text-xs text-muted-foreground">Choisi dans votre panier.</p>
        </div>
      </div>
      <p className="text-xs text-muted-foreground">
        {relay ? "Le colis sera remis à ce nom, sur présentation d'une pièce d'identité." : "Tous les champs d'adresse sont obligatoires pour la livraison."}
      </p>
      {saved.length > 0 ? <SavedAddressSelect label="Adresse de livraison enregistrée" proposals={saved} choice={chosen?.id ?? null} onChoose={setChosen} /> : null}
      {/* Keyed by the address chosen: its values fill the fields again, which stay editable. */}
      <div key={chosen?.id ?? "new"} className="flex flex-col gap-4">
      <FormField label="Nom complet du destinataire" name="fullName" autoComplete="name" required error={errors.fullName} defaultValue={values.fullName} />
      {relay ? null : (
        <>
          <FormField label="Adresse" name="line1" autoComplete="address-line1" required error={errors.line1} defaultValue={values.line1} />
          <FormField label="Complément d'adresse (facultatif)" name="line2" autoComplete="address-line2" error={errors.line2} defaultValue={values.line2} />
          <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
            <FormField label="Code postal" name="postalCode" autoComplete="postal-code" inputMode="text" required error={errors.postalCode} defaultValue={values.postalCode} />
            <FormField label="Ville" name="city" autoComplete="address-level2" required error={errors.city} defaultValue={values.city} />
          </div>
          {/* The delivery was priced for this country in the cart: another means going back to it. */}
          <FormField label="Pays" name="countryName" value={countryName(delivery.country)} readOnly hint="Pour un autre pays, changez-le dans votre panier." />
          <input type="hidden" name="country" value={delivery.country} />
        </>
      )}
      <FormField label="Téléphone" name="phone" type="tel" autoComplete="tel" required error={errors.phone} hint="Pour le transporteur, en cas de besoin." defaultValue={values.phone} />
      </div>
      {proposals && !relay && !chosen ? <SaveAddressBox name={SAVE_ADDRESS_FIELDS.delivery} /> : null}
      {proposals && relay && !proposals.relaySaved ? <SaveAddressBox name={SAVE_ADDRESS_FIELDS.relay} label="Enregistrer ce point relais dans mon compte" /> : null}
    </fieldset>
  );
}
