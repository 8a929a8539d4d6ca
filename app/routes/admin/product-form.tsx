import { ADMIN_PRODUCTS_PATH } from "~/domain/admin-product-list";
import { ArrowLeft, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { data, Form, Link, redirect, useNavigation } from "react-router";
import { PreorderSettings } from "~/components/admin/preorder-settings";
import { PRODUCT_FORM_ID, ProductForm } from "~/components/admin/product-form";
import { Button, buttonVariants } from "~/components/ui/button";
import { toast } from "~/components/ui/toaster";
import { withNotice } from "~/domain/notices";
import { parisWallTime } from "~/domain/paris-time";
import { type ProductFieldErrors, type ProductFormInput, productFormInput, productFormInputOf } from "~/domain/product-form";
import { storedImageExists } from "~/services/storage.server";
import { readPriceWindow } from "~/services/price-history.server";
import { preorderOf, removePreorder, savePreorder } from "~/services/preorders.server";
import { mailBuyersOnDateChange, preorderCancelSecret } from "~/services/preorder-release.server";
import { createProduct, duplicateProduct, getProductForEdit, updateProduct } from "~/services/product-admin.server";
import { listPurchaseLots } from "~/services/purchase-lots.server";
import { PurchaseLotsTable } from "~/components/admin/purchase-lots-table";
import { safetyProfileChoices } from "~/services/product-safety.server";
import { requireAdmin } from "~/services/session.server";
import type { Route } from "./+types/product-form";
import { readForm } from "~/lib/request-input.server";

const EMPTY: Required<ProductFormInput> = {
  name: "",
  description: "",
  price: "",
  stock: "",
  status: "en_ligne",
  category: "TCG",
  subCategory: "",
  cardType: "",
  featured: "",
  launchDate: "",
  launchTime: "",
  image: "",
  additionalImages: [],
  series: "",
  rarity: "",
  condition: "",
  compareAt: "",
  weight: "",
  vatRate: "",
  marginScheme: "",
  safetyProfile: "",
  manufacturerOutsideEu: "",
  euRepName: "",
  euRepAddress: "",
  euRepEmail: "",
  manufacturerReference: "",
  labelImage: "",
  pegiRating: "",
  pegiDescriptors: [],
  manufacturerName: "",
  manufacturerAddress: "",
  manufacturerEmail: "",
  ean: "",
  safetyWarnings: "",
};

/** /admin/products/add and /admin/products/edit/{id} (app/routes.ts gives this module both). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  // The brands' safety profiles for the select (their values show as the overrides' placeholders).
  const common = { imageBase: context.storage.publicBaseUrl, today: parisWallTime(new Date()).date, safetyProfiles: await safetyProfileChoices(context.db) };
  if (!params.id) return { mode: "add" as const, id: null, initial: EMPTY, currentDropTime: null, priceHistory: [], lots: null, preorder: null, ...common };
  const id = productIdOf(params.id);
  const product = id === null ? null : await getProductForEdit(context.db, id);
  if (!product) throw data(null, { status: 404 });
  const initial = productFormInputOf(product);
  // What decides whether the former price shows (the form says why not, for the price typed too).
  const priceHistory = (await readPriceWindow(context.db, product.id)).map((point) => ({ priceCents: point.priceCents, effectiveFrom: point.effectiveFrom.toISOString() }));
  // A margin-scheme product's purchase lots (docs/decisions/057).
  const lots = product.vatScheme === "margin" ? (await listPurchaseLots(context.db, product.id)).map((lot) => ({ ...lot, receivedAt: lot.receivedAt.toISOString() })) : null;
  const preorder = await preorderOf(context.db, product.id);
  return {
    mode: "edit" as const,
    id: product.id,
    initial,
    currentDropTime: product.dropTime?.toISOString() ?? null,
    priceHistory,
    lots,
    preorder: preorder && { releaseOn: preorder.releaseOn, estimatedDeliveryOn: preorder.estimatedDeliveryOn, quantity: preorder.quantity, perCustomerLimit: preorder.perCustomerLimit, orderedUnits: preorder.orderedUnits },
    ...common,
  };
}

/** The id of /admin/products/edit/{id}: digits only ("0x10" or "1e1" would otherwise read as a number). */
function productIdOf(param: string | undefined): number | null {
  return param && /^\d{1,9}$/.test(param) && Number(param) > 0 ? Number(param) : null;
}

type ActionAnswer = { errors?: ProductFieldErrors; toast?: { title: string; description: string } };

export async function action({ request, context, params }: Route.ActionArgs) {
  const admin = await requireAdmin(request, context, "api");
  const form = await readForm(request);
  const id = params.id ? productIdOf(params.id) : null;
  if (params.id && id === null) throw data(null, { status: 404 });
  const failed = (description: string, status = 500) => data<ActionAnswer>({ toast: { title: "Erreur", description } }, { status });

  if (form.get("intent") === "duplicate") {
    if (id === null) return failed("Impossible de dupliquer un produit inexistant", 404);
    const result = await duplicateProduct(context.db, id, admin.id);
    if (result.outcome === "missing") return failed(result.message, 404);
    throw redirect(withNotice(ADMIN_PRODUCTS_PATH, "produit-duplique"));
  }

  if (form.get("intent") === "preorder-save" || form.get("intent") === "preorder-remove") {
    if (id === null) return failed("Enregistrez d'abord le produit.", 404);
    return preorderAction(context, id, form);
  }

  const input = productFormInput(form);
  const missing = await missingImages(context.storage, input);
  if (missing) return data<ActionAnswer>({ errors: missing }, { status: 400 });
  try {
    if (id === null) {
      const result = await createProduct(context.db, input, admin.id, new Date(), { purchasePrice: form.get("purchasePrice") });
      if (result.outcome === "invalid") return data<ActionAnswer>({ errors: result.errors }, { status: 400 });
      throw redirect(withNotice(ADMIN_PRODUCTS_PATH, "produit-ajoute"));
    }
    const result = await updateProduct(context.db, id, input, admin.id, new Date(), { stockSeen: stockSeenOf(form), purchasePrice: form.get("purchasePrice") });
    if (result.outcome === "invalid") return data<ActionAnswer>({ errors: result.errors }, { status: 400 });
    if (result.outcome === "missing") return failed("Impossible de mettre à jour le produit.", 404);
    throw redirect(withNotice(ADMIN_PRODUCTS_PATH, "produit-mis-a-jour"));
  } catch (error) {
    if (error instanceof Response) throw error;
    context.logger.error({ err: error, id }, "admin: product save failed");
    return failed(id === null ? "Une erreur est survenue lors de l'ajout du produit." : "Une erreur est survenue lors de la mise à jour du produit.");
  }
}

/** The pre-order section's two buttons (components/admin/preorder-settings.tsx). */
async function preorderAction(context: Route.ActionArgs["context"], id: number, form: FormData) {
  const answer = (status: number, body: ActionAnswer & { ok?: boolean }) => data(body, { status });
  if (form.get("intent") === "preorder-remove") {
    const result = await removePreorder(context.db, id);
    if (result.outcome === "ordered") return answer(409, { toast: { title: "Précommande conservée", description: `${result.units} exemplaire(s) déjà précommandé(s) : elle ne peut plus être retirée.` } });
    return answer(200, { ok: true, toast: { title: "Précommande retirée", description: "Le produit se vend de nouveau sur son stock." } });
  }
  const now = new Date();
  const deps = { shop: { name: context.shop.name, email: context.shop.email, publicUrl: context.publicUrl }, secret: preorderCancelSecret(context.dropSecret) };
  // A moved date e-mails every buyer whose pre-order is not ended, in the transaction that saves it.
  const result = await savePreorder(context.db, id, Object.fromEntries(form), now, mailBuyersOnDateChange(deps, now));
  if (result.outcome === "missing") return answer(404, { toast: { title: "Erreur", description: "Ce produit n'existe plus." } });
  if (result.outcome === "invalid") return answer(400, { errors: result.errors, toast: { title: "Formulaire incomplet", description: "Veuillez corriger les erreurs dans le formulaire." } });
  context.logger.info({ ...result.preorder }, "admin: pre-order saved");
  return answer(200, { ok: true, toast: { title: "Précommande enregistrée", description: "La fiche produit l'annonce avec ses dates." } });
}

/** The stock the edit form showed when it opened (ProductForm's stockSeen); null when absent or not a count. */
function stockSeenOf(form: FormData): number | null {
  const value = form.get("stockSeen");
  return typeof value === "string" && /^\d{1,7}$/.test(value) ? Number(value) : null;
}

/** Keys the form posts must be images this shop stored (an upload's answer), not any text. */
async function missingImages(storage: Route.ActionArgs["context"]["storage"], input: ProductFormInput): Promise<ProductFieldErrors | null> {
  const exists = (key: string) => storedImageExists(storage, key);
  const extra = Array.isArray(input.additionalImages) ? input.additionalImages : input.additionalImages ? [input.additionalImages] : [];
  if (input.image && !(await exists(input.image))) return { image: "Cette image est introuvable. Envoyez-la de nouveau." };
  for (const key of extra) {
    if (!(await exists(key))) return { additionalImages: "Une image supplémentaire est introuvable. Envoyez-la de nouveau." };
  }
  return null;
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [{ title: loaded?.mode === "edit" ? "Modifier le produit" : "Ajouter un produit" }];

export default function AdminProductForm({ loaderData, actionData }: Route.ComponentProps) {
  const { mode, id, initial, imageBase, today, currentDropTime, safetyProfiles, priceHistory, lots, preorder } = loaderData;
  const [touched, setTouched] = useState(false);
  const navigation = useNavigation();
  const saving = navigation.state === "submitting" && navigation.formData?.get("intent") === "save";
  const duplicating = navigation.state === "submitting" && navigation.formData?.get("intent") === "duplicate";

  useEffect(() => {
    if (actionData?.toast) toast.error(actionData.toast.title, { description: actionData.toast.description });
    else if (actionData?.errors) toast.error("Formulaire incomplet", { description: "Veuillez corriger les erreurs dans le formulaire." });
  }, [actionData]);

  return (
    <section>
      <Link to={ADMIN_PRODUCTS_PATH} className={buttonVariants({ variant: "ghost", size: "sm" })}>
        <ArrowLeft aria-hidden="true" /> Retour aux produits
      </Link>
      <div className="mt-3 flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-extrabold tracking-tight">{mode === "add" ? "Ajouter un produit" : "Modifier le produit"}</h1>
        <div className="flex flex-wrap gap-2">
          <Link to={ADMIN_PRODUCTS_PATH} className={buttonVariants({ variant: "outline" })}>
            Annuler
          </Link>
          {mode === "edit" ? (
            <Form method="post">
              <input type="hidden" name="intent" value="duplicate" />
              <Button type="submit" variant="secondary" disabled={duplicating}>
                <Copy aria-hidden="true" /> Dupliquer
              </Button>
            </Form>
          ) : null}
          <Button type="submit" form={PRODUCT_FORM_ID} disabled={saving || (mode === "add" && !touched)}>
            {mode === "add" ? "Ajouter" : "Enregistrer"}
          </Button>
        </div>
      </div>
      <ProductForm
        key={id ?? "new"}
        mode={mode}
        initial={initial}
        serverErrors={actionData?.errors}
        imageBase={imageBase}
        today={today}
        currentDropTime={currentDropTime}
        safetyProfiles={safetyProfiles}
        priceHistory={priceHistory}
        onTouched={() => setTouched(true)}
      />
      {lots ? <PurchaseLotsTable lots={lots} /> : null}
      {mode === "edit" && id !== null ? <PreorderSettings productId={id} preorder={preorder} today={today} /> : null}
    </section>
  );
}
