import { ArrowLeft, Check, CheckCircle2, Mail, PackageOpen, Undo2 } from "lucide-react";
import { type ReactNode, useCallback } from "react";
import { Form, Link, useNavigation } from "react-router";
import { OrderStatusBadge } from "~/components/orders/order-status-badge";
import { formatParisDateTime } from "~/domain/paris-time";
import { Alert } from "~/components/ui/alert";
import { Button, buttonVariants } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { Input } from "~/components/ui/input";
import type { FieldErrors } from "~/domain/field-errors";
import { formatEuros } from "~/domain/money";
import {
  type WithdrawalFailure,
  type WithdrawalOrder,
  type WithdrawalReceipt,
  type WithdrawalView,
  WITHDRAWAL_NAME_MAX,
  orderNumberExample,
  quantityField,
  refundDeadline,
  requestMoment,
} from "~/domain/withdrawal";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { withdrawalHref } from "./withdrawal-status";

/**
 * The three steps of /retractation: find the order (guests), confirm, and the acknowledgement.
 * Plain forms posting to the page's action: they work the same without JavaScript.
 */

const STEPS = ["Votre commande", "Confirmation", "Accusé de réception"] as const;
const STEP_OF: Record<WithdrawalView["step"], number> = { form: 0, confirm: 1, refused: 1, done: 2 };

export const STEP_HEADING_ID = "withdrawal-step-title";

export function WithdrawalSteps({ step }: { step: WithdrawalView["step"] }) {
  const current = STEP_OF[step];
  return (
    <ol aria-label="Étapes de la rétractation" className="grid grid-cols-3 gap-2 text-xs sm:text-sm">
      {STEPS.map((label, index) => (
        <li
          key={label}
          aria-current={index === current ? "step" : undefined}
          className={cn(
            "flex flex-col gap-2 border-t-4 pt-2 font-medium sm:flex-row sm:items-center",
            index < current ? "border-success text-foreground" : index === current ? "border-primary text-foreground" : "border-border text-muted-foreground",
          )}
        >
          <span
            className={cn(
              "tabular grid size-6 shrink-0 place-items-center rounded-full text-xs font-bold",
              index < current ? "bg-success text-background" : index === current ? "bg-primary text-primary-foreground" : "bg-muted text-muted-foreground",
            )}
            aria-hidden="true"
          >
            {index < current ? <Check className="size-3.5" /> : index + 1}
          </span>
          <span>
            <span className="sr-only">Étape {index + 1} sur 3 : </span>
            {label}
            {index < current ? <span className="sr-only"> (fait)</span> : null}
          </span>
        </li>
      ))}
    </ol>
  );
}

/** A step's card. Its heading can take the focus (the page moves it there after each post). */
function StepCard({ title, icon, children }: { title: string; icon: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={STEP_HEADING_ID} className="rounded-2xl border border-border bg-card p-5 sm:p-6">
      <h2 id={STEP_HEADING_ID} tabIndex={-1} className="flex items-center gap-2 text-xl font-bold focus-visible:outline-none [&_svg]:size-5 [&_svg]:shrink-0">
        {icon}
        {title}
      </h2>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function useBusy() {
  const navigation = useNavigation();
  return navigation.state === "submitting" && navigation.formMethod?.toUpperCase() === "POST";
}

/** Step 1 for guests (and anyone without an order link): the order number and its e-mail. */
export function LookupStep({ view, orderPrefix, signedIn }: { view: Extract<WithdrawalView, { step: "form" }>; orderPrefix: string; signedIn: boolean }) {
  // Imported with the first keystroke or submit (decision 023).
  const loadSchema = useCallback(() => import("~/domain/withdrawal-lookup-schema").then((schemas) => schemas.withdrawalLookupSchema(orderPrefix)), [orderPrefix]);
  const form = useFormValidation(loadSchema, view.fieldErrors);
  const busy = useBusy();
  return (
    <StepCard title="Retrouver votre commande" icon={<PackageOpen aria-hidden="true" />}>
      {view.failure ? <FailureNotice failure={view.failure} /> : null}
      <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4" aria-label="Retrouver votre commande">
        <input type="hidden" name="intent" value="lookup" />
        <FormField
          label="Numéro de commande"
          name="orderNumber"
          required
          autoComplete="off"
          spellCheck={false}
          autoCapitalize="characters"
          placeholder={orderNumberExample(orderPrefix)}
          defaultValue={view.values.orderNumber}
          error={form.errors.orderNumber}
          hint="Il figure dans l'e-mail de confirmation de votre commande."
        />
        <FormField
          label="Email"
          name="email"
          type="email"
          required
          autoComplete="email"
          inputMode="email"
          defaultValue={view.values.email}
          error={form.errors.email}
          hint="L'adresse donnée lors de la commande. L'accusé de réception de votre rétractation sera envoyé à cette adresse."
        />
        <Button type="submit" size="lg" disabled={busy} className="w-full sm:w-auto sm:self-start">
          {busy ? "Recherche en cours..." : "Continuer"}
        </Button>
      </Form>
      <p className="mt-5 text-sm text-muted-foreground">
        {signedIn ? "Vous êtes connecté : vos commandes sont aussi dans " : "Vous avez un compte ? Vos commandes sont dans "}
        <Link to={signedIn ? "/account" : "/login"} className="font-semibold text-accent hover:underline">
          {signedIn ? "Mon compte" : "votre espace client"}
        </Link>
        , chacune avec son bouton «&nbsp;Se rétracter du contrat ici&nbsp;».
      </p>
    </StepCard>
  );
}

function FailureNotice({ failure }: { failure: WithdrawalFailure }) {
  return (
    <Alert tone="error" title={failure.title} className="mb-5">
      {failure.description}
    </Alert>
  );
}

/** The order being withdrawn from: number, date, status, products and the amount paid (no address). */
export function WithdrawalOrderCard({ order, showLines = true }: { order: WithdrawalOrder; showLines?: boolean }) {
  return (
    <div className="rounded-xl border border-border p-4">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="tabular font-bold">Commande {order.number}</p>
        <OrderStatusBadge status={order.status} />
      </div>
      <p className="mt-0.5 text-sm text-muted-foreground">Passée le {formatParisDateTime(order.createdAt)}</p>
      {showLines ? (
        <ul className="mt-3 flex flex-col gap-1.5 border-t border-border pt-3 text-sm" aria-label="Articles de la commande">
          {order.lines.map((line, index) => (
            <li key={index} className="flex justify-between gap-3">
              <span className="min-w-0 [overflow-wrap:anywhere]">{line.name}</span>
              <span className="tabular shrink-0 text-muted-foreground">× {line.quantity}</span>
            </li>
          ))}
        </ul>
      ) : null}
      <p className="mt-3 flex items-baseline justify-between gap-3 border-t border-border pt-3">
        <span className="text-sm font-semibold">Montant payé</span>
        <span className="tabular text-lg font-extrabold">{formatEuros(order.totalCents)}</span>
      </p>
    </div>
  );
}

/** Where "back" goes: the customer's order page, or the form again with the number filled in. */
function BackLink({ number, source }: { number: string; source: "account" | "guest" }) {
  return (
    <Link
      to={source === "account" ? `/account/orders/${encodeURIComponent(number)}` : withdrawalHref(number)}
      className={buttonVariants({ variant: "ghost", size: "lg", className: "w-full sm:w-auto" })}
    >
      <ArrowLeft aria-hidden="true" /> {source === "account" ? "Retour à la commande" : "Modifier la commande"}
    </Link>
  );
}

/**
 * The articles withdrawn: per article of the order, how many units (all by default, 0 to keep
 * it). The fields are named after the order items (quantityField), as the schema reads them.
 */
function WithdrawnArticles({ order, quantities, errors }: { order: WithdrawalOrder; quantities: Record<string, string> | undefined; errors: FieldErrors }) {
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="text-sm font-medium">Articles dont vous vous rétractez</legend>
      <p id="withdrawal-lines-hint" className="-mt-1 text-xs text-muted-foreground">
        Toutes les unités sont choisies. Indiquez 0 pour un article que vous gardez.
      </p>
      {errors.form ? (
        <p role="alert" className="text-sm font-medium text-destructive">
          {errors.form}
        </p>
      ) : null}
      <ul className="flex flex-col divide-y divide-border rounded-xl border border-border">
        {order.lines.map((line) => {
          const name = quantityField(line.id);
          const error = errors[name];
          return (
            <li key={line.id} className="flex flex-col gap-1.5 px-4 py-3">
              <div className="flex items-center justify-between gap-3">
                <label htmlFor={name} className="min-w-0 text-sm [overflow-wrap:anywhere]">
                  {line.name}
                  <span className="block text-xs text-muted-foreground">
                    Acheté{line.quantity > 1 ? "s" : ""}&nbsp;: {line.quantity}
                  </span>
                </label>
                <Input
                  id={name}
                  name={name}
                  type="number"
                  inputMode="numeric"
                  min={0}
                  max={line.quantity}
                  step={1}
                  required
                  defaultValue={quantities?.[name] ?? String(line.quantity)}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${name}-error` : "withdrawal-lines-hint"}
                  className="tabular w-20 shrink-0 text-right"
                />
              </div>
              {error ? (
                <p id={`${name}-error`} className="text-sm font-medium text-destructive">
                  {error}
                </p>
              ) : null}
            </li>
          );
        })}
      </ul>
    </fieldset>
  );
}

/**
 * Step 2: the order, the consumer's name (the EU model form's "Nom du (des) consommateur(s)",
 * the account's name filled in), where the acknowledgement goes, what withdrawing means, and the
 * button. The name is checked in the browser with the schema the action uses.
 */
export function ConfirmStep({ view }: { view: Extract<WithdrawalView, { step: "confirm" }> }) {
  const busy = useBusy();
  const lines = view.order.lines;
  // Imported with the first keystroke or submit (decision 023); the action parses the post with the same schema.
  const loadSchema = useCallback(() => import("~/domain/withdrawal-lookup-schema").then((schemas) => schemas.withdrawalConfirmSchema(lines)), [lines]);
  const form = useFormValidation(loadSchema, view.fieldErrors);
  return (
    <StepCard title="Confirmez votre rétractation" icon={<Undo2 aria-hidden="true" />}>
      <WithdrawalOrderCard order={view.order} showLines={false} />
      <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} aria-label="Confirmer la rétractation" className="mt-5 flex flex-col gap-5">
        <input type="hidden" name="intent" value="confirm" />
        <input type="hidden" name="source" value={view.source} />
        <input type="hidden" name="orderNumber" value={view.order.number} />
        {view.source === "guest" ? <input type="hidden" name="email" value={view.email} /> : null}
        <WithdrawnArticles order={view.order} quantities={view.quantities} errors={form.errors} />
        <FormField
          label="Nom et prénom"
          name="customerName"
          required
          autoComplete="name"
          maxLength={WITHDRAWAL_NAME_MAX}
          defaultValue={view.customerName}
          error={form.errors.customerName}
          hint="Ceux de la personne qui se rétracte ; si vous avez acheté à plusieurs, indiquez le nom de chacun."
        />
        <p className="flex items-start gap-2 rounded-xl bg-muted px-4 py-3 text-sm">
          <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            L'accusé de réception sera envoyé à <span className="font-semibold [overflow-wrap:anywhere]">{view.email}</span>.
          </span>
        </p>
        <div className="flex flex-col gap-2 text-sm">
          <p>
            En confirmant, vous vous rétractez du contrat pour les articles choisis. Nous vous envoyons aussitôt l'accusé de réception par e-mail, avec la date et l'heure de
            votre demande.
          </p>
          <p className="text-muted-foreground">
            Vous êtes remboursé du prix des articles choisis au plus tard 14 jours après votre demande (frais de livraison standard compris si vous vous rétractez de toute
            la commande), éventuellement une fois les articles reçus ou la preuve de leur envoi fournie.
          </p>
        </div>
        <div className="mt-1 flex flex-col-reverse gap-3 sm:flex-row sm:items-center">
          <BackLink number={view.order.number} source={view.source} />
          <Button type="submit" size="lg" disabled={busy} className="w-full sm:order-first sm:w-auto">
            <Check aria-hidden="true" /> {busy ? "Envoi en cours..." : "Confirmer la rétractation"}
          </Button>
        </div>
      </Form>
    </StepCard>
  );
}

/** An order whose status allows no withdrawal (not paid, cancelled, refunded). */
export function RefusedStep({ view }: { view: Extract<WithdrawalView, { step: "refused" }> }) {
  return (
    <StepCard title={`Commande ${view.number}`} icon={<Undo2 aria-hidden="true" />}>
      <FailureNotice failure={view.failure} />
      <div className="flex flex-wrap gap-3">
        {view.source === "account" ? (
          <BackLink number={view.number} source="account" />
        ) : (
          <Link to="/retractation" className={buttonVariants({ variant: "secondary" })}>
            Une autre commande
          </Link>
        )}
        <Link to="/contact" className={buttonVariants({ variant: "ghost" })}>
          Nous contacter
        </Link>
      </div>
    </StepCard>
  );
}

/** Step 3: the acknowledgement, with the date and time of the request. */
export function DoneStep({ receipt, signedIn }: { receipt: WithdrawalReceipt; signedIn: boolean }) {
  const { date, time } = requestMoment(receipt.requestedAt);
  return (
    <StepCard title="Rétractation enregistrée" icon={<CheckCircle2 className="text-success" aria-hidden="true" />}>
      <div role="status" className="flex flex-col gap-3">
        <p className="text-base">
          Votre rétractation du contrat de la commande <span className="tabular font-semibold">{receipt.number}</span>
          {receipt.customerName ? (
            <>
              , au nom de <span className="font-semibold [overflow-wrap:anywhere]">{receipt.customerName}</span>,
            </>
          ) : null}{" "}
          a été enregistrée le{" "}
          <time dateTime={receipt.requestedAt} className="font-semibold">
            {date} à {time}
          </time>{" "}
          (heure de Paris).
        </p>
        <p className="flex items-start gap-2 text-sm">
          <Mail className="mt-0.5 size-4 shrink-0 text-muted-foreground" aria-hidden="true" />
          <span>
            {receipt.alreadyRequested ? "Vous l'aviez déjà demandée : l'accusé de réception a été envoyé à ce moment-là à " : "Un accusé de réception vient de vous être envoyé par e-mail à "}
            <span className="font-semibold [overflow-wrap:anywhere]">{receipt.email}</span>.
          </span>
        </p>
      </div>
      <h3 className="mt-6 font-bold">Et maintenant&nbsp;?</h3>
      <ul className="mt-2 flex list-disc flex-col gap-1.5 pl-5 text-sm text-muted-foreground">
        <li>Nous vous remboursons au plus tard le {refundDeadline(receipt.requestedAt)}, avec le moyen de paiement utilisé pour la commande.</li>
        {receipt.status === "paid" ? <li>Votre commande n'est pas encore expédiée&nbsp;: nous ne l'expédierons pas, vous n'avez rien à renvoyer.</li> : null}
        {receipt.status === "shipped" ? (
          <li>Renvoyez-nous les articles au plus tard le {refundDeadline(receipt.requestedAt)}&nbsp;: l'adresse et les instructions sont dans l'e-mail.</li>
        ) : null}
        <li>Une question&nbsp;? Répondez simplement à l'accusé de réception.</li>
      </ul>
      <div className="mt-6 flex flex-wrap gap-3">
        {signedIn ? (
          <Link to="/account" className={buttonVariants({ variant: "secondary" })}>
            Mon compte
          </Link>
        ) : null}
        <Link to="/catalog" className={buttonVariants({ variant: "ghost" })}>
          Retour à la boutique
        </Link>
      </div>
    </StepCard>
  );
}
