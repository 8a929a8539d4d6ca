import { data, Form, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { fieldErrors } from "~/domain/auth-forms";
import { PAYMENT_MEANS, PAYMENT_MEANS_LABELS, conditionLabel, lineTotalCents, offerPayouts } from "~/domain/buyback-offer";
import { acceptOfferSchema } from "~/domain/buyback-offer-forms";
import { formatEuros } from "~/domain/money";
import { formatParisDate } from "~/domain/paris-time";
import { formPageHeaders } from "~/lib/http";
import { readForm } from "~/lib/request-input.server";
import { cn } from "~/lib/utils";
import { type OfferView, answerOffer, offerSecret, readOfferLink } from "~/services/buyback.server";
import type { Route } from "./+types/buyback-offer";

/**
 * /rachat/offre/:token, the link of a buy-back offer e-mail: the customer reads the offer and
 * accepts it (choosing store credit or a bank transfer) or declines it, with no account: the
 * signed, expiring token is the proof. A forged link gets a 403, an expired or replaced one a 410.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  context.markPersonal?.();
  const found = await readOfferLink(context.db, offerSecret(context.dropSecret), params.token);
  if (!found.ok) return data({ view: null, error: found.message, fieldErrors: null }, { status: found.status });
  return { view: found.view, error: null, fieldErrors: null };
}

export async function action({ request, params, context }: Route.ActionArgs) {
  context.markPersonal?.();
  const form = await readForm(request);
  const deps = { db: context.db, shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl }, secret: offerSecret(context.dropSecret) };
  if (form.get("intent") === "decline") {
    const outcome = await answerOffer(deps, params.token, { kind: "decline" });
    return outcome.ok ? { view: outcome.view, error: null, fieldErrors: null } : data({ view: null, error: outcome.message, fieldErrors: null }, { status: outcome.status });
  }
  const parsed = acceptOfferSchema.safeParse(Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string")));
  if (!parsed.success) {
    const found = await readOfferLink(context.db, deps.secret, params.token);
    if (!found.ok) return data({ view: null, error: found.message, fieldErrors: null }, { status: found.status });
    return data({ view: found.view, error: null, fieldErrors: fieldErrors(parsed.error) }, { status: 400 });
  }
  const outcome = await answerOffer(deps, params.token, { kind: "accept", input: parsed.data });
  return outcome.ok ? { view: outcome.view, error: null, fieldErrors: null } : data({ view: null, error: outcome.message, fieldErrors: null }, { status: outcome.status });
}

export const headers = formPageHeaders;

export const meta: Route.MetaFunction = () => [{ title: "Notre offre de rachat" }, { name: "robots", content: "noindex" }];

export default function BuybackOfferPage({ loaderData, actionData }: Route.ComponentProps) {
  const { view, error, fieldErrors: errors } = actionData ?? loaderData;
  return (
    <section className="mx-auto w-full max-w-2xl px-4 py-8 sm:py-12">
      <h1 className="text-2xl font-extrabold tracking-tight sm:text-3xl">Notre offre de rachat</h1>
      {error || !view ? (
        <Alert tone="error" className="mt-6" title="Lien refusé">
          {error ?? "Ce lien n'est pas valide."}
        </Alert>
      ) : (
        <OfferBody view={view} errors={errors ?? {}} />
      )}
    </section>
  );
}

function OfferBody({ view, errors }: { view: OfferView; errors: Record<string, string | undefined> }) {
  const busy = useNavigation().state !== "idle";
  const payouts = offerPayouts(view.lines, view.bonusPercent);
  return (
    <>
      <p className="mt-2 text-sm text-muted-foreground">
        Pour {view.firstName} {view.lastName}
        {view.open ? ` · valable jusqu'au ${formatParisDate(view.expiresAt)}` : ""}
      </p>
      {view.adjusted ? (
        <Alert tone="info" className="mt-4" title="Offre ajustée">
          En recevant vos cartes, nous avons constaté un état différent pour au moins un article : voici l'offre ajustée. Si vous la refusez, nous vous renvoyons vos cartes.
        </Alert>
      ) : null}
      <div className="mt-6 overflow-x-auto rounded-2xl border border-border bg-card">
        <table className="w-full text-sm">
          <caption className="sr-only">Articles de l'offre</caption>
          <thead className="border-b border-border text-left text-muted-foreground">
            <tr>
              <th scope="col" className="p-3 font-medium">Article</th>
              <th scope="col" className="p-3 text-right font-medium">Qté</th>
              <th scope="col" className="p-3 text-right font-medium">Prix</th>
            </tr>
          </thead>
          <tbody>
            {view.lines.map((line, i) => (
              <tr key={i} className="border-b border-border last:border-0">
                <td className="p-3">
                  <span className="font-medium [overflow-wrap:anywhere]">{line.description}</span>
                  <span className="block text-xs text-muted-foreground">
                    {conditionLabel(line.condition)} · {formatEuros(line.unitPriceCents)} l'unité
                  </span>
                </td>
                <td className="tabular p-3 text-right">{line.quantity}</td>
                <td className="tabular p-3 text-right">{formatEuros(lineTotalCents(line))}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <dl className="mt-4 grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
        <dt>Par virement bancaire</dt>
        <dd className="tabular text-right font-semibold">{formatEuros(payouts.transfer)}</dd>
        <dt>En avoir en boutique (bonus de {view.bonusPercent} %)</dt>
        <dd className="tabular text-right font-semibold">{formatEuros(payouts.credit)}</dd>
      </dl>

      {!view.open ? (
        <Alert tone={view.status === "refusee" ? "info" : "success"} className="mt-6" title={view.status === "refusee" ? "Offre refusée" : "Offre acceptée"}>
          {view.status === "refusee"
            ? "Vous avez refusé cette offre. Merci d'avoir pensé à nous."
            : `Vous avez accepté cette offre, payée ${view.paymentMeans === "transfer" ? "par virement bancaire" : "en avoir en boutique"}. Envoyez-nous vos cartes : nous vous prévenons dès leur réception.`}
        </Alert>
      ) : (
        <>
          <Form method="post" noValidate className="mt-8 flex flex-col gap-5 rounded-2xl border border-border bg-card p-5" aria-labelledby="accept-title">
            <h2 id="accept-title" className="text-lg font-bold">
              Accepter l'offre
            </h2>
            <fieldset className="flex flex-col gap-2" aria-describedby={errors.means ? "means-error" : undefined}>
              <legend className="mb-1 text-sm font-medium">Comment voulez-vous être payé ?</legend>
              {PAYMENT_MEANS.map((means) => (
                <label key={means} className="flex min-h-11 cursor-pointer items-center gap-3 rounded-lg border border-border px-3 has-[:checked]:border-accent has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring">
                  <input type="radio" name="means" value={means} defaultChecked={means === (view.paymentMeans ?? "credit")} className="size-4 accent-[var(--color-accent)]" />
                  <span className="text-sm">
                    {PAYMENT_MEANS_LABELS[means]} : <strong className="tabular">{formatEuros(payouts[means])}</strong>
                  </span>
                </label>
              ))}
              {errors.means ? (
                <p id="means-error" className="text-sm font-medium text-destructive">
                  {errors.means}
                </p>
              ) : null}
            </fieldset>
            <Field label="Votre adresse postale" required error={errors.address} hint="Rue, code postal et ville : elle figure au registre des achats d'occasion.">
              {(props) => <textarea {...props} name="address" rows={3} autoComplete="street-address" className={cn(controlClass, "py-2")} />}
            </Field>
            <fieldset className="flex flex-col gap-4 rounded-lg border border-dashed border-border p-4">
              <legend className="px-1 text-sm font-medium">Pour un virement seulement</legend>
              <Field label="Titulaire du compte" error={errors.accountHolder}>
                {(props) => <Input {...props} name="accountHolder" autoComplete="name" />}
              </Field>
              <Field label="IBAN" error={errors.iban} hint="Par exemple FR76 3000 6000 0112 3456 7890 189">
                {(props) => <Input {...props} name="iban" autoComplete="off" spellCheck={false} className="uppercase" />}
              </Field>
            </fieldset>
            <Button type="submit" name="intent" value="accept" disabled={busy}>
              Accepter l'offre
            </Button>
          </Form>
          <Form method="post" className="mt-4 flex flex-col items-start gap-2">
            <p className="text-sm text-muted-foreground">L'offre ne vous convient pas ?</p>
            <Button type="submit" name="intent" value="decline" variant="outline" disabled={busy}>
              Refuser l'offre
            </Button>
          </Form>
        </>
      )}
    </>
  );
}
