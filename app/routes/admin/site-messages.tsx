import { Eye, EyeOff, Info, Pencil, Plus, Save, Trash2 } from "lucide-react";
import { type FormEvent, useEffect, useRef, useState } from "react";
import { data, Form, Link, useFetcher, useNavigate } from "react-router";
import { z } from "zod";
import { useActionToast } from "~/components/admin/use-action-toast";
import { SiteMessageContent } from "~/components/layout/site-messages";
import { Alert } from "~/components/ui/alert";
import { ConfirmDialog } from "~/components/ui/alert-dialog";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { Db } from "~/db/types";
import { type FieldErrors, fieldErrors } from "~/domain/auth-forms";
import { SITE_MESSAGE_LOCATIONS, SITE_MESSAGE_LOCATION_LABELS, type SiteMessageLocation } from "~/domain/catalog-values";
import { CONTENT_MAX, LOCATION_HINTS, TITLE_MAX, formErrorToast, siteMessageSchema } from "~/domain/site-messages";
import { readFormAtMost } from "~/lib/request-input.server";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";
import { requireAdmin } from "~/services/session.server";
import { type SiteMessage, createSiteMessage, deleteSiteMessage, listSiteMessages, setSiteMessageActive, updateSiteMessage } from "~/services/site-messages.server";
import type { Route } from "./+types/site-messages";
import { formatParisDateTime } from "~/domain/paris-time";

const PATH = "/admin/messages";
const uuid = z.uuid();

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  const messages = await listSiteMessages(context.db);
  // ?edit=<id> loads a message into the form (a plain link: works without JavaScript).
  const editId = new URL(request.url).searchParams.get("edit");
  return { messages, editing: messages.find((m) => m.id === editId) ?? null };
}

export const meta: Route.MetaFunction = () => [{ title: "Gestion des messages du site" }];

type Intent = "save" | "toggle" | "delete";
type FormValues = { id: string; title: string; content: string; location: string };
export type MessageAnswer = {
  ok: boolean;
  intent: Intent | null;
  id?: string;
  toast: { title: string; description?: string };
  fieldErrors?: FieldErrors;
  /** A refused form's text, given back so that nothing typed is lost (without JavaScript too). */
  values?: FormValues;
};

const FORM_LIMIT = 32 * 1024;
const INVALID = { title: "Erreur", description: "Requête invalide." };
const GONE = { title: "Erreur", description: "Ce message n'existe plus : il a peut-être été supprimé dans un autre onglet." };

const answer = (body: MessageAnswer, status = 200) => data<MessageAnswer>(body, { status });
const where = (location: SiteMessageLocation) => LOCATION_HINTS[location];

/** Add or update (intent save), activate or deactivate (toggle), delete: checked again here whatever the page sent. */
export async function action({ request, context }: Route.ActionArgs) {
  await requireAdmin(request, context, "api");
  const form = await readFormAtMost(request, FORM_LIMIT);
  if (typeof form === "string") return answer({ ok: false, intent: null, toast: INVALID }, form === "too-large" ? 413 : 400);
  const fields = Object.fromEntries([...form.entries()].filter((entry): entry is [string, string] => typeof entry[1] === "string"));
  const intent = fields.intent;
  if (intent !== "save" && intent !== "toggle" && intent !== "delete") return answer({ ok: false, intent: null, toast: INVALID }, 400);
  const target = fields.id ? uuid.safeParse(fields.id) : null;
  if (target && !target.success) return answer({ ok: false, intent, toast: INVALID }, 400);
  const messageId = target?.data;
  if (!messageId && intent !== "save") return answer({ ok: false, intent, toast: INVALID }, 400);

  try {
    if (intent === "save") return await save(context.db, messageId, fields);
    if (intent === "toggle") {
      if (fields.active !== "true" && fields.active !== "false") return answer({ ok: false, intent, toast: INVALID }, 400);
      const row = await setSiteMessageActive(context.db, messageId!, fields.active === "true");
      if (!row) return answer({ ok: false, intent, id: messageId, toast: GONE }, 404);
      return answer({
        ok: true,
        intent,
        id: row.id,
        toast: row.isActive
          ? { title: "Message activé", description: `« ${row.title} » s'affiche sur ${where(row.location)}.` }
          : { title: "Message désactivé", description: `« ${row.title} » n'est plus affiché.` },
      });
    }
    const row = await deleteSiteMessage(context.db, messageId!);
    if (!row) return answer({ ok: false, intent, id: messageId, toast: GONE }, 404);
    return answer({ ok: true, intent, id: row.id, toast: { title: "Message supprimé", description: `« ${row.title} » a été supprimé.` } });
  } catch (error) {
    context.logger.error({ err: error, intent, id: messageId }, "admin: site message action failed");
    return answer({ ok: false, intent, toast: { title: "Erreur", description: "Une erreur est survenue. Réessayez dans un instant." } }, 500);
  }
}

async function save(db: Db, messageId: string | undefined, fields: Record<string, string>) {
  const parsed = siteMessageSchema.safeParse(fields);
  if (!parsed.success) {
    const errors = fieldErrors(parsed.error);
    const values = { id: messageId ?? "", title: fields.title ?? "", content: fields.content ?? "", location: fields.location ?? "" };
    return answer({ ok: false, intent: "save", toast: formErrorToast(errors), fieldErrors: errors, values }, 400);
  }
  if (!messageId) {
    const row = await createSiteMessage(db, parsed.data);
    return answer({ ok: true, intent: "save", id: row.id, toast: { title: "Message ajouté", description: `Il s'affiche sur ${where(row.location)}.` } });
  }
  const row = await updateSiteMessage(db, messageId, parsed.data);
  if (!row) return answer({ ok: false, intent: "save", id: messageId, toast: GONE }, 404);
  return answer({ ok: true, intent: "save", id: row.id, toast: { title: "Message mis à jour", description: `« ${row.title} » a été enregistré.` } });
}

/** SPEC.md "Messages page": the form (add, or edit the message loaded into it) and the list. */
export default function AdminSiteMessages({ loaderData, actionData }: Route.ComponentProps) {
  const { messages, editing } = loaderData;
  const navigate = useNavigate();
  const deleter = useFetcher<MessageAnswer>();
  const [toDelete, setToDelete] = useState<Pick<SiteMessage, "id" | "title"> | null>(null);
  useActionToast(deleter.data);
  useEffect(() => {
    // The message being edited is gone: back to an empty form.
    if (deleter.data?.ok && deleter.data.id === editing?.id) void navigate(PATH, { replace: true, preventScrollReset: true });
  }, [deleter.data, editing?.id, navigate]);

  // Without JavaScript the forms post as documents: their answer comes back here, shown in the page.
  const documentAnswer = actionData;
  const refused = documentAnswer?.intent === "save" && !documentAnswer.ok ? documentAnswer : undefined;

  return (
    <section>
      <h1 className="text-3xl font-extrabold tracking-tight">Gestion des messages du site</h1>
      <p className="mt-1 max-w-3xl text-sm text-muted-foreground">
        Les messages actifs s'affichent sous l'en-tête, pour tous les visiteurs, sur les pages de leur emplacement. Chaque visiteur peut masquer un message le temps de sa
        visite.
      </p>

      {documentAnswer ? (
        <Alert tone={documentAnswer.ok ? "success" : "error"} title={documentAnswer.toast.title} className="mt-6">
          {documentAnswer.toast.description}
        </Alert>
      ) : null}

      <div className="mt-6 grid gap-6 xl:grid-cols-[minmax(0,1fr)_20rem]">
        <MessageForm key={editing?.id ?? "new"} editing={editing} refused={refused} />
        <aside className="self-start rounded-2xl border border-border bg-card p-5 text-sm" aria-labelledby="tips-title">
          <h2 id="tips-title" className="flex items-center gap-2 font-bold">
            <Info className="size-4 text-accent" aria-hidden="true" /> Bon à savoir
          </h2>
          <ul className="mt-3 list-disc space-y-2 pl-5 text-muted-foreground">
            <li>Le texte s'affiche tel quel : pas de mise en forme, les retours à la ligne sont gardés.</li>
            <li>
              Les adresses <code className="text-foreground">https://…</code> et les pages de la boutique comme <code className="text-foreground">/catalog</code> deviennent des
              liens.
            </li>
            <li>
              Pour nommer un lien : <code className="text-foreground">[le catalogue](/catalog)</code>.
            </li>
            <li>« Site entier » s'affiche sur toutes les pages publiques, jamais dans l'administration.</li>
          </ul>
        </aside>
      </div>

      <h2 className="mt-10 text-xl font-bold">
        Messages <span className="tabular text-muted-foreground">({messages.length})</span>
      </h2>
      {messages.length === 0 ? (
        <p className="mt-4 rounded-2xl border border-dashed border-border p-8 text-center text-muted-foreground">
          Aucun message à afficher. Créez votre premier message ci-dessus.
        </p>
      ) : (
        <ul className="mt-4 flex flex-col gap-4" aria-label="Messages du site">
          {messages.map((message) => (
            <MessageRow key={message.id} message={message} editing={message.id === editing?.id} onDelete={() => setToDelete(message)} />
          ))}
        </ul>
      )}

      <ConfirmDialog
        open={toDelete !== null}
        onOpenChange={(open) => !open && setToDelete(null)}
        title="Supprimer ce message ?"
        description={toDelete ? `« ${toDelete.title} » sera retiré du site et de cette liste. Cette action est irréversible.` : ""}
        confirmLabel="Supprimer"
        busy={deleter.state !== "idle"}
        onConfirm={() => {
          if (!toDelete) return;
          void deleter.submit({ intent: "delete", id: toDelete.id }, { method: "post", action: PATH });
          setToDelete(null);
        }}
      />
    </section>
  );
}

type Draft = { title: string; content: string; location: SiteMessageLocation };

const locationOf = (value: string | undefined): SiteMessageLocation => SITE_MESSAGE_LOCATIONS.find((l) => l === value) ?? "global";

function MessageForm({ editing, refused }: { editing: SiteMessage | null; refused: MessageAnswer | undefined }) {
  const fetcher = useFetcher<MessageAnswer>();
  const navigate = useNavigate();
  const ref = useRef<HTMLFormElement>(null);
  useActionToast(fetcher.data);
  const serverErrors = fetcher.data && !fetcher.data.ok ? fetcher.data.fieldErrors : refused?.fieldErrors;
  const validation = useFormValidation(siteMessageSchema, serverErrors);
  const initial: Draft = refused?.values
    ? { title: refused.values.title, content: refused.values.content, location: locationOf(refused.values.location) }
    : { title: editing?.title ?? "", content: editing?.content ?? "", location: editing?.location ?? "global" };
  const [draft, setDraft] = useState(initial);
  const editId = editing?.id ?? (refused?.values?.id || undefined);

  // A new message was added: the form empties (its fields in the effect, the preview here).
  const [answered, setAnswered] = useState(fetcher.data);
  if (fetcher.data !== answered) {
    setAnswered(fetcher.data);
    if (fetcher.data?.ok && !editId) setDraft({ title: "", content: "", location: "global" });
  }
  useEffect(() => {
    if (!fetcher.data?.ok) return;
    if (editId) void navigate(PATH, { preventScrollReset: true });
    else ref.current?.reset();
    // Once per answer.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [fetcher.data]);

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    validation.onSubmit(event);
    if (!event.defaultPrevented) return;
    const result = siteMessageSchema.safeParse(Object.fromEntries(new FormData(event.currentTarget)));
    if (!result.success) {
      const { title, description } = formErrorToast(fieldErrors(result.error));
      toast.error(title, { description });
    }
  }

  function onChange(event: FormEvent<HTMLFormElement>) {
    validation.onChange(event);
    const values = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    setDraft({ title: values.title ?? "", content: values.content ?? "", location: locationOf(values.location) });
  }

  const busy = fetcher.state !== "idle";
  const { errors } = validation;
  return (
    <div className={cn("rounded-2xl border bg-card p-5", editId ? "border-primary/60" : "border-border")}>
      <h2 className="text-lg font-bold">{editId ? "Modifier le message" : "Nouveau message"}</h2>
      <fetcher.Form ref={ref} method="post" action={PATH} noValidate onSubmit={onSubmit} onChange={onChange} className="mt-4 flex flex-col gap-4">
        <input type="hidden" name="intent" value="save" />
        {editId ? <input type="hidden" name="id" value={editId} /> : null}
        <Field label="Titre" required error={errors.title}>
          {(props) => <Input {...props} name="title" defaultValue={initial.title} autoFocus={editing !== null} maxLength={TITLE_MAX} autoComplete="off" />}
        </Field>
        <Field label="Contenu" required error={errors.content} hint={`Texte simple, ${CONTENT_MAX} caractères au plus. Les liens sont reconnus (voir « Bon à savoir »).`}>
          {(props) => <textarea {...props} name="content" rows={4} defaultValue={initial.content} maxLength={CONTENT_MAX} className={cn(controlClass, "py-2")} />}
        </Field>
        <Field label="Emplacement" error={errors.location} hint={`Affiché sur ${LOCATION_HINTS[draft.location]}.`}>
          {(props) => (
            <select {...props} name="location" defaultValue={initial.location} className={cn(controlClass, "h-11")}>
              {SITE_MESSAGE_LOCATIONS.map((location) => (
                <option key={location} value={location}>
                  {SITE_MESSAGE_LOCATION_LABELS[location]}
                </option>
              ))}
            </select>
          )}
        </Field>
        {draft.title.trim() || draft.content.trim() ? (
          <div>
            <p className="text-sm font-medium">Aperçu</p>
            <div className="mt-1.5 rounded-xl border border-accent/40 bg-accent/10 px-4 py-3 text-sm">
              <p className="font-semibold [overflow-wrap:anywhere]">{draft.title}</p>
              <SiteMessageContent content={draft.content} className="mt-0.5 text-muted-foreground" />
            </div>
          </div>
        ) : null}
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {editId ? <Save aria-hidden="true" /> : <Plus aria-hidden="true" />}
            {editId ? "Mettre à jour le message" : "Ajouter le message"}
          </Button>
          {editId ? (
            <Link to={PATH} preventScrollReset className={buttonVariants({ variant: "outline" })}>
              Annuler la modification
            </Link>
          ) : null}
        </div>
      </fetcher.Form>
    </div>
  );
}

function MessageRow({ message, editing, onDelete }: { message: SiteMessage; editing: boolean; onDelete: () => void }) {
  const toggler = useFetcher<MessageAnswer>();
  useActionToast(toggler.data);
  // Optimistic: the state changes at once; the reloaded list says what the server kept.
  const active = toggler.formData ? toggler.formData.get("active") === "true" : message.isActive;
  const sr = <span className="sr-only"> le message « {message.title} »</span>;
  return (
    <li className={cn("rounded-2xl border bg-card p-5", editing ? "border-primary ring-1 ring-primary" : "border-border")} data-testid="site-message-row">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={active ? "success" : "neutral"}>{active ? "Actif" : "Inactif"}</Badge>
            <Badge tone="info">{SITE_MESSAGE_LOCATION_LABELS[message.location]}</Badge>
            {editing ? <Badge tone="warning">En cours de modification</Badge> : null}
          </div>
          <h3 className="mt-2 font-bold [overflow-wrap:anywhere]">{message.title}</h3>
          <SiteMessageContent content={message.content} className="mt-1 text-sm text-muted-foreground" />
          <p className="mt-2 text-xs text-muted-foreground">Modifié le {formatParisDateTime(message.updatedAt)}</p>
        </div>
        <div className="flex flex-wrap gap-1">
          <toggler.Form method="post" action={PATH}>
            <input type="hidden" name="intent" value="toggle" />
            <input type="hidden" name="id" value={message.id} />
            <input type="hidden" name="active" value={String(!active)} />
            <Button type="submit" variant="ghost">
              {active ? <EyeOff aria-hidden="true" /> : <Eye aria-hidden="true" />}
              {active ? "Désactiver" : "Activer"}
              {sr}
            </Button>
          </toggler.Form>
          <Link to={`${PATH}?edit=${message.id}`} className={buttonVariants({ variant: "ghost" })}>
            <Pencil aria-hidden="true" /> Modifier{sr}
          </Link>
          {/* Without JavaScript the form posts at once; with it, a dialog asks first. */}
          <Form
            method="post"
            action={PATH}
            onSubmit={(event) => {
              event.preventDefault();
              onDelete();
            }}
          >
            <input type="hidden" name="intent" value="delete" />
            <input type="hidden" name="id" value={message.id} />
            <Button type="submit" variant="ghost" className="text-destructive hover:text-destructive">
              <Trash2 aria-hidden="true" /> Supprimer{sr}
            </Button>
          </Form>
        </div>
      </div>
    </li>
  );
}
