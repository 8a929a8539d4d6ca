import { ArrowLeft, Mail, Phone } from "lucide-react";
import { type ReactNode, useEffect, useRef } from "react";
import { data, Link, useFetcher } from "react-router";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { toast } from "~/components/ui/toaster";
import { type FieldErrors, fieldErrors } from "~/domain/auth-forms";
import { INBOX_KIND_LABELS, INBOX_STATUSES, INBOX_STATUS_LABELS, type InboxStatus } from "~/domain/inbox-values";
import { MESSAGE_MAX } from "~/domain/contact-forms";
import { offerNoteSchema, replySchema } from "~/domain/inbox-admin";
import { offerTotalCents } from "~/domain/buyback-offer";
import { readOfferLines, receptionSchema } from "~/domain/buyback-offer-forms";
import { readStockChoices } from "~/domain/buyback-stock";
import { BUYBACK_FETCHERS, BuybackPanel } from "~/components/admin/buyback-panel";
import { type ActionOutcome as BuybackOutcome, adjustOffer, completePurchase, getBuybackOffer, markReceived, offerSecret, productChoices, sendOffer } from "~/services/buyback.server";

import { MOVE_LABELS, STATUS_TONES, buttonStatuses, describeEvent } from "~/domain/inbox-workflow";
import { formatEuros } from "~/domain/money";
import { readFormAtMost } from "~/lib/request-input.server";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { type ActionOutcome, getInboxRequest, markContactRead, moveInboxRequest, replyToRequest } from "~/services/inbox.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/inbox-message";
import { formatParisDateTime } from "~/domain/paris-time";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  const admin = await requireAdmin(request, context);
  // Opening a new contact message marks it read (a timeline event says who and when).
  await markContactRead(context.db, params.id, admin.id);
  const found = await getInboxRequest(context.db, params.id);
  if (!found) throw data(null, { status: 404 });
  const offer = found.request.kind === "rachat" ? await getBuybackOffer(context.db, found.request.id) : null;
  // The products a bought line can add units to, at completion only.
  const products = found.request.status === "recue" ? await productChoices(context.db) : [];
  return { ...found, offer, products };
}

type Intent = "status" | "reply" | "offer" | "receive" | "adjust" | "complete";
export type InboxActionAnswer =
  | { ok: true; intent: Intent; toast: { title: string; description: string } }
  | { ok: false; intent: Intent | null; toast: { title: string; description: string }; fieldErrors?: FieldErrors };

const FORM_LIMIT = 64 * 1024;
const INVALID = { title: "Erreur", description: "Requête invalide." };

/** The seller's actions on a request: move its status, reply by e-mail, send an offer. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = await readFormAtMost(request, FORM_LIMIT);
  if (typeof form === "string") return data<InboxActionAnswer>({ ok: false, intent: null, toast: INVALID }, { status: form === "too-large" ? 413 : 400 });
  const intent = form.get("intent");
  const fields = Object.fromEntries([...form.entries()].filter(([, value]) => typeof value === "string"));
  const mail = { db: context.db, shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl } };

  if (intent === "status") {
    const expected = INBOX_STATUSES.find((s) => s === fields.expected);
    const to = INBOX_STATUSES.find((s) => s === fields.to);
    if (!expected || !to) return data<InboxActionAnswer>({ ok: false, intent, toast: INVALID }, { status: 400 });
    return answer(intent, await moveInboxRequest(context.db, { id: params.id, expected, to, actorId: admin.id }), () => ({
      title: "Statut mis à jour",
      description: `La demande est maintenant « ${INBOX_STATUS_LABELS[to]} ».`,
    }));
  }
  if (intent === "reply") {
    const parsed = replySchema.safeParse(fields);
    if (!parsed.success) return invalid(intent, fieldErrors(parsed.error));
    const outcome = await replyToRequest(mail, { id: params.id, reply: parsed.data.reply, actorId: admin.id });
    if (outcome.ok) context.kickMail();
    return answer(intent, outcome, (r) => ({ title: "Réponse envoyée", description: `Votre réponse part par e-mail à ${r.email}.` }));
  }
  const offerDeps = { ...mail, secret: offerSecret(context.dropSecret) };
  if (intent === "offer" || intent === "adjust") {
    const lines = readOfferLines(fields);
    const note = offerNoteSchema.safeParse(fields);
    if (!lines.ok || !note.success) return invalid(intent, { ...(lines.ok ? {} : lines.fieldErrors), ...(note.success ? {} : fieldErrors(note.error)) });
    const input = { id: params.id, lines: lines.lines, note: note.data.note, actorId: admin.id };
    const outcome = intent === "offer" ? await sendOffer(offerDeps, input) : await adjustOffer(offerDeps, input);
    if (outcome.ok) context.kickMail();
    const total = formatEuros(offerTotalCents(lines.lines));
    return answer(intent, outcome, (r) =>
      intent === "offer"
        ? { title: "Offre envoyée", description: `L'offre de ${total} part par e-mail à ${r.email}, avec son lien de réponse.` }
        : { title: "Offre ajustée", description: `L'offre ajustée (${total}) part par e-mail à ${r.email} : le client doit l'accepter.` },
    );
  }
  if (intent === "receive") {
    const parsed = receptionSchema.safeParse(fields);
    if (!parsed.success) return invalid(intent, fieldErrors(parsed.error));
    return answer(intent, await markReceived(context.db, { id: params.id, reception: parsed.data, actorId: admin.id }), () => ({
      title: "Cartes reçues",
      description: "La pièce d'identité est relevée : vous pouvez terminer le rachat.",
    }));
  }
  if (intent === "complete") {
    const offer = await getBuybackOffer(context.db, params.id);
    if (!offer) return data<InboxActionAnswer>({ ok: false, intent, toast: { title: "Erreur", description: "Cette demande n'a pas d'offre." } }, { status: 404 });
    const choices = readStockChoices(fields, offer.lines.length);
    if (!choices.ok) return invalid(intent, choices.fieldErrors);
    const outcome = await completePurchase(context.db, { id: params.id, stock: choices.choices, actorId: admin.id, shop: mail.shop });
    if (!outcome.ok) return answer(intent, outcome, () => INVALID);
    const offline = outcome.offline > 0 ? ` ${outcome.offline} produit(s) restent hors ligne : complétez leurs informations de sécurité avant de les publier.` : "";
    return answer(intent, outcome, () => ({
      title: "Rachat terminé",
      description: `Registre : entrée(s) n° ${outcome.entryNumbers.join(", ")}. ${outcome.productIds.length} ligne(s) en stock.${offline}`,
    }));
  }
  return data<InboxActionAnswer>({ ok: false, intent: null, toast: INVALID }, { status: 400 });
}

function invalid(intent: Intent, errors: FieldErrors) {
  const first = Object.values(errors).find(Boolean) ?? INVALID.description;
  return data<InboxActionAnswer>({ ok: false, intent, toast: { title: "Formulaire incomplet", description: first }, fieldErrors: errors }, { status: 400 });
}

function answer(intent: Intent, outcome: ActionOutcome | BuybackOutcome, success: (request: Extract<ActionOutcome, { ok: true }>["request"]) => { title: string; description: string }) {
  if (outcome.ok) return data<InboxActionAnswer>({ ok: true, intent, toast: success(outcome.request) });
  const title = outcome.status === 409 ? "Action impossible" : "Erreur";
  return data<InboxActionAnswer>({ ok: false, intent, toast: { title, description: outcome.message } }, { status: outcome.status });
}

export const meta: Route.MetaFunction = ({ data: loaderData }) => [
  { title: loaderData ? `${INBOX_KIND_LABELS[loaderData.request.kind]} : ${loaderData.request.firstName} ${loaderData.request.lastName}` : "Demande" },
];

/** Shows the toast an action answered with, once per answer. */
function useAnswerToast(answer: InboxActionAnswer | undefined) {
  useEffect(() => {
    if (!answer) return;
    if (answer.ok) toast.success(answer.toast.title, { description: answer.toast.description });
    else toast.error(answer.toast.title, { description: answer.toast.description });
  }, [answer]);
}

/** One request: everything the customer sent, its photos and timeline, and the seller's actions. */
export default function AdminInboxMessage({ loaderData }: Route.ComponentProps) {
  const { request, events, offer, products } = loaderData;
  const buyback = request.kind === "rachat";
  return (
    <section>
      <Link to="/admin/inbox" className={buttonVariants({ variant: "ghost", size: "sm", className: "-ml-3 h-11" })}>
        <ArrowLeft aria-hidden="true" /> Tous les messages
      </Link>
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <h1 className="min-w-0 text-2xl font-extrabold tracking-tight [overflow-wrap:anywhere] sm:text-3xl">
          {request.firstName} {request.lastName}
        </h1>
        <Badge tone="info">{buyback ? "Demande de rachat" : "Message de contact"}</Badge>
        <Badge tone={STATUS_TONES[request.status]}>{INBOX_STATUS_LABELS[request.status]}</Badge>
      </div>
      <p className="mt-1 text-sm text-muted-foreground">Reçue le {formatParisDateTime(request.createdAt)}</p>

      <div className="mt-6 grid gap-6 xl:grid-cols-[minmax(0,1fr)_22rem]">
        <div className="flex min-w-0 flex-col gap-6">
          <Card title="Coordonnées">
            <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[max-content_1fr]">
              <dt className="text-muted-foreground">Nom</dt>
              <dd className="break-words">{request.lastName}</dd>
              <dt className="text-muted-foreground">Prénom</dt>
              <dd className="break-words">{request.firstName}</dd>
              <dt className="text-muted-foreground">Email</dt>
              <dd>
                <a href={`mailto:${request.email}`} className="inline-flex items-center gap-1.5 break-all font-medium text-accent hover:underline">
                  <Mail className="size-4 shrink-0" aria-hidden="true" />
                  {request.email}
                </a>
              </dd>
              {request.phone ? (
                <>
                  <dt className="text-muted-foreground">Téléphone</dt>
                  <dd>
                    <a href={`tel:${request.phone.replace(/[^\d+]/g, "")}`} className="tabular inline-flex items-center gap-1.5 font-medium text-accent hover:underline">
                      <Phone className="size-4 shrink-0" aria-hidden="true" />
                      {request.phone}
                    </a>
                  </dd>
                </>
              ) : null}
            </dl>
          </Card>

          <Card title={buyback ? "Description de la collection" : "Message"}>
            {/* The customer's text as text: line breaks kept, markup shown, never run. */}
            <p data-testid="inbox-message" className="whitespace-pre-wrap text-sm leading-relaxed [overflow-wrap:anywhere]">
              {request.message}
            </p>
          </Card>

          {buyback ? (
            <Card title={`Photos (${request.photos.length})`}>
              {request.photos.length === 0 ? (
                <p className="text-sm text-muted-foreground">Aucune photo jointe.</p>
              ) : (
                <ul className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
                  {request.photos.map((key, i) => (
                    <li key={key}>
                      <a
                        href={`/admin/inbox/photos/${key}`}
                        target="_blank"
                        rel="noopener"
                        className="block overflow-hidden rounded-lg border border-border bg-muted focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring"
                      >
                        <img src={`/admin/inbox/photos/${key}`} alt={`Photo ${i + 1} de la collection (ouvrir en grand)`} loading="lazy" className="aspect-square w-full object-cover" />
                      </a>
                    </li>
                  ))}
                </ul>
              )}
            </Card>
          ) : null}

          <Card title="Historique">
            <ol className="flex flex-col gap-4 border-l-2 border-border pl-4 text-sm">
              <TimelineItem at={request.createdAt} title={buyback ? "Demande de rachat reçue" : "Message reçu"} />
              {events.map((event) => (
                <TimelineItem key={event.id} at={event.createdAt} title={describeEvent(event)} actor={event.actorName}>
                  {event.body ? <p className="mt-1 whitespace-pre-wrap rounded-lg bg-muted/60 p-3 [overflow-wrap:anywhere]">{event.body}</p> : null}
                  {event.emailId ? (
                    <Link to={`/admin/emails/${event.emailId}`} className="mt-1 inline-flex min-h-11 items-center text-accent hover:underline">
                      Voir l'e-mail envoyé
                    </Link>
                  ) : null}
                </TimelineItem>
              ))}
            </ol>
          </Card>
        </div>

        <div className="flex flex-col gap-6">
          <StatusCard kind={request.kind} status={request.status} offerCents={request.offerCents} offerNote={request.offerNote} />
          {buyback ? <BuybackPanel status={request.status} offer={offer} products={products} name={`${request.firstName} ${request.lastName}`} /> : null}
          <ReplyForm email={request.email} />
        </div>
      </div>
    </section>
  );
}

function Card({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div className="rounded-2xl border border-border bg-card p-5">
      <h2 className="mb-3 text-base font-bold">{title}</h2>
      {children}
    </div>
  );
}

function TimelineItem({ at, title, actor, children }: { at: Date | string; title: string; actor?: string | null; children?: ReactNode }) {
  return (
    <li className="relative">
      <span className="absolute top-1.5 -left-[1.4rem] size-2.5 rounded-full border-2 border-card bg-accent" aria-hidden="true" />
      <p className="font-medium">{title}</p>
      <p className="text-xs text-muted-foreground">
        {formatParisDateTime(at)}
        {actor ? ` · ${actor}` : ""}
      </p>
      {children}
    </li>
  );
}

function StatusCard({
  kind,
  status,
  offerCents,
  offerNote,
}: {
  kind: "contact" | "rachat";
  status: InboxStatus;
  offerCents: number | null;
  offerNote: string | null;
}) {
  const fetcher = useFetcher<InboxActionAnswer>();
  useAnswerToast(fetcher.data);
  // The buy-back forms' answers too: each form is gone once its step is done, and with it its effects.
  useAnswerToast(useFetcher<InboxActionAnswer>({ key: BUYBACK_FETCHERS.offer }).data);
  useAnswerToast(useFetcher<InboxActionAnswer>({ key: BUYBACK_FETCHERS.receive }).data);
  useAnswerToast(useFetcher<InboxActionAnswer>({ key: BUYBACK_FETCHERS.adjust }).data);
  useAnswerToast(useFetcher<InboxActionAnswer>({ key: BUYBACK_FETCHERS.complete }).data);
  const moves = buttonStatuses(kind, status);
  const busy = fetcher.state !== "idle";
  return (
    <Card title="Statut">
      <p className="flex items-center gap-2 text-sm">
        Actuellement <Badge tone={STATUS_TONES[status]}>{INBOX_STATUS_LABELS[status]}</Badge>
      </p>
      {offerCents !== null ? (
        <div className="mt-3 rounded-lg border border-border bg-muted/40 p-3 text-sm">
          <p>
            Offre envoyée : <strong className="tabular">{formatEuros(offerCents)}</strong>
          </p>
          {offerNote ? <p className="mt-1 whitespace-pre-wrap text-muted-foreground [overflow-wrap:anywhere]">{offerNote}</p> : null}
        </div>
      ) : null}
      {moves.length > 0 ? (
        <div className="mt-4 flex flex-col gap-2">
          {moves.map((to) => (
            <fetcher.Form key={to} method="post">
              <input type="hidden" name="intent" value="status" />
              <input type="hidden" name="expected" value={status} />
              <input type="hidden" name="to" value={to} />
              <Button type="submit" variant={to === "refusee" ? "outline" : "secondary"} className="w-full" disabled={busy}>
                {MOVE_LABELS[to]}
              </Button>
            </fetcher.Form>
          ))}
        </div>
      ) : status === "en_estimation" ? null : (
        <p className="mt-3 text-sm text-muted-foreground">Aucune autre étape pour cette demande.</p>
      )}
    </Card>
  );
}

function ReplyForm({ email }: { email: string }) {
  const fetcher = useFetcher<InboxActionAnswer>();
  useAnswerToast(fetcher.data);
  const form = useFormValidation(replySchema, fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : undefined);
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    if (fetcher.data?.ok) ref.current?.reset();
  }, [fetcher.data]);
  return (
    <Card title="Répondre par e-mail">
      <fetcher.Form ref={ref} method="post" noValidate onSubmit={form.onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
        <input type="hidden" name="intent" value="reply" />
        <Field label="Votre réponse" required error={form.errors.reply} hint={`Envoyée à ${email}, avec sa demande en citation.`}>
          {(props) => <textarea {...props} name="reply" rows={6} maxLength={MESSAGE_MAX} className={cn(controlClass, "py-2")} />}
        </Field>
        <Button type="submit" variant="secondary" disabled={fetcher.state !== "idle"}>
          <Mail aria-hidden="true" /> Envoyer la réponse par e-mail
        </Button>
      </fetcher.Form>
    </Card>
  );
}
