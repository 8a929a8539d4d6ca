import { ArrowDown, ArrowUp, ImagePlus, LoaderCircle, RotateCcw, Trash2, X } from "lucide-react";
import { type DragEvent, useLayoutEffect, useRef, useState } from "react";
import { Button } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { MAX_ADDITIONAL_IMAGES, checkImageFile } from "~/domain/image-upload";
import { imageUrl } from "~/domain/images";
import { focusGroup } from "~/lib/restore-focus";
import { cn } from "~/lib/utils";

/** The answer of POST /admin/api/images (routes/admin/api.images.ts). */
type UploadAnswer = { key: string; url: string } | { error: string };

type Upload =
  | { state: "idle" }
  | { state: "uploading"; progress: number; file: File }
  | { state: "error"; message: string; file: File | null }
  | { state: "done" };

/** Sends one file to the server, reporting progress (fetch cannot report an upload's progress). */
function sendImage(file: File, onProgress: (percent: number) => void): Promise<{ key: string }> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open("POST", "/admin/api/images");
    request.responseType = "json";
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(Math.round((event.loaded / event.total) * 100));
    };
    request.onload = () => {
      const answer = request.response as UploadAnswer | null;
      if (request.status === 201 && answer && "key" in answer) resolve({ key: answer.key });
      else reject(new Error(answer && "error" in answer ? answer.error : "L'envoi de l'image a échoué. Réessayez."));
    };
    request.onerror = () => reject(new Error("Connexion perdue pendant l'envoi. Réessayez."));
    const body = new FormData();
    body.append("file", file);
    request.send(body);
  });
}

/** Upload state of one drop zone: checks in the browser first (same messages as the server). */
function useUpload(onUploaded: (key: string) => void) {
  const [upload, setUpload] = useState<Upload>({ state: "idle" });
  const start = async (file: File) => {
    const refused = checkImageFile(file);
    if (refused) {
      setUpload({ state: "error", message: refused, file: null });
      return;
    }
    setUpload({ state: "uploading", progress: 0, file });
    try {
      const { key } = await sendImage(file, (progress) => setUpload({ state: "uploading", progress, file }));
      setUpload({ state: "done" });
      onUploaded(key);
      toast.success("Image téléchargée", { description: "L'image a été téléchargée avec succès" });
    } catch (error) {
      setUpload({ state: "error", message: (error as Error).message, file });
    }
  };
  return { upload, start, reset: () => setUpload({ state: "idle" }) };
}

function DropZone({
  label,
  hint,
  upload,
  onFile,
  onRetry,
  invalid,
  describedBy,
  inputId,
}: {
  label: string;
  hint: string;
  upload: Upload;
  onFile: (file: File) => void;
  onRetry: () => void;
  invalid?: boolean;
  describedBy?: string;
  inputId: string;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    const file = event.dataTransfer.files[0];
    if (file) onFile(file);
  };
  return (
    <div
      // The button goes while a file uploads: it (or "Réessayer") gets the focus back after.
      {...focusGroup()}
      onDragOver={(event) => {
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={drop}
      className={cn(
        "flex min-h-36 flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed p-4 text-center text-sm transition-colors",
        over ? "border-primary bg-primary/10" : invalid ? "border-destructive" : "border-border",
      )}
    >
      {upload.state === "uploading" ? (
        <div className="flex w-full max-w-60 flex-col items-center gap-2" role="status">
          <LoaderCircle className="size-6 animate-spin text-muted-foreground" aria-hidden="true" />
          <p>Envoi de {upload.file.name}…</p>
          <progress max={100} value={upload.progress} className="h-2 w-full accent-primary" aria-label="Progression de l'envoi">
            {upload.progress} %
          </progress>
        </div>
      ) : (
        <>
          <ImagePlus className="size-7 text-muted-foreground" aria-hidden="true" />
          <p className="font-medium">Glissez une image ici ou</p>
          <Button type="button" variant="outline" size="sm" onClick={() => input.current?.click()} aria-describedby={describedBy}>
            {label}
          </Button>
          <p className="text-xs text-muted-foreground">{hint}</p>
          {upload.state === "error" ? (
            <div className="flex flex-col items-center gap-2" role="alert">
              <p className="font-medium text-destructive">{upload.message}</p>
              {upload.file ? (
                <Button type="button" variant="secondary" size="sm" onClick={onRetry}>
                  <RotateCcw aria-hidden="true" /> Réessayer
                </Button>
              ) : null}
            </div>
          ) : null}
        </>
      )}
      <input
        ref={input}
        id={inputId}
        type="file"
        accept="image/jpeg,image/png,image/webp,.jpg,.jpeg,.png,.webp"
        className="sr-only"
        tabIndex={-1}
        aria-invalid={invalid ? true : undefined}
        aria-label={label}
        onChange={(event) => {
          const file = event.target.files?.[0];
          event.target.value = "";
          if (file) onFile(file);
        }}
      />
    </div>
  );
}

/** The required main image: a drop zone, or its preview with "Changer" and "Retirer". */
export function MainImageUploader({
  imageKey,
  imageBase,
  onChange,
  error,
  errorId,
  name = "image",
  legend = "Image principale",
  required = true,
  inputId = "main-image-file",
  chooseLabel = "Choisir l'image principale",
  previewAlt = "Aperçu de l'image principale",
}: {
  imageKey: string;
  imageBase: string;
  onChange: (key: string) => void;
  error?: string;
  errorId: string;
  /** The same upload for another single picture (the label's, in product safety). */
  name?: string;
  legend?: string;
  required?: boolean;
  inputId?: string;
  chooseLabel?: string;
  previewAlt?: string;
}) {
  const { upload, start, reset } = useUpload(onChange);
  return (
    <fieldset className="flex flex-col gap-2" {...focusGroup("last")}>
      <legend className="text-sm font-medium">
        {legend}
        {required ? <span className="text-destructive" aria-hidden="true"> *</span> : null}
      </legend>
      <input type="hidden" name={name} value={imageKey} />
      {imageKey && upload.state !== "uploading" ? (
        <div className="flex items-center gap-4">
          <img src={imageUrl(imageBase, imageKey, 320)} alt={previewAlt} className="size-32 rounded-xl border border-border bg-muted object-cover" />
          <div className="flex flex-col gap-2">
            <Button
              type="button"
              variant="outline"
              size="sm"
              onClick={() => {
                reset();
                onChange("");
              }}
            >
              <X aria-hidden="true" /> Retirer l'image
            </Button>
          </div>
        </div>
      ) : (
        <DropZone
          inputId={inputId}
          label={chooseLabel}
          hint="JPG, PNG ou WebP, 10 Mo au plus"
          upload={upload}
          onFile={start}
          onRetry={() => upload.state === "error" && upload.file && start(upload.file)}
          invalid={Boolean(error)}
          describedBy={error ? errorId : undefined}
        />
      )}
      {error ? (
        <p id={errorId} className="text-sm font-medium text-destructive">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** Up to 4 more images: added one at a time, reordered with the arrows, removed. */
export function AdditionalImages({
  keys,
  imageBase,
  onChange,
  onAdd,
}: {
  keys: string[];
  imageBase: string;
  onChange: (keys: string[]) => void;
  /** Appends an uploaded key (from the state as it is when the upload ends). */
  onAdd: (key: string) => void;
}) {
  const { upload, start } = useUpload(onAdd);
  const full = keys.length >= MAX_ADDITIONAL_IMAGES;
  const add = (file: File) => {
    if (full) {
      toast.error("Nombre maximum d'images atteint", { description: `Vous pouvez ajouter au plus ${MAX_ADDITIONAL_IMAGES} images supplémentaires.` });
      return;
    }
    void start(file);
  };
  // The button pressed goes with its image, or away with it: the focus follows (see below).
  const list = useRef<HTMLOListElement>(null);
  const focusAfter = useRef<{ key: string; actions: string[] } | null>(null);
  useLayoutEffect(() => {
    const wanted = focusAfter.current;
    focusAfter.current = null;
    const item = wanted && list.current?.querySelector(`[data-key="${CSS.escape(wanted.key)}"]`);
    if (!wanted || !item) return;
    for (const action of wanted.actions) {
      const button = item.querySelector<HTMLButtonElement>(`button[data-action="${action}"]`);
      if (button && !button.disabled) return button.focus();
    }
  }, [keys]);
  const move = (index: number, by: -1 | 1) => {
    const next = [...keys];
    [next[index], next[index + by]] = [next[index + by]!, next[index]!];
    // The same arrow again, or the other one at the end of the row.
    focusAfter.current = { key: keys[index]!, actions: by < 0 ? ["up", "down"] : ["down", "up"] };
    onChange(next);
  };
  const remove = (index: number) => {
    const neighbour = keys[index + 1] ?? keys[index - 1];
    // The next image's remove button; with none left, the drop zone (focusGroup "last").
    if (neighbour) focusAfter.current = { key: neighbour, actions: ["remove"] };
    onChange(keys.filter((_, i) => i !== index));
  };
  return (
    <fieldset className="flex flex-col gap-2" {...focusGroup("last")}>
      <legend className="text-sm font-medium">
        Images supplémentaires <span className="text-muted-foreground">({keys.length}/{MAX_ADDITIONAL_IMAGES})</span>
      </legend>
      {keys.map((key) => (
        <input key={key} type="hidden" name="additionalImages" value={key} />
      ))}
      {keys.length > 0 ? (
        <ol ref={list} className="grid grid-cols-2 gap-3 sm:grid-cols-4" aria-label="Images supplémentaires, dans l'ordre d'affichage">
          {keys.map((key, index) => (
            <li key={key} data-key={key} className="flex flex-col gap-1.5 rounded-xl border border-border p-2">
              <img src={imageUrl(imageBase, key, 320)} alt={`Image supplémentaire ${index + 1}`} className="aspect-square w-full rounded-lg bg-muted object-cover" />
              <div className="flex justify-between">
                <Button type="button" variant="ghost" size="icon" data-action="up" disabled={index === 0} onClick={() => move(index, -1)} aria-label={`Avancer l'image ${index + 1}`}>
                  <ArrowUp aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  data-action="down"
                  disabled={index === keys.length - 1}
                  onClick={() => move(index, 1)}
                  aria-label={`Reculer l'image ${index + 1}`}
                >
                  <ArrowDown aria-hidden="true" />
                </Button>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  className="text-destructive hover:text-destructive"
                  data-action="remove"
                  onClick={() => remove(index)}
                  aria-label={`Retirer l'image ${index + 1}`}
                >
                  <Trash2 aria-hidden="true" />
                </Button>
              </div>
            </li>
          ))}
        </ol>
      ) : null}
      {full && upload.state !== "uploading" ? (
        <Button
          type="button"
          variant="outline"
          size="sm"
          className="self-start"
          onClick={() => toast.error("Nombre maximum d'images atteint", { description: `Vous pouvez ajouter au plus ${MAX_ADDITIONAL_IMAGES} images supplémentaires.` })}
        >
          <ImagePlus aria-hidden="true" /> Ajouter une image
        </Button>
      ) : (
        <DropZone
          inputId="additional-image-file"
          label="Ajouter une image"
          hint={`JPG, PNG ou WebP, 10 Mo au plus ; ${MAX_ADDITIONAL_IMAGES - keys.length} restante${MAX_ADDITIONAL_IMAGES - keys.length > 1 ? "s" : ""}`}
          upload={upload}
          onFile={add}
          onRetry={() => upload.state === "error" && upload.file && add(upload.file)}
        />
      )}
    </fieldset>
  );
}
