import { useEffect, useId, useRef } from "react";
import { Field, controlClass } from "~/components/ui/field";
import { FormField } from "~/components/ui/form-field";
import type { RelayPoint } from "~/domain/checkout";
import type { SavedRelayPoint } from "~/domain/customer-addresses";
import { type StoredDelivery, chooseDelivery, setDeliveryErrors, useDeliveryErrors } from "~/lib/delivery-store";
import { cn } from "~/lib/utils";

const RELAY_FIELDS: { key: keyof RelayPoint; label: string; autoComplete?: string; hint?: string }[] = [
  { key: "name", label: "Nom du point relais" },
  { key: "id", label: "Identifiant du point relais", hint: "Le numéro du point, indiqué par le transporteur (ex. 020145)." },
  { key: "line1", label: "Adresse du point relais" },
  { key: "postalCode", label: "Code postal" },
  { key: "city", label: "Ville" },
];

const pointOf = ({ id, name, line1, postalCode, city }: SavedRelayPoint): RelayPoint => ({ id, name, line1, postalCode, city });

/**
 * The relay point of the cart's delivery (SPEC.md: its name, the carrier's identifier and its full
 * address). A signed-in customer's saved points in the delivery's country are proposed
 * (docs/decisions/064): the default fills the fields when none is typed yet.
 */
export default function RelayPointFields({ stored, disabled, saved }: { stored: StoredDelivery; disabled: boolean; saved: SavedRelayPoint[] }) {
  const errors = useDeliveryErrors();
  const savedId = useId();
  const points = saved.filter((point) => point.country === stored.country);
  const typed = Object.values(stored.relayPoint).some(Boolean);
  const fallback = points.find((point) => point.isDefault);
  // Once, when the fields appear: « Autre point relais » empties them for good.
  const prefilled = useRef(false);
  useEffect(() => {
    if (prefilled.current) return;
    prefilled.current = true;
    if (!typed && fallback) chooseDelivery({ relayPoint: pointOf(fallback) });
  }, [typed, fallback]);

  function setRelay(key: keyof RelayPoint, value: string) {
    chooseDelivery({ relayPoint: { ...stored.relayPoint, [key]: value } });
    if (errors[`relayPoint.${key}`]) setDeliveryErrors(Object.fromEntries(Object.entries(errors).filter(([field]) => field !== `relayPoint.${key}`)));
  }

  return (
    <fieldset className="grid gap-3 sm:grid-cols-2" disabled={disabled}>
      <legend className="mb-1 text-sm font-semibold">Point relais choisi</legend>
      <p className="text-xs text-muted-foreground sm:col-span-2">Indiquez le point relais où retirer votre colis : son nom, son identifiant et son adresse complète.</p>
      {points.length > 0 ? (
        <Field id={savedId} label="Point relais enregistré" className="sm:col-span-2">
          {(props) => (
            <select
              {...props}
              value={points.find((point) => point.id === stored.relayPoint.id)?.id ?? ""}
              onChange={(event) => {
                const point = points.find((candidate) => candidate.id === event.target.value);
                chooseDelivery({ relayPoint: point ? pointOf(point) : {} });
                setDeliveryErrors({});
              }}
              className={cn(controlClass, "h-11")}
            >
              {points.map((point) => (
                <option key={point.id} value={point.id}>
                  {point.name} (n° {point.id}), {point.city}
                </option>
              ))}
              <option value="">Autre point relais</option>
            </select>
          )}
        </Field>
      ) : null}
      {RELAY_FIELDS.map((field) => (
        <div key={field.key} className={field.key === "line1" || field.key === "name" ? "sm:col-span-2" : undefined}>
          <FormField
            label={field.label}
            name={`relay-${field.key}`}
            value={stored.relayPoint[field.key] ?? ""}
            onChange={(event) => setRelay(field.key, event.target.value)}
            autoComplete="off"
            required
            hint={field.hint}
            error={errors[`relayPoint.${field.key}`]}
          />
        </div>
      ))}
    </fieldset>
  );
}
