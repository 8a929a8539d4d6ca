import { z } from "zod";
import type { FieldErrors } from "./field-errors";
import { SITE_MESSAGE_LOCATIONS, SITE_MESSAGE_LOCATION_LABELS, type SiteMessageLocation } from "./catalog-values";

/**
 * Site messages (SPEC.md "Site message"): the seller's short notices shown under the header of
 * the public pages of one location, or of every public page ("global"). Their content is plain
 * text: links are recognised in it and rendered as React links, never as HTML.
 */

export const TITLE_MAX = 120;
export const CONTENT_MAX = 1000;

/** SPEC.md section 5: the toast of a form missing its title or content. */
export const REQUIRED_TOAST = { title: "Champs requis", description: "Le titre et le contenu sont obligatoires." } as const;

const TITLE_REQUIRED = "Le titre est obligatoire";
const CONTENT_REQUIRED = "Le contenu est obligatoire";

// PostgreSQL text cannot hold NUL; no invisible control character but tabs and line breaks belongs in a notice.
const stripControls = (value: string) => value.replace(/\p{Cc}/gu, (c) => (c === "\n" || c === "\t" ? c : ""));

/** The title is one line; the content keeps its line breaks (shown as typed). */
const title = z
  .string({ error: TITLE_REQUIRED })
  .transform((value) => stripControls(value.replace(/\s+/g, " ")).trim())
  .pipe(z.string().min(1, TITLE_REQUIRED).max(TITLE_MAX, `Le titre doit contenir au plus ${TITLE_MAX} caractères`));

const content = z
  .string({ error: CONTENT_REQUIRED })
  .transform((value) => stripControls(value.replace(/\r\n?/g, "\n")).trim())
  .pipe(z.string().min(1, CONTENT_REQUIRED).max(CONTENT_MAX, `Le contenu doit contenir au plus ${CONTENT_MAX} caractères`));

/** The admin form, checked in the browser before sending and by the action on whatever arrives. */
export const siteMessageSchema = z.object({
  title,
  content,
  location: z.enum(SITE_MESSAGE_LOCATIONS, { error: "Choisissez un emplacement dans la liste" }),
});
export type SiteMessageInput = z.infer<typeof siteMessageSchema>;

/** The toast of a refused form: SPEC.md's "Champs requis" when a required field is empty. */
export function formErrorToast(errors: FieldErrors): { title: string; description: string } {
  if (errors.title === TITLE_REQUIRED || errors.content === CONTENT_REQUIRED) return REQUIRED_TOAST;
  const first = errors.title ?? errors.content ?? errors.location ?? "Vérifiez le formulaire.";
  return { title: "Formulaire invalide", description: first.endsWith(".") ? first : `${first}.` };
}

export const locationLabel = (location: SiteMessageLocation) => SITE_MESSAGE_LOCATION_LABELS[location];

/** Where a location's messages show, for the admin list ("Site entier" says it all). */
export const LOCATION_HINTS: Record<SiteMessageLocation, string> = {
  global: "toutes les pages publiques",
  home: "la page d'accueil",
  catalog: "le catalogue, les pages TCG, Accessoires et Gaming",
  product: "les fiches produit",
  checkout: "le panier, le paiement et la confirmation de commande",
};

export {
  dismissKey,
  locationOfPath,
  messageSegments,
  messagesForPath,
  safeHref,
  showsSiteMessages,
  type MessageSegment,
} from "./site-message-text";

/** The two examples the messages page starts with: inactive, so a new shop shows none of them. */
export const EXAMPLE_MESSAGES: (SiteMessageInput & { isActive: boolean })[] = [
  {
    title: "Nouveaux arrivages chaque semaine",
    content: "Displays, ETB et cartes à l'unité rejoignent la boutique tous les vendredis. Découvrez les dernières pépites dans [le catalogue](/catalog) !",
    location: "global",
    isActive: false,
  },
  {
    title: "Envoi soigné et suivi",
    content: "Chaque commande part protégée (sleeve, toploader, carton rigide) avec un numéro de suivi. Une question avant de commander ? Écrivez-nous sur /contact.",
    location: "checkout",
    isActive: false,
  },
];
