import { sliceText } from "~/domain/text-rules";
import { CheckCircle2, Download, FileUp, History, Upload } from "lucide-react";
import { useEffect, useRef } from "react";
import { data, Form, Link, useNavigation } from "react-router";
import { Alert } from "~/components/ui/alert";
import { Badge } from "~/components/ui/badge";
import { Button, buttonVariants } from "~/components/ui/button";
import { FormField } from "~/components/ui/form-field";
import { IMPORT_ROW_ACTION_LABELS, type LogChangeLine, importAppliedText, logChangeLines, truncateText } from "~/domain/admin-log-view";
import { type CsvError, decodeCsvBytes } from "~/domain/catalog-csv";
import { cn } from "~/lib/utils";
import { readAtMost } from "~/lib/read-at-most.server";
import { readFormAtMost } from "~/lib/request-input.server";
import { type CatalogImportRow, applyCatalogImport, previewCatalogImport } from "~/services/catalog-csv.server";
import { storedImageExists } from "~/services/storage.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/csv";

/** The largest CSV file an import reads. */
const MAX_CSV_BYTES = 5 * 1024 * 1024;
const MAX_CSV_TEXT = "5 Mo";
/**
 * The most a request body may hold: the file and its multipart envelope, or the preview's
 * packed text (gzip in base64: at worst a third larger than the file), whichever is larger.
 */
const MAX_BODY_BYTES = Math.ceil((MAX_CSV_BYTES + 1024) / 3) * 4 + 64 * 1024;
/** The preview lists this many rows and errors at most (the counts say how many in all). */
const MAX_LISTED = 300;

const TOO_LARGE = `Le fichier dépasse ${MAX_CSV_TEXT}\u00a0: découpez-le et importez-le en plusieurs fois.`;

export type PlannedRow = { line: number; action: "create" | "update"; id: number | null; title: string; lines: LogChangeLine[] };
export type ImportAnswer =
  /** The upload itself failed (no file, too large, not text): nothing was read. */
  | { kind: "error"; message: string }
  | {
      kind: "preview";
      fileName: string;
      create: number;
      update: number;
      unchanged: number;
      errors: string[];
      errorCount: number;
      rows: PlannedRow[];
      /** The file's text, packed, for the confirmation; null when there is nothing to apply. */
      payload: string | null;
    }
  | { kind: "applied"; created: number; updated: number; message: string }
  /** Refused at the confirmation (the catalogue changed since the preview): nothing applied. */
  | { kind: "rejected"; errors: string[]; errorCount: number };

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Import / export du catalogue" }];

/** intent=preview reads the uploaded file; intent=apply applies the previewed text. */
export async function action({ request, context }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const fail = (message: string, status: number) => data<ImportAnswer>({ kind: "error", message }, { status });
  const form = await readFormAtMost(request, MAX_BODY_BYTES);
  if (form === "too-large") return fail(TOO_LARGE, 413);
  if (form === "unreadable") return fail("Le formulaire envoyé est illisible\u00a0: choisissez le fichier et réessayez.", 400);

  const intent = form.get("intent");
  if (intent === "preview") {
    const file = form.get("file");
    if (!(file instanceof File) || file.size === 0) return fail("Choisissez un fichier CSV à importer.", 400);
    if (file.size > MAX_CSV_BYTES) return fail(TOO_LARGE, 413);
    const text = decodeCsvBytes(new Uint8Array(await file.arrayBuffer()));
    if (text === null) return fail("Ce fichier n'est pas un fichier texte\u00a0: exportez votre tableur au format CSV.", 400);
    const preview = await previewCatalogImport(context.db, text, { imageExists: (key) => storedImageExists(context.storage, key) });
    const planned = preview.rows.filter((row) => row.action !== "unchanged");
    const canApply = preview.errors.length === 0 && planned.length > 0;
    return data<ImportAnswer>({
      kind: "preview",
      fileName: sliceText(file.name, 200),
      create: preview.create,
      update: preview.update,
      unchanged: preview.unchanged,
      errors: errorMessages(preview.errors),
      errorCount: preview.errors.length,
      rows: planned.slice(0, MAX_LISTED).map(plannedRow),
      payload: canApply ? await pack(text) : null,
    });
  }
  if (intent === "apply") {
    const payload = form.get("payload");
    const text = typeof payload === "string" ? await unpack(payload) : null;
    if (text === null) return fail("L'aperçu a expiré ou est illisible\u00a0: choisissez le fichier à nouveau.", 400);
    const result = await applyCatalogImport(context.db, text, admin.id, { imageExists: (key) => storedImageExists(context.storage, key) });
    if (result.outcome === "invalid") {
      return data<ImportAnswer>({ kind: "rejected", errors: errorMessages(result.errors), errorCount: result.errors.length }, { status: 422 });
    }
    context.logger.info({ adminId: admin.id, created: result.created, updated: result.updated }, "admin: catalogue CSV imported");
    return data<ImportAnswer>({ kind: "applied", created: result.created, updated: result.updated, message: importAppliedText(result.created, result.updated) });
  }
  return fail("Requête invalide.", 400);
}

const errorMessages = (errors: CsvError[]) => errors.slice(0, MAX_LISTED).map((error) => error.message);

/** What the preview's table shows of a row: an update's changes, a creation's main values. */
function plannedRow(row: CatalogImportRow): PlannedRow {
  const lines = logChangeLines(row.changes);
  return {
    line: row.line,
    action: row.action === "create" ? "create" : "update",
    id: row.id,
    title: row.title,
    lines: row.action === "create" ? lines.filter((line) => CREATION_FIELDS.includes(line.field)) : lines,
  };
}
const CREATION_FIELDS = ["priceCents", "stock", "status", "category", "subCategory"];

/** The previewed text for the confirmation form, gzip in base64 (line ends kept byte for byte). */
async function pack(text: string): Promise<string> {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return Buffer.from(await new Response(stream).arrayBuffer()).toString("base64");
}

/** The text back, or null when it is not a packed text or unpacks past the size limit. */
async function unpack(payload: string): Promise<string | null> {
  try {
    const stream = new Blob([Buffer.from(payload, "base64")]).stream().pipeThrough(new DecompressionStream("gzip"));
    const bytes = await readAtMost(stream, MAX_CSV_BYTES);
    return bytes ? new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(bytes) : null;
  } catch {
    return null;
  }
}

const card = "rounded-2xl border border-border bg-card p-5 sm:p-6";

/** Catalogue export to CSV, and import from CSV: preview first, then apply all or nothing. */
export default function AdminCsv({ actionData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const answer = actionData;
  const result = useRef<HTMLDivElement>(null);
  // After a submission, the answer takes the focus: a screen reader reads it, the keyboard goes on from there.
  useEffect(() => {
    if (answer) result.current?.focus();
  }, [answer]);

  return (
    <section aria-labelledby="csv-title">
      <h1 id="csv-title" className="text-3xl font-extrabold tracking-tight">
        Import / export du catalogue
      </h1>
      <p className="mt-1 text-sm text-muted-foreground">Le catalogue en fichier CSV, à ouvrir et modifier dans Excel ou LibreOffice.</p>

      <div className="mt-6 grid gap-6 xl:grid-cols-2">
        <section aria-labelledby="export-title" className={card}>
          <h2 id="export-title" className="flex items-center gap-2 text-lg font-bold">
            <Download className="size-5 text-accent" aria-hidden="true" /> Exporter
          </h2>
          <p className="mt-2 text-sm text-muted-foreground">
            Tous les produits du catalogue, un par ligne, avec tous leurs champs (colonnes séparées par des points-virgules, prix en euros, date de lancement à
            l'heure de Paris).
          </p>
          <a href="/admin/csv/export" download className={cn(buttonVariants(), "mt-4")}>
            <Download aria-hidden="true" /> Exporter le catalogue (CSV)
          </a>
        </section>

        <section aria-labelledby="import-title" className={card}>
          <h2 id="import-title" className="flex items-center gap-2 text-lg font-bold">
            <Upload className="size-5 text-accent" aria-hidden="true" /> Importer
          </h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-muted-foreground">
            <li>Une ligne sans id crée un produit&nbsp;; une ligne avec l'id d'un produit le met à jour.</li>
            <li>Les colonnes sont celles de l'export (created_at et updated_at sont ignorées).</li>
            <li>
              Un stock laissé tel qu'exporté (colonne stock_exported) garde le stock actuel&nbsp;: les ventes faites depuis l'export restent vendues. Pour changer le stock
              d'un produit vendu depuis, exportez à nouveau.
            </li>
            <li>
              Livraison, TVA et sécurité&nbsp;: compare_at_price (prix barré, en euros), weight_grams (poids en grammes), vat_rate (20, 10, 5,5 ou 2,1),
              margin_scheme (oui pour un bien d'occasion au régime de la marge), safety_brand (la marque d'une fiche de Sécurité des produits),
              manufacturer_name, manufacturer_address, manufacturer_email, ean (8 ou 13 chiffres, colonne au format texte dans le tableur) et safety_warnings.
              Une cellule vide prend la valeur par défaut (celle de la catégorie ou de la marque, aucun prix barré)&nbsp;; un fichier sans ces colonnes laisse
              ces valeurs inchangées.
            </li>
            <li>Rien n'est enregistré avant votre confirmation, et une seule erreur bloque tout l'import.</li>
          </ul>
          <Form method="post" encType="multipart/form-data" className="mt-4 flex flex-col gap-4">
            <input type="hidden" name="intent" value="preview" />
            <FormField
              label="Fichier CSV"
              type="file"
              name="file"
              accept=".csv,text/csv"
              required
              hint={`${MAX_CSV_TEXT} au plus, encodé en UTF-8 ou Windows-1252, séparateur «\u00a0;\u00a0» ou «\u00a0,\u00a0».`}
              error={answer?.kind === "error" ? answer.message : undefined}
              className="h-auto cursor-pointer py-1.5 pl-1.5 file:mr-3 file:h-9 file:cursor-pointer file:rounded-md file:border file:border-border file:bg-muted file:px-3 file:text-sm file:font-semibold file:text-foreground"
            />
            <Button type="submit" variant="secondary" className="self-start" disabled={busy === "preview"}>
              <FileUp aria-hidden="true" /> {busy === "preview" ? "Analyse en cours..." : "Prévisualiser l'import"}
            </Button>
          </Form>
        </section>
      </div>

      <div ref={result} tabIndex={-1} className="mt-8 outline-none" aria-live="polite">
        {answer?.kind === "error" ? <Alert tone="error" title="Le fichier n'a pas pu être lu">{answer.message}</Alert> : null}
        {answer?.kind === "preview" ? <Preview answer={answer} applying={busy === "apply"} /> : null}
        {answer?.kind === "applied" ? (
          <Alert tone="success" title={answer.message}>
            <Link to="/admin/journal" className="inline-flex items-center gap-1 py-1 font-medium text-accent underline-offset-4 hover:underline">
              <History className="size-4" aria-hidden="true" /> Voir le journal des actions
            </Link>
          </Alert>
        ) : null}
        {answer?.kind === "rejected" ? (
          <Alert tone="error" title={"L'import n'a pas été appliqué\u00a0: rien n'a été modifié."}>
            <p>Le catalogue a changé depuis l'aperçu. Corrigez le fichier ou prévisualisez-le à nouveau.</p>
            <ErrorList errors={answer.errors} total={answer.errorCount} />
          </Alert>
        ) : null}
      </div>
    </section>
  );
}

function Preview({ answer, applying }: { answer: Extract<ImportAnswer, { kind: "preview" }>; applying: boolean }) {
  const planned = answer.create + answer.update;
  return (
    <section aria-labelledby="preview-title" className={card}>
      <h2 id="preview-title" className="text-lg font-bold">
        Aperçu de l'import
      </h2>
      <p className="mt-1 truncate text-sm text-muted-foreground" title={answer.fileName}>
        {answer.fileName}
      </p>
      <dl className="mt-4 grid grid-cols-3 gap-3 text-center">
        <Count label="À créer" value={answer.create} />
        <Count label="À mettre à jour" value={answer.update} />
        <Count label="Inchangés" value={answer.unchanged} />
      </dl>

      {answer.errorCount > 0 ? (
        <Alert
          tone="error"
          className="mt-4"
          title={`${answer.errorCount} erreur${answer.errorCount > 1 ? "s" : ""}\u00a0: rien ne sera importé tant que le fichier n'est pas corrigé.`}
        >
          <ErrorList errors={answer.errors} total={answer.errorCount} />
        </Alert>
      ) : planned === 0 ? (
        <Alert tone="info" className="mt-4" title="Rien à importer">
          Le catalogue contient déjà toutes les valeurs de ce fichier.
        </Alert>
      ) : null}

      {answer.rows.length > 0 ? (
        <div className="mt-4 max-h-[60vh] overflow-auto rounded-xl border border-border" tabIndex={0} role="region" aria-labelledby="planned-caption">
          <table className="w-full min-w-[44rem] text-left text-sm">
            <caption id="planned-caption" className="sr-only">
              Lignes à importer{answer.rows.length < planned ? ` (les ${answer.rows.length} premières sur ${planned})` : ""}
            </caption>
            <thead className="sticky top-0 z-10 border-b border-border bg-card text-muted-foreground">
              <tr>
                <th scope="col" className="px-3 py-3 font-medium">
                  Ligne
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Action
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Id
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Nom
                </th>
                <th scope="col" className="px-3 py-3 font-medium">
                  Champs modifiés
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-border">
              {answer.rows.map((row) => (
                <tr key={row.line} className="align-top">
                  <td className="tabular px-3 py-2">{row.line}</td>
                  <td className="px-3 py-2">
                    <Badge tone={row.action === "create" ? "success" : "info"}>{IMPORT_ROW_ACTION_LABELS[row.action]}</Badge>
                  </td>
                  <td className="tabular px-3 py-2">{row.id ?? <span className="text-muted-foreground">nouveau</span>}</td>
                  <td className="max-w-56 px-3 py-2 font-medium break-words">{row.title}</td>
                  <td className="px-3 py-2">
                    <ul className="space-y-0.5">
                      {row.lines.map((line) => (
                        <li key={line.field} className="break-words">
                          <span className="font-medium">{line.label}&nbsp;:</span>{" "}
                          {row.action === "create" ? (
                            truncateText(line.after, 80)
                          ) : (
                            <>
                              <span className="text-muted-foreground">{truncateText(line.before, 80)}</span> → {truncateText(line.after, 80)}
                            </>
                          )}
                        </li>
                      ))}
                    </ul>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : null}
      {answer.rows.length < planned ? (
        <p className="mt-2 text-sm text-muted-foreground">
          Les {answer.rows.length} premières lignes sur {planned} sont affichées&nbsp;; l'import les applique toutes.
        </p>
      ) : null}

      {answer.payload ? (
        <Form method="post" encType="multipart/form-data" className="mt-6 flex flex-wrap items-center gap-3">
          <input type="hidden" name="intent" value="apply" />
          <input type="hidden" name="payload" value={answer.payload} />
          <Button type="submit" disabled={applying}>
            <CheckCircle2 aria-hidden="true" /> {applying ? "Import en cours..." : "Appliquer l'import"}
          </Button>
          <p className="text-sm text-muted-foreground">
            {answer.create} création{answer.create > 1 ? "s" : ""} et {answer.update} mise{answer.update > 1 ? "s" : ""} à jour, en une seule fois.
          </p>
        </Form>
      ) : null}
    </section>
  );
}

function Count({ label, value }: { label: string; value: number }) {
  return (
    <div className="rounded-xl border border-border bg-background/40 px-2 py-3">
      <dt className="text-xs font-medium text-muted-foreground">{label}</dt>
      <dd className="tabular mt-1 text-2xl font-extrabold">{value}</dd>
    </div>
  );
}

function ErrorList({ errors, total }: { errors: string[]; total: number }) {
  return (
    <>
      <div className="mt-2 max-h-72 overflow-auto" tabIndex={0} role="region" aria-label="Erreurs par ligne">
        <ul className="list-disc space-y-1 pl-5 text-foreground">
          {errors.map((message, i) => (
            <li key={i}>{message}</li>
          ))}
        </ul>
      </div>
      {total > errors.length ? <p className="mt-2">… et {total - errors.length} autres erreurs.</p> : null}
    </>
  );
}
