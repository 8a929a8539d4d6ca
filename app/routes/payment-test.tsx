import { CreditCard, FlaskConical, Lock } from "lucide-react";
import { useEffect, useMemo, useRef } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { BillingAddressFields } from "~/components/checkout/billing-address-fields";
import { DeliveryAddressFields } from "~/components/checkout/delivery-address-fields";
import { CgvAcceptance } from "~/components/legal/cgv-acceptance";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { fieldErrors } from "~/domain/auth-forms";
import { formatEuros } from "~/domain/money";
import { INTRA_EU_EXEMPTION_MENTION } from "~/domain/invoice";
import { payButtonLabel, testPaymentSchema } from "~/domain/test-payment-form";
import { PRIVATE_PAGE_CACHE_CONTROL } from "~/lib/http";
import { focusIsLost } from "~/lib/restore-focus";
import { useFormValidation } from "~/lib/use-form-validation";
import { webhookDepsFrom } from "~/services/payment-webhooks.server";
import { type TestSessionView, cancelTestSession, getTestSession, payTestSession } from "~/services/payments/test-checkout.server";
import type { TestProvider } from "~/services/payments/test-provider.server";
import { listCustomerAddresses, saveCheckoutAddresses } from "~/services/customer-addresses.server";
import { getViewer } from "~/services/session.server";
import { checkoutProposals } from "~/domain/customer-addresses";
import type { Route } from "./+types/payment-test";
import { readForm } from "~/lib/request-input.server";
import { formatParisTime } from "~/domain/paris-time";

/**
 * The built-in test provider's hosted payment page (the default without Stripe keys). It looks
 * and behaves like a hosted checkout in test mode: address, test card, the order button
 * ("Payer … – commande avec obligation de paiement") and Annuler.
 */
function testProvider(context: Route.LoaderArgs["context"]): TestProvider {
  if (context.payments.name !== "test") throw data(null, { status: 404 });
  return context.payments as TestProvider;
}

/** The signed-in customer who ordered, when it is them on the page: their address book is theirs to use. */
async function bookOwner(request: Request, context: Route.LoaderArgs["context"], session: TestSessionView): Promise<string | null> {
  if (session.userId === null) return null;
  const viewer = await getViewer(request, context);
  return viewer?.id === session.userId ? viewer.id : null;
}

export async function loader({ request, params, context }: Route.LoaderArgs) {
  testProvider(context);
  const found = await getTestSession(context.db, params.sessionId);
  if (!found) throw data(null, { status: 404 });
  const { userId: _userId, ...session } = found;
  const owner = found.status === "open" ? await bookOwner(request, context, found) : null;
  // A guest's page is today's: no proposals, no « Enregistrer » boxes.
  const proposals = owner ? checkoutProposals(await listCustomerAddresses(context.db, owner), found.delivery, found.businessCountry) : null;
  return { session, proposals };
}

const FAILURES = {
  declined: { title: "Paiement refusé", description: "Votre carte a été refusée. Essayez avec une autre carte." },
  "unknown-card": {
    title: "Carte non acceptée en mode test",
    description: "Utilisez la carte de test 4242 4242 4242 4242 (paiement accepté) ou 4000 0000 0000 0002 (paiement refusé).",
  },
  expired: {
    title: "Session expirée",
    description: "Le délai de paiement est dépassé : les articles ont été remis en vente. Retournez au panier pour recommencer.",
  },
  cancelled: {
    title: "Paiement annulé",
    description: "Vous avez annulé ce paiement : les articles ont été remis en vente. Retournez au panier pour recommencer.",
  },
  "not-open": { title: "Session terminée", description: "Cette session de paiement est déjà terminée." },
} as const;

export async function action({ request, params, context }: Route.ActionArgs) {
  const provider = testProvider(context);
  const session = await getTestSession(context.db, params.sessionId);
  if (!session) throw data(null, { status: 404 });
  const form = Object.fromEntries(await readForm(request));
  const deps = webhookDepsFrom(context);
  if (form.intent === "cancel") {
    const to = await cancelTestSession(context.db, provider, session.id, deps);
    throw redirect(to ?? "/cart?canceled=true");
  }
  const parsed = testPaymentSchema({ needsEmail: session.customerEmail === null, delivery: session.delivery, businessCountry: session.businessCountry }).safeParse(form);
  if (!parsed.success) return data({ fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  const business = session.businessCountry !== null;
  const result = await payTestSession(context.db, provider, session.id, parsed.data, session.delivery, deps, business);
  const owner = result.ok ? await bookOwner(request, context, session) : null;
  // The boxes ticked: the addresses typed go to the buyer's book (a duplicate is not added twice).
  if (owner) await saveCheckoutAddresses(context.db, owner, { form, typed: parsed.data, delivery: session.delivery, business });
  if (result.ok) {
    // The confirmation and the seller's notice leave now, not at the mail worker's next round.
    context.kickMail();
    throw redirect(result.redirectTo);
  }
  return data({ failure: FAILURES[result.reason] }, { status: 400 });
}

export function headers() {
  return { "Cache-Control": PRIVATE_PAGE_CACHE_CONTROL };
}

export const meta: Route.MetaFunction = () => [{ title: "Paiement (mode test)" }, { name: "robots", content: "noindex" }];

export default function TestPaymentPage({ loaderData, actionData }: Route.ComponentProps) {
  const { session, proposals } = loaderData;
  const navigation = useNavigation();
  const busy = navigation.state !== "idle";
  const needsEmail = session.customerEmail === null;
  const { delivery, businessCountry } = session;
  const schema = useMemo(() => testPaymentSchema({ needsEmail, delivery, businessCountry }), [needsEmail, delivery, businessCountry]);
  const form = useFormValidation(schema, actionData && "fieldErrors" in actionData ? actionData.fieldErrors : undefined);
  const failure = actionData && "failure" in actionData ? actionData.failure : undefined;
  const payable = session.status === "open";
  const ended = session.status === "expired" || session.status === "cancelled" ? session.status : "not-open";
  // A refused card: the pay button pressed was disabled while it paid, so focus fell to the
  // body (or, when the answer came before the browser moved it, is back on the button); it goes
  // to the card number, the field to change.
  const cardNumber = useRef<HTMLInputElement>(null);
  const payButton = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (failure && (focusIsLost() || document.activeElement === payButton.current)) cardNumber.current?.focus();
  }, [failure]);

  return (
    <div className="mx-auto max-w-5xl px-4 py-8 sm:px-6">
      <div role="note" className="mb-6 flex items-start gap-3 rounded-xl border-2 border-dashed border-warning/60 bg-warning/10 p-4 text-sm">
        <FlaskConical className="mt-0.5 size-5 shrink-0 text-warning" aria-hidden="true" />
        <div>
          <p className="font-bold">
            Mode test <span className="font-normal text-muted-foreground">– aucun paiement réel n'est effectué</span>
          </p>
          <p className="mt-1 text-muted-foreground">
            Carte acceptée : <span className="tabular font-semibold text-foreground">4242 4242 4242 4242</span> · carte refusée :{" "}
            <span className="tabular font-semibold text-foreground">4000 0000 0000 0002</span> · n'importe quelle date future et n'importe quel cryptogramme.
          </p>
        </div>
      </div>

      <div className="grid gap-8 lg:grid-cols-[1fr_22rem]">
        <div>
          <h1 className="flex items-center gap-2 text-2xl font-extrabold tracking-tight">
            <Lock className="size-5 text-success" aria-hidden="true" /> Paiement sécurisé
          </h1>
          <p className="mt-1 text-sm text-muted-foreground">Commande {session.orderNumber}</p>

          {!payable ? (
            <Alert tone="error" title={FAILURES[ended].title} className="mt-6">
              {FAILURES[ended].description}{" "}
              <Link to="/cart" className="font-semibold text-accent underline">
                Retour au panier
              </Link>
            </Alert>
          ) : (
            <>
              <Form method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="mt-6 flex flex-col gap-8" aria-label="Paiement">
                {needsEmail ? (
                  <fieldset className="flex flex-col gap-4">
                    <legend className="mb-3 text-lg font-bold">Contact</legend>
                    <FormField label="Email" name="email" type="email" autoComplete="email" required error={form.errors.email} hint="La confirmation de commande sera envoyée à cette adresse." />
                  </fieldset>
                ) : (
                  <p className="text-sm text-muted-foreground">
                    Confirmation envoyée à <span className="font-semibold text-foreground">{session.customerEmail}</span>
                  </p>
                )}

                <DeliveryAddressFields delivery={delivery} errors={form.errors} proposals={proposals} />

                <BillingAddressFields relay={delivery.kind === "relay"} country={delivery.country} businessCountry={businessCountry} errors={form.errors} proposals={proposals?.billing} />

                <fieldset className="flex flex-col gap-4">
                  <legend className="mb-3 flex items-center gap-2 text-lg font-bold">
                    <CreditCard className="size-5" aria-hidden="true" /> Carte bancaire
                  </legend>
                  {/* Beside the card it is about: on a phone the top of the form is a screen away. */}
                  {failure ? (
                    <Alert tone="error" title={failure.title}>
                      {failure.description}
                    </Alert>
                  ) : null}
                  <FormField ref={cardNumber} label="Numéro de carte" name="cardNumber" inputMode="numeric" autoComplete="cc-number" placeholder="4242 4242 4242 4242" required error={form.errors.cardNumber} />
                  <div className="grid grid-cols-2 gap-4">
                    <FormField label="Expiration (MM/AA)" name="cardExpiry" inputMode="numeric" autoComplete="cc-exp" placeholder="12/30" required error={form.errors.cardExpiry} />
                    <FormField label="Cryptogramme" name="cardCvc" inputMode="numeric" autoComplete="cc-csc" placeholder="123" required error={form.errors.cardCvc} />
                  </div>
                </fieldset>

                <CgvAcceptance />
                {/* L221-14: the button says that ordering means paying; long, so it may wrap on phones. */}
                <Button ref={payButton} type="submit" name="intent" value="pay" size="lg" disabled={busy} className="h-auto min-h-12 py-3 text-center whitespace-normal">
                  <Lock aria-hidden="true" /> {busy ? "Paiement en cours..." : payButtonLabel(session.totalCents)}
                </Button>
              </Form>
              <Form method="post" className="mt-3">
                <Button type="submit" name="intent" value="cancel" variant="ghost" className="w-full" disabled={busy}>
                  Annuler et revenir au panier
                </Button>
              </Form>
            </>
          )}
        </div>

        <aside aria-labelledby="summary-title" className="order-first h-fit rounded-2xl border border-border bg-card p-5 lg:order-none lg:sticky lg:top-24">
          <div className="flex items-center justify-between gap-2">
            <h2 id="summary-title" className="text-lg font-bold">
              Récapitulatif
            </h2>
            <Badge tone="warning">Mode test</Badge>
          </div>
          <ul className="mt-4 flex flex-col gap-3 text-sm">
            {session.lines.map((line, index) => (
              <li key={index} className="flex justify-between gap-3">
                <span>
                  {line.name} <span className="text-muted-foreground">× {line.quantity}</span>
                  {line.description ? <span className="mt-0.5 block text-xs text-muted-foreground">{line.description}</span> : null}
                </span>
                <span className="tabular shrink-0">{formatEuros(line.unitAmountCents * line.quantity)}</span>
              </li>
            ))}
            {session.discountCents > 0 ? (
              <li className="flex justify-between gap-3 text-success">
                <span>Réduction</span>
                <span className="tabular">−{formatEuros(session.discountCents)}</span>
              </li>
            ) : null}
            {session.storeCreditCents > 0 ? (
              <li className="flex justify-between gap-3">
                <span>Payé par avoir</span>
                <span className="tabular">−{formatEuros(session.storeCreditCents)}</span>
              </li>
            ) : null}
          </ul>
          <div className="mt-4 flex items-baseline justify-between border-t border-border pt-4">
            <span className="font-semibold">
              Total <span className="text-xs font-normal text-muted-foreground">{session.exemptIntraEu ? "HT" : "TTC"}</span>
            </span>
            <span className="tabular text-xl font-extrabold">{formatEuros(session.totalCents)}</span>
          </div>
          {session.exemptIntraEu ? (
            <p className="mt-2 text-xs text-muted-foreground">
              Livraison intracommunautaire à une entreprise&nbsp;: {INTRA_EU_EXEMPTION_MENTION}. Prix hors TVA.
            </p>
          ) : null}
          {payable ? (
            <p className="mt-3 text-xs text-muted-foreground">Articles réservés jusqu'à {formatParisTime(session.expiresAt)}.</p>
          ) : null}
        </aside>
      </div>
    </div>
  );
}
