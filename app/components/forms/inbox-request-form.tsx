import { AlertTriangle, Check, ImagePlus, LoaderCircle, Send, X } from "lucide-react";
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from "react";
import { useFetcher } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Button } from "~/components/ui/button";
import { Field, controlClass } from "~/components/ui/field";
import { Input } from "~/components/ui/input";
import { toast } from "~/components/ui/toaster";
import type { InboxKind } from "~/domain/inbox-values";
import {
  HONEYPOT_FIELD,
  type InboxFormAnswer,
  MAX_BUYBACK_PHOTOS,
  MESSAGE_MAX,
  NAME_MAX,
  PHONE_MAX,
  PHOTOS_FIELD,
  SEND_FAILED,
  SENT_TOASTS,
  type SubmittedValues,
  addPhotoFiles,
  checkPhotoFiles,
} from "~/domain/contact-forms";
import { checkImageFile } from "~/domain/image-upload";
import type { z } from "zod";
import { useFormValidation } from "~/lib/use-form-validation";
import { cn } from "~/lib/utils";

/** SPEC.md timings: the success state lasts 3 s, then the button is idle again. */
export const SUCCESS_MS = 3000;

/** Imported with the first keystroke or submit (decision 023). */
const SCHEMAS: Record<InboxKind, () => Promise<z.ZodType>> = {
  contact: () => import("~/domain/contact-form-schemas").then((schemas) => schemas.contactSchema),
  rachat: () => import("~/domain/contact-form-schemas").then((schemas) => schemas.buybackSchema),
};

const IDLE_LABELS: Record<InboxKind, string> = { contact: "Envoyer le message", rachat: "Envoyer la demande" };
const SENT_LABELS: Record<InboxKind, string> = { contact: "Message envoyé !", rachat: "Demande envoyée !" };

/**
 * The contact and buy-back forms. With JavaScript, a fetcher sends them and the button goes
 * idle → "Envoi en cours..." → sent (green, 3 s, form emptied) or "Erreur d'envoi. Réessayer ?"
 * (red, until the next try), with SPEC.md's toasts. Without JavaScript the same form posts to
 * the same action, and the page comes back with the outcome (`documentAnswer`).
 */
export function InboxRequestForm({ kind, documentAnswer }: { kind: InboxKind; documentAnswer: InboxFormAnswer | undefined }) {
  const fetcher = useFetcher<InboxFormAnswer>();
  const answer = fetcher.data ?? documentAnswer;
  const failed = answer && !answer.ok ? answer : undefined;
  const form = useFormValidation(SCHEMAS[kind], failed?.fieldErrors, { revalidateOnChange: true });
  const formRef = useRef<HTMLFormElement>(null);
  const photoInput = useRef<HTMLInputElement>(null);
  const [photos, setPhotos] = useState<{ files: File[]; previews: { name: string; url: string | null }[] }>({ files: [], previews: [] });
  const photosRefused = checkPhotoFiles(photos.files);
  // The fetcher answer whose 3 s of "sent" are over.
  const [settled, setSettled] = useState<InboxFormAnswer | null>(null);

  // Once the action answered, the page's data reloads ("loading"): the outcome shows meanwhile.
  const sending = fetcher.state === "submitting";
  const phase = sending ? "sending" : !fetcher.data ? "idle" : !fetcher.data.ok ? "error" : settled === fetcher.data ? "idle" : "sent";

  useEffect(() => {
    const data = fetcher.data;
    if (!data) return;
    if (!data.ok) {
      toast.error(data.failure.title, { description: data.failure.description });
      return;
    }
    toast.success(SENT_TOASTS[kind].title, { description: SENT_TOASTS[kind].description });
    formRef.current?.reset(); // clears the photos too (onReset)
    const timer = setTimeout(() => setSettled(data), SUCCESS_MS);
    return () => clearTimeout(timer);
  }, [fetcher.data, kind]);

  /** Shows the chosen photos (or why they cannot go), freeing the previous previews. */
  function showPhotos(files: File[]) {
    for (const preview of photos.previews) if (preview.url) URL.revokeObjectURL(preview.url);
    // Every file shows, refused ones too (by name), so one too many or the wrong one can be taken off.
    const previews = files.map((file) => ({ name: file.name, url: checkImageFile(file) ? null : URL.createObjectURL(file) }));
    setPhotos({ files, previews });
  }

  /**
   * Puts these files in the file control, which the form sends: a new pick adds to the photos
   * already chosen, and one can be taken off. Without DataTransfer (old browsers) the control
   * keeps its own pick, which is what it shows.
   */
  function choosePhotos(files: File[]) {
    const input = photoInput.current;
    try {
      const transfer = new DataTransfer();
      for (const file of files) transfer.items.add(file);
      if (input) input.files = transfer.files;
    } catch {
      return showPhotos(Array.from(input?.files ?? []));
    }
    showPhotos(files);
  }

  function removePhoto(index: number) {
    choosePhotos(photos.files.filter((_, i) => i !== index));
    photoInput.current?.focus();
  }

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    if (phase === "sending" || phase === "sent") {
      event.preventDefault();
      return;
    }
    form.onSubmit(event);
    if (photosRefused && !event.defaultPrevented) {
      event.preventDefault();
      (event.currentTarget.elements.namedItem(PHOTOS_FIELD) as HTMLElement | null)?.focus();
    }
  }

  const values: SubmittedValues = documentAnswer && !documentAnswer.ok ? documentAnswer.values : {};
  const errors = form.errors;
  const photoError = photosRefused ?? errors[PHOTOS_FIELD];
  return (
    <>
      {documentAnswer?.ok ? (
        <Alert tone="success" title={SENT_TOASTS[kind].title} className="mb-6">
          {SENT_TOASTS[kind].description}
        </Alert>
      ) : null}
      {failed ? (
        <Alert tone="error" title={failed.failure.title} className="mb-6">
          {failed.failure.description}
        </Alert>
      ) : null}
      <fetcher.Form
        ref={formRef}
        method="post"
        action={kind === "rachat" ? "/rachat" : "/contact"}
        encType={kind === "rachat" ? "multipart/form-data" : undefined}
        noValidate
        onSubmit={onSubmit}
        onChange={form.onChange}
        onReset={() => showPhotos([])}
        className="flex flex-col gap-5"
        aria-label={kind === "rachat" ? "Demande de rachat" : "Formulaire de contact"}
      >
        <div className="grid gap-5 sm:grid-cols-2">
          <Field label="Nom" required error={errors.lastName}>
            {(props) => <Input {...props} name="lastName" autoComplete="family-name" maxLength={NAME_MAX} defaultValue={values.lastName} />}
          </Field>
          <Field label="Prénom" required error={errors.firstName}>
            {(props) => <Input {...props} name="firstName" autoComplete="given-name" maxLength={NAME_MAX} defaultValue={values.firstName} />}
          </Field>
        </div>
        <Field label="Email" required error={errors.email}>
          {(props) => <Input {...props} name="email" type="email" autoComplete="email" inputMode="email" defaultValue={values.email} />}
        </Field>
        {kind === "rachat" ? (
          <Field label="Téléphone" required error={errors.phone} hint="Par exemple 06 12 34 56 78">
            {(props) => <Input {...props} name="phone" type="tel" autoComplete="tel" inputMode="tel" maxLength={PHONE_MAX} defaultValue={values.phone} />}
          </Field>
        ) : null}
        <Field
          label={kind === "rachat" ? "Description de la collection" : "Message"}
          required
          error={errors.message}
          hint={kind === "rachat" ? "Ce que vous vendez : jeu, séries, nombre de cartes, état, produits scellés…" : undefined}
        >
          {(props) => <textarea {...props} name="message" rows={7} maxLength={MESSAGE_MAX} defaultValue={values.message} className={cn(controlClass, "min-h-40 py-2.5")} />}
        </Field>
        {kind === "rachat" ? (
          <Field label="Photos de la collection" error={photoError} hint={`Jusqu'à ${MAX_BUYBACK_PHOTOS} photos, JPG, PNG ou WebP, 10MB au maximum chacune.`}>
            {(props) => (
              <div className="flex flex-col gap-3">
                <label
                  className={cn(
                    "flex min-h-24 cursor-pointer flex-col items-center justify-center gap-1 rounded-lg border border-dashed border-input bg-card px-4 py-4 text-center text-sm",
                    "focus-within:outline-2 focus-within:outline-offset-1 focus-within:outline-ring hover:bg-muted",
                    photoError && "border-destructive",
                  )}
                >
                  <ImagePlus className="size-6 text-muted-foreground" aria-hidden="true" />
                  <span className="font-medium">{photos.files.length > 0 ? "Ajouter des photos" : "Choisir des photos"}</span>
                  <span className="text-xs text-muted-foreground">
                    {photos.files.length === 0 ? "Aucune photo choisie" : `${photos.files.length} photo${photos.files.length > 1 ? "s" : ""} choisie${photos.files.length > 1 ? "s" : ""}`}
                  </span>
                  {/* The dashed area is the control; the browser's own button and file name are hidden. */}
                  <input
                    {...props}
                    ref={photoInput}
                    type="file"
                    name={PHOTOS_FIELD}
                    multiple
                    accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
                    onChange={(event) => choosePhotos(addPhotoFiles(photos.files, Array.from(event.currentTarget.files ?? [])))}
                    className="sr-only"
                  />
                </label>
                {photos.previews.length > 0 ? (
                  <ul className="grid grid-cols-3 gap-2 sm:grid-cols-5" aria-label="Photos choisies">
                    {photos.previews.map((preview, index) => (
                      <li key={`${index}-${preview.name}`} className="relative">
                        {preview.url ? (
                          <img src={preview.url} alt={preview.name} className="aspect-square w-full rounded-lg border border-border bg-muted object-cover" />
                        ) : (
                          <p className="flex aspect-square w-full items-center justify-center rounded-lg border border-destructive bg-muted p-2 text-center text-xs [overflow-wrap:anywhere]">{preview.name}</p>
                        )}
                        <Button
                          type="button"
                          variant="secondary"
                          size="icon"
                          onClick={() => removePhoto(index)}
                          aria-label={`Retirer la photo ${preview.name}`}
                          className="absolute top-1 right-1 size-8 rounded-full shadow-sm"
                        >
                          <X aria-hidden="true" />
                        </Button>
                      </li>
                    ))}
                  </ul>
                ) : null}
              </div>
            )}
          </Field>
        ) : null}
        {/* A trap for robots: hidden from people and from screen readers, out of the tab order. */}
        <div aria-hidden="true" className="sr-only">
          <label>
            Ne remplissez pas ce champ
            <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
          </label>
        </div>
        <SubmitButton kind={kind} phase={phase} />
      </fetcher.Form>
    </>
  );
}

function SubmitButton({ kind, phase }: { kind: InboxKind; phase: "idle" | "sending" | "sent" | "error" }) {
  const Icon = { idle: Send, sending: LoaderCircle, sent: Check, error: AlertTriangle }[phase];
  const label = { idle: IDLE_LABELS[kind], sending: "Envoi en cours...", sent: SENT_LABELS[kind], error: "Erreur d'envoi. Réessayer ?" }[phase];
  // Unavailable while it sends and says "sent", but not `disabled`: a disabled button loses the
  // focus of the keyboard user who pressed it (to the body); this one keeps it, and its new
  // label is read out. The form refuses the submissions meanwhile (onSubmit).
  const unavailable = phase === "sending" || phase === "sent";
  return (
    <Button
      type="submit"
      size="lg"
      variant={phase === "error" ? "destructive" : "primary"}
      aria-disabled={unavailable || undefined}
      data-state={phase}
      className={cn("w-full sm:w-auto sm:self-start", unavailable && "cursor-not-allowed", phase === "sending" && "opacity-50", phase === "sent" && "bg-success text-background hover:bg-success")}
    >
      <Icon className={cn(phase === "sending" && "animate-spin")} aria-hidden="true" />
      {label}
    </Button>
  );
}

/** A failed fetch (offline, server gone): the form's error state, not the error page. */
export const NETWORK_FAILURE: InboxFormAnswer = { ok: false, failure: SEND_FAILED, values: {} };

/** The frame of /contact and /rachat: title and intro, the form in a card, other ways to reach the shop beside it. */
export function RequestPage({ title, intro, aside, children }: { title: string; intro: ReactNode; aside: ReactNode; children: ReactNode }) {
  return (
    <div className="mx-auto max-w-5xl px-4 py-10 sm:px-6 sm:py-14">
      <h1 className="text-3xl font-extrabold tracking-tight sm:text-4xl">{title}</h1>
      <div className="mt-3 max-w-2xl text-muted-foreground">{intro}</div>
      <div className="mt-8 grid gap-6 lg:grid-cols-[minmax(0,1fr)_18rem]">
        <div className="rounded-2xl border border-border bg-card p-5 shadow-sm sm:p-8">{children}</div>
        <aside className="flex flex-col gap-3 rounded-2xl border border-border bg-card/60 p-5 text-sm sm:p-6 lg:self-start">{aside}</aside>
      </div>
    </div>
  );
}
