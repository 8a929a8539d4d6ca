import { Field, controlClass } from "~/components/ui/field";
import type { AddressProposal } from "~/domain/address-proposals";
import { cn } from "~/lib/utils";

/**
 * A signed-in buyer's saved addresses on the payment page (docs/decisions/064): the default is
 * chosen and its fields filled when the page opens; « Nouvelle adresse » empties them.
 */
export function SavedAddressSelect({ label, proposals, choice, onChoose }: { label: string; proposals: AddressProposal[]; choice: number | null; onChoose: (proposal: AddressProposal | null) => void }) {
  return (
    <Field label={label} hint="Vos adresses de « Mon compte » : modifiez les champs ci-dessous si besoin.">
      {(props) => (
        <select
          {...props}
          value={choice ?? ""}
          onChange={(event) => onChoose(proposals.find((proposal) => String(proposal.id) === event.target.value) ?? null)}
          className={cn(controlClass, "h-11")}
        >
          {proposals.map((proposal) => (
            <option key={proposal.id} value={proposal.id}>
              {proposal.isDefault ? `${proposal.label} (par défaut)` : proposal.label}
            </option>
          ))}
          <option value="">Nouvelle adresse</option>
        </select>
      )}
    </Field>
  );
}

/** The box that adds the address typed to the buyer's book when the order is paid (a checkbox posts "on"). */
export function SaveAddressBox({ name, label = "Enregistrer cette adresse dans mon compte" }: { name: string; label?: string }) {
  return (
    <label className="flex min-h-11 cursor-pointer items-center gap-3 self-start rounded-lg pr-2 text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
      <input type="checkbox" name={name} className="size-5 shrink-0 accent-[var(--color-primary)]" />
      {label}
    </label>
  );
}
