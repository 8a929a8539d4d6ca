import { Plus, Send } from "lucide-react";
import { type ReactNode, useState } from "react";
import { useFetcher } from "react-router";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { ID_DOCUMENT_LABELS, ID_DOCUMENT_TYPES, PAYMENT_MEANS_LABELS, type OfferLine, type PaymentMeans, conditionLabel, lineTotalCents, offerPayouts } from "~/domain/buyback-offer";
import { displayIban } from "~/domain/buyback-offer-forms";
import { CONDITIONS, CONDITION_LABELS, MAIN_CATEGORIES } from "~/domain/catalog-values";
import { type InboxStatus } from "~/domain/inbox-values";
import { NOTE_MAX } from "~/domain/inbox-admin";
import { centsToFrenchDecimal, formatEuros } from "~/domain/money";
import { identityText } from "~/domain/purchase-register";
import { cn } from "~/lib/utils";

/**
 * The buy-back steps on a request's page (issue 54): the offer by lines, then what the customer
 * accepted, the reception (identity document), an adjustment, and the completion with each
 * line into stock. Each form has its fetcher key: the status card shows their answers.
 */
export const BUYBACK_FETCHERS = { offer: "buyback-offer", receive: "buyback-receive", adjust: "buyback-adjust", complete: "buyback-complete" } as const;

type Answer = { ok: boolean; fieldErrors?: Partial<Record<string, string>> };
type Offer = {
  lines: OfferLine[];
  pendingLines: OfferLine[] | null;
  bonusPercent: number;
  paymentMeans: PaymentMeans | null;
  acceptedTotalCents: number | null;
  sellerAddress: string | null;
  accountHolder: string | null;
  iban: string | null;
  idType: string | null;
  idNumber: string | null;
  idAuthority: string | null;
  idIssuedOn: string | null;
  paidCents: number | null;
};

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-border bg-card p-5">
      <h2 className="mb-3 text-base font-bold">{title}</h2>
      {children}
    </div>
  );
}

const errorsOf = (answer: Answer | undefined) => (answer && !answer.ok ? (answer.fieldErrors ?? {}) : {});

export function BuybackPanel({ status, offer, products, name }: { status: InboxStatus; offer: Offer | null; products: { id: number; title: string; stock: number }[]; name: string }) {
  return (
    <>
      {status === "en_estimation" ? <OfferLinesForm intent="offer" title="Faire une offre" lines={[]} submitLabel="Envoyer l'offre par e-mail" hint={`${name} la reçoit par e-mail avec un lien pour l'accepter ou la refuser.`} /> : null}
      {offer ? <OfferSummary offer={offer} /> : null}
      {status === "acceptee" && offer ? <ReceptionForm address={offer.sellerAddress ?? ""} /> : null}
      {status === "recue" && offer && !offer.pendingLines ? (
        <>
          <CompletionForm lines={offer.lines} products={products} />
          <OfferLinesForm intent="adjust" title="Ajuster l'offre" lines={offer.lines} submitLabel="Envoyer l'offre ajustée" hint="Un état différent de celui annoncé ? Le client reçoit l'offre ajustée et doit l'accepter ; sinon, renvoyez-lui ses cartes." />
        </>
      ) : null}
    </>
  );
}

function OfferSummary({ offer }: { offer: Offer }) {
  const payouts = offerPayouts(offer.lines, offer.bonusPercent);
  return (
    <Card title="Offre">
      <LinesList lines={offer.lines} />
      <p className="mt-2 text-sm">
        Virement : <strong className="tabular">{formatEuros(payouts.transfer)}</strong> · avoir (+{offer.bonusPercent} %) : <strong className="tabular">{formatEuros(payouts.credit)}</strong>
      </p>
      {offer.pendingLines ? (
        <div className="mt-3 rounded-lg border border-border bg-muted/40 p-3 text-sm">
          <p className="font-medium">Ajustement en attente de la réponse du client :</p>
          <LinesList lines={offer.pendingLines} />
        </div>
      ) : null}
      {offer.paymentMeans ? (
        <dl className="mt-3 grid gap-1 text-sm">
          <dt className="text-muted-foreground">Accepté, payé par</dt>
          <dd>{PAYMENT_MEANS_LABELS[offer.paymentMeans]}</dd>
          {offer.iban ? (
            <>
              <dt className="text-muted-foreground">Compte</dt>
              <dd className="break-all">
                {offer.accountHolder} · <span className="tabular">{displayIban(offer.iban)}</span>
              </dd>
            </>
          ) : null}
          {offer.sellerAddress ? (
            <>
              <dt className="text-muted-foreground">Adresse</dt>
              <dd className="whitespace-pre-wrap [overflow-wrap:anywhere]">{offer.sellerAddress}</dd>
            </>
          ) : null}
          {offer.idType && offer.idNumber && offer.idAuthority && offer.idIssuedOn ? (
            <>
              <dt className="text-muted-foreground">Pièce d'identité</dt>
              <dd>{identityText({ idType: offer.idType, idNumber: offer.idNumber, idAuthority: offer.idAuthority, idIssuedOn: offer.idIssuedOn })}</dd>
            </>
          ) : null}
          {offer.paidCents !== null ? (
            <>
              <dt className="text-muted-foreground">Réglé</dt>
              <dd className="tabular">{formatEuros(offer.paidCents)}</dd>
            </>
          ) : null}
        </dl>
      ) : null}
    </Card>
  );
}

function LinesList({ lines }: { lines: OfferLine[] }) {
  return (
    <ul className="flex flex-col gap-1 text-sm">
      {lines.map((line, i) => (
        <li key={i} className="flex justify-between gap-3">
          <span className="[overflow-wrap:anywhere]">
            {line.description} <span className="text-muted-foreground">({conditionLabel(line.condition)}) × {line.quantity}</span>
          </span>
          <span className="tabular shrink-0">{formatEuros(lineTotalCents(line))}</span>
        </li>
      ))}
    </ul>
  );
}

function OfferLinesForm({ intent, title, lines, submitLabel, hint }: { intent: "offer" | "adjust"; title: string; lines: OfferLine[]; submitLabel: string; hint: string }) {
  const fetcher = useFetcher<Answer>({ key: BUYBACK_FETCHERS[intent] });
  const errors = errorsOf(fetcher.data);
  const [count, setCount] = useState(Math.max(lines.length, 1));
  return (
    <Card title={title}>
      <fetcher.Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="intent" value={intent} />
        <p className="text-sm text-muted-foreground">{hint}</p>
        {Array.from({ length: count }, (_, i) => {
          const line = lines[i];
          return (
            <fieldset key={i} className="flex flex-col gap-3 rounded-lg border border-border p-3">
              <legend className="px-1 text-sm font-medium">Ligne {i + 1}</legend>
              <Field label="Description" error={errors[`lines.${i}.description`]}>
                {(props) => <Input {...props} name={`lines.${i}.description`} defaultValue={line?.description} autoComplete="off" />}
              </Field>
              <div className="grid grid-cols-3 gap-2">
                <Field label="État" error={errors[`lines.${i}.condition`]}>
                  {(props) => (
                    <select {...props} name={`lines.${i}.condition`} defaultValue={line?.condition ?? "near-mint"} className={cn(controlClass, "h-11")}>
                      {CONDITIONS.map((condition) => (
                        <option key={condition} value={condition}>
                          {CONDITION_LABELS[condition]}
                        </option>
                      ))}
                    </select>
                  )}
                </Field>
                <Field label="Quantité" error={errors[`lines.${i}.quantity`]}>
                  {(props) => <Input {...props} name={`lines.${i}.quantity`} inputMode="numeric" defaultValue={line?.quantity ?? 1} autoComplete="off" />}
                </Field>
                <Field label="Prix unitaire (€)" error={errors[`lines.${i}.unitPrice`]}>
                  {(props) => <Input {...props} name={`lines.${i}.unitPrice`} inputMode="decimal" defaultValue={line ? centsToFrenchDecimal(line.unitPriceCents) : ""} autoComplete="off" />}
                </Field>
              </div>
            </fieldset>
          );
        })}
        <Button type="button" variant="outline" onClick={() => setCount((n) => n + 1)}>
          <Plus aria-hidden="true" /> Ajouter une ligne
        </Button>
        <Field label="Note pour le client" error={errors.note} hint="Facultatif : ce qui justifie l'offre, les modalités d'envoi…">
          {(props) => <textarea {...props} name="note" rows={3} maxLength={NOTE_MAX} className={cn(controlClass, "py-2")} />}
        </Field>
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          <Send aria-hidden="true" /> {submitLabel}
        </Button>
      </fetcher.Form>
    </Card>
  );
}

function ReceptionForm({ address }: { address: string }) {
  const fetcher = useFetcher<Answer>({ key: BUYBACK_FETCHERS.receive });
  const errors = errorsOf(fetcher.data);
  return (
    <Card title="Réception des cartes">
      <fetcher.Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="receive" />
        <p className="text-sm text-muted-foreground">La pièce d'identité du vendeur est obligatoire pour le registre des objets mobiliers.</p>
        <Field label="Type de pièce d'identité" required error={errors.idType}>
          {(props) => (
            <select {...props} name="idType" defaultValue="" className={cn(controlClass, "h-11")}>
              <option value="">Choisir</option>
              {ID_DOCUMENT_TYPES.map((type) => (
                <option key={type} value={type}>
                  {ID_DOCUMENT_LABELS[type]}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Numéro de la pièce" required error={errors.idNumber}>
          {(props) => <Input {...props} name="idNumber" autoComplete="off" />}
        </Field>
        <Field label="Délivrée par" required error={errors.idAuthority} hint="Par exemple : Préfecture du Rhône">
          {(props) => <Input {...props} name="idAuthority" autoComplete="off" />}
        </Field>
        <Field label="Délivrée le" required error={errors.idIssuedOn}>
          {(props) => <Input {...props} name="idIssuedOn" type="date" />}
        </Field>
        <Field label="Adresse du vendeur" required error={errors.address} hint="Celle donnée en acceptant l'offre : vérifiez-la sur la pièce.">
          {(props) => <textarea {...props} name="address" rows={3} defaultValue={address} className={cn(controlClass, "py-2")} />}
        </Field>
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          Marquer les cartes reçues
        </Button>
      </fetcher.Form>
    </Card>
  );
}

function CompletionForm({ lines, products }: { lines: OfferLine[]; products: { id: number; title: string; stock: number }[] }) {
  const fetcher = useFetcher<Answer>({ key: BUYBACK_FETCHERS.complete });
  const errors = errorsOf(fetcher.data);
  return (
    <Card title="Terminer le rachat">
      <fetcher.Form method="post" noValidate className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="complete" />
        <p className="text-sm text-muted-foreground">Écrit une entrée au registre par ligne, règle le client et met les cartes en stock avec leur prix d'achat.</p>
        {lines.map((line, i) => (
          <StockChoiceFields key={i} index={i} line={line} products={products} errors={errors} />
        ))}
        <Button type="submit" disabled={fetcher.state !== "idle"}>
          Terminer le rachat
        </Button>
      </fetcher.Form>
    </Card>
  );
}

function StockChoiceFields({ index: i, line, products, errors }: { index: number; line: OfferLine; products: { id: number; title: string; stock: number }[]; errors: Partial<Record<string, string>> }) {
  const [mode, setMode] = useState<"new" | "existing" | "skip">("new");
  const name = (field: string) => `stock.${i}.${field}`;
  return (
    <fieldset className="flex flex-col gap-3 rounded-lg border border-border p-3">
      <legend className="px-1 text-sm font-medium [overflow-wrap:anywhere]">
        {line.description} × {line.quantity} ({formatEuros(line.unitPriceCents)} l'unité)
      </legend>
      <div role="radiogroup" aria-label="Mise en stock" className="flex flex-col gap-1 text-sm">
        {(
          [
            ["new", "Nouveau produit d'occasion"],
            ["existing", "Ajouter au stock d'un produit"],
            ["skip", "Ne pas mettre en stock"],
          ] as const
        ).map(([value, label]) => (
          <label key={value} className="flex min-h-11 items-center gap-2">
            <input type="radio" name={name("mode")} value={value} checked={mode === value} onChange={() => setMode(value)} className="size-4" />
            {label}
          </label>
        ))}
      </div>
      {mode === "new" ? (
        <>
          <Field label="Titre du produit" error={errors[name("title")]}>
            {(props) => <Input {...props} name={name("title")} defaultValue={line.description} autoComplete="off" />}
          </Field>
          <div className="grid grid-cols-2 gap-2">
            <Field label="Catégorie" error={errors[name("category")]}>
              {(props) => (
                <select {...props} name={name("category")} defaultValue="TCG" className={cn(controlClass, "h-11")}>
                  {MAIN_CATEGORIES.map((category) => (
                    <option key={category} value={category}>
                      {category}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label="Prix de vente (€)" error={errors[name("price")]}>
              {(props) => <Input {...props} name={name("price")} inputMode="decimal" autoComplete="off" />}
            </Field>
          </div>
          <label className="flex min-h-11 items-center gap-2 text-sm">
            <input type="checkbox" name={name("publish")} value="on" className="size-4" /> Publier tout de suite (sinon hors ligne)
          </label>
        </>
      ) : mode === "existing" ? (
        <Field label="Produit" error={errors[name("productId")]}>
          {(props) => (
            <select {...props} name={name("productId")} defaultValue="" className={cn(controlClass, "h-11")}>
              <option value="">Choisir par titre</option>
              {products.map((product) => (
                <option key={product.id} value={product.id}>
                  {product.title} (stock {product.stock})
                </option>
              ))}
            </select>
          )}
        </Field>
      ) : null}
      {errors[name("mode")] ? <p className="text-sm font-medium text-destructive">{errors[name("mode")]}</p> : null}
    </fieldset>
  );
}
