import { ArrowLeft, MapPin, Plus, ReceiptText, Truck } from "lucide-react";
import { Form, Link, data, redirect, useNavigation } from "react-router";
import { AddressBookFields } from "~/components/account/address-book-fields";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import {
  ADDRESS_BOOK_KINDS,
  ADDRESS_BOOK_SCHEMAS,
  ADDRESS_BOOK_TITLES,
  type AddressBookKind,
  DUPLICATE_ADDRESS_MESSAGE,
  addressBookLabel,
  addressLimitMessage,
  parseAddressBookForm,
} from "~/domain/customer-addresses";
import { type FieldErrors, fieldErrors } from "~/domain/field-errors";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { pageMeta, seoRoot } from "~/lib/seo";
import { useFormValidation } from "~/lib/use-form-validation";
import { type AddressChange, type SavedAddress, addCustomerAddress, deleteCustomerAddress, listCustomerAddresses, setDefaultCustomerAddress, updateCustomerAddress } from "~/services/customer-addresses.server";
import { isSameOriginPost, requireViewer } from "~/services/session.server";
import type { Route } from "./+types/account-addresses";

/** /account/adresses (issue 56, point 1, docs/decisions/064): the customer's delivery and billing addresses and relay points. */

const PATH = "/account/adresses";
const ICONS = { delivery: Truck, billing: ReceiptText, relay: MapPin } as const;
const ADD_LABELS: Record<AddressBookKind, string> = { delivery: "Ajouter une adresse de livraison", billing: "Ajouter une adresse de facturation", relay: "Ajouter un point relais" };
const DONE = { ajout: "Adresse ajoutée.", modification: "Adresse modifiée.", suppression: "Adresse supprimée.", defaut: "Adresse par défaut enregistrée." } as const;
type Done = keyof typeof DONE;

const isKind = (value: unknown): value is AddressBookKind => ADDRESS_BOOK_KINDS.includes(value as AddressBookKind);
/** An id of the post or the address bar; anything else names no address. */
const idOf = (value: unknown) => (typeof value === "string" && /^[1-9]\d{0,9}$/.test(value) ? Number(value) : null);
const notFound = () => data("Adresse introuvable.", { status: 404 });

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireViewer(request, context);
  const url = new URL(request.url);
  const addresses = await listCustomerAddresses(context.db, viewer.id);
  const editing = url.searchParams.has("modifier") ? addresses.find((entry) => entry.id === idOf(url.searchParams.get("modifier"))) : undefined;
  if (url.searchParams.has("modifier") && !editing) throw notFound();
  const adding = url.searchParams.get("ajouter");
  const done = url.searchParams.get("fait");
  return { addresses, editingId: editing?.id ?? null, adding: isKind(adding) ? adding : null, done: done && done in DONE ? (done as Done) : null };
}

type Answer = { kind: AddressBookKind; errors: FieldErrors; values: Record<string, string> };

function refused(change: Exclude<AddressChange, { ok: true }>, kind: AddressBookKind, values: Record<string, string>) {
  if (change.reason === "not-found") throw notFound();
  const message = change.reason === "limit" ? addressLimitMessage(kind) : DUPLICATE_ADDRESS_MESSAGE;
  return data({ kind, errors: { form: message }, values } satisfies Answer, { status: change.reason === "limit" ? 400 : 409 });
}

export async function action({ request, context }: Route.ActionArgs) {
  if (!isSameOriginPost(request, context.publicUrl)) throw data("Requête refusée : elle doit venir du site de la boutique.", { status: 403 });
  const viewer = await requireViewer(request, context);
  const values = Object.fromEntries([...(await readForm(request))].map(([key, value]) => [key, String(value)]));
  const done = (what: Done) => redirect(`${PATH}?fait=${what}`);
  const { intent } = values;
  if (intent === "delete" || intent === "default") {
    const id = idOf(values.id);
    const change = id === null ? null : intent === "delete" ? await deleteCustomerAddress(context.db, viewer.id, id) : await setDefaultCustomerAddress(context.db, viewer.id, id);
    if (!change?.ok) throw notFound();
    return done(intent === "delete" ? "suppression" : "defaut");
  }
  if ((intent !== "add" && intent !== "update") || !isKind(values.kind)) throw data("Action inconnue.", { status: 400 });
  const kind = values.kind;
  const parsed = parseAddressBookForm(kind, values);
  if (!parsed.success) return data({ kind, errors: fieldErrors(parsed.error), values } satisfies Answer, { status: 400 });
  if (intent === "add") {
    const change = await addCustomerAddress(context.db, viewer.id, parsed.entry, { makeDefault: values.makeDefault === "on" });
    return change.ok ? done("ajout") : refused(change, kind, values);
  }
  const id = idOf(values.addressId);
  if (id === null) throw notFound();
  const change = await updateCustomerAddress(context.db, viewer.id, id, parsed.entry);
  return change.ok ? done("modification") : refused(change, kind, values);
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = ({ matches }) => {
  const root = seoRoot(matches);
  return pageMeta(root, { title: `Mes adresses | ${root.shop.name}`, description: "Vos adresses de livraison et de facturation, vos points relais.", path: PATH, noindex: true });
};

/** The add or edit form of one kind: the checkout's schema checks it here as on the server. */
function AddressForm({ kind, entry, answer }: { kind: AddressBookKind; entry?: SavedAddress; answer: Answer | undefined }) {
  const busy = useNavigation().state !== "idle";
  const form = useFormValidation(ADDRESS_BOOK_SCHEMAS[kind], answer?.errors);
  const values = answer?.values ?? (entry?.address as Record<string, string> | undefined) ?? {};
  const title = entry ? "Modifier l'adresse" : ADD_LABELS[kind];
  return (
    <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} aria-label={title} className="mt-4 flex flex-col gap-4 rounded-xl border border-border bg-background p-4" id={`form-${kind}`}>
      <h3 className="font-semibold">{title}</h3>
      <input type="hidden" name="kind" value={kind} />
      {entry ? <input type="hidden" name="addressId" value={entry.id} /> : null}
      <AddressBookFields kind={kind} values={values} errors={form.errors} />
      {entry ? null : (
        <label className="flex min-h-11 cursor-pointer items-center gap-3 self-start text-sm font-medium has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-ring">
          <input type="checkbox" name="makeDefault" defaultChecked={values.makeDefault === "on"} className="size-5 shrink-0 accent-[var(--color-primary)]" />
          Utiliser par défaut
        </label>
      )}
      {form.errors.form ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {form.errors.form}
        </p>
      ) : null}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" name="intent" value={entry ? "update" : "add"} disabled={busy}>
          Enregistrer l'adresse
        </Button>
        <Link to={PATH} className={buttonVariants({ variant: "ghost" })}>
          Annuler
        </Link>
      </div>
    </Form>
  );
}

export default function AccountAddresses({ loaderData, actionData }: Route.ComponentProps) {
  const { addresses, editingId, adding, done } = loaderData;
  const busy = useNavigation().state !== "idle";
  const answer = actionData as Answer | undefined;
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:px-6">
      <Link to="/account" className="inline-flex min-h-11 items-center gap-1.5 text-sm font-medium text-muted-foreground hover:text-foreground">
        <ArrowLeft className="size-4" aria-hidden="true" /> Mon compte
      </Link>
      <h1 className="mt-2 text-3xl font-extrabold tracking-tight">Mes adresses</h1>
      <p className="mt-1 text-muted-foreground">Proposées au paiement de vos commandes : celle par défaut de chaque sorte est déjà remplie.</p>
      {done ? (
        <p role="status" className="mt-4 rounded-xl border border-success/40 bg-success/10 p-3 text-sm font-medium">
          {DONE[done]}
        </p>
      ) : null}

      {ADDRESS_BOOK_KINDS.map((kind) => {
        const Icon = ICONS[kind];
        const entries = addresses.filter((entry) => entry.kind === kind);
        const kindAnswer = answer?.kind === kind ? answer : undefined;
        return (
          <section key={kind} aria-labelledby={`${kind}-title`} className="mt-6 rounded-2xl border border-border bg-card p-6">
            <h2 id={`${kind}-title`} className="flex items-center gap-2 text-lg font-bold">
              <Icon className="size-5 text-primary" aria-hidden="true" /> {ADDRESS_BOOK_TITLES[kind]}
            </h2>
            {entries.length === 0 ? <p className="mt-3 text-sm text-muted-foreground">Aucune adresse enregistrée.</p> : null}
            <ul className="mt-2 flex flex-col divide-y divide-border">
              {entries.map((entry) => {
                const label = addressBookLabel(entry);
                return (
                  <li key={entry.id} className="py-3" data-testid="saved-address">
                    {editingId === entry.id ? (
                      <AddressForm kind={kind} entry={entry} answer={kindAnswer} />
                    ) : (
                      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
                        <div className="min-w-0 flex-1 text-sm">
                          <p>{label}</p>
                          {entry.isDefault ? (
                            <Badge tone="success" className="mt-1">
                              Par défaut
                            </Badge>
                          ) : null}
                        </div>
                        <div className="flex flex-wrap gap-2">
                          <Link to={`${PATH}?modifier=${entry.id}#form-${kind}`} className={buttonVariants({ variant: "outline", size: "sm" })} aria-label={`Modifier : ${label}`}>
                            Modifier
                          </Link>
                          <Form method="post" className="contents">
                            <input type="hidden" name="id" value={entry.id} />
                            {entry.isDefault ? null : (
                              <Button type="submit" name="intent" value="default" variant="outline" size="sm" disabled={busy} aria-label={`Utiliser par défaut : ${label}`}>
                                Utiliser par défaut
                              </Button>
                            )}
                            <Button type="submit" name="intent" value="delete" variant="ghost" size="sm" disabled={busy} aria-label={`Supprimer : ${label}`}>
                              Supprimer
                            </Button>
                          </Form>
                        </div>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
            {adding === kind || (kindAnswer && editingId === null) ? (
              <AddressForm kind={kind} answer={kindAnswer} />
            ) : (
              <Link to={`${PATH}?ajouter=${kind}#form-${kind}`} className={buttonVariants({ variant: "outline", className: "mt-3" })}>
                <Plus aria-hidden="true" /> {ADD_LABELS[kind]}
              </Link>
            )}
          </section>
        );
      })}
    </div>
  );
}
