import { sql } from "drizzle-orm";
import { rowsOf } from "~/db/query-rows";
import type { Db } from "~/db/types";
import { formatParisDateTime } from "~/domain/paris-time";
import { type LegalIdentity, identityField, missingIdentityFields } from "~/domain/shop-identity";
import { lastBackup } from "./backup-record.server";
import { countProductsMissingSafety } from "./product-safety.server";
import { getShopIdentity } from "./shop-identity.server";

/**
 * What must be true before the shop opens to the public (issue 41, point 2), each line read
 * from the real state (the settings stored, the configuration, what the database saw), never
 * from a box the seller ticks. The dashboard leads with it until every line is done.
 */
/** `href`: the admin page where it is done; null when it is done outside (a command on the server). */
export type ChecklistLine = { key: string; done: boolean; label: string; why: string; href: string | null; state: string };

export type ChecklistDeps = {
  legalDefaults: LegalIdentity;
  /** Which payment provider runs: the built-in test page is not for customers. */
  payments: "test" | "stripe";
  /** SMTP configured (else e-mails wait in the outbox). */
  smtp: boolean;
  /** The shop's public address: where Stripe must send its webhooks. */
  publicUrl: string;
};


/**
 * The delivery line's state: the active methods, and those still the examples the shop started
 * with (never saved by the seller, shipping_methods.reviewed_at), which keep the line open.
 */
function shippingState(active: number, examples: number): string {
  if (active === 0) return "Aucun mode actif";
  if (examples === 1) return "1 mode actif est encore un exemple de départ\u00a0: vérifiez-le, puis enregistrez-le";
  if (examples > 1) return `${examples} modes actifs sont encore des exemples de départ\u00a0: vérifiez-les, puis enregistrez-les`;
  return `${active} mode${active > 1 ? "s" : ""} actif${active > 1 ? "s" : ""}`;
}

/** The contact line's state: what is still to give, by its label. */
function contactState(identity: LegalIdentity): string {
  const missing = (["email", "address"] as const).filter((key) => identity[key] === "").map((key) => identityField(key).label);
  return missing.length === 0 ? `${identity.email} · ${identity.address}` : `À renseigner\u00a0: ${missing.join(" et ")}`;
}

/** A backup older than this is no backup for the checklist. */
export const BACKUP_MAX_AGE_DAYS = 7;

export async function launchChecklist(db: Db, deps: ChecklistDeps, now = new Date()): Promise<ChecklistLine[]> {
  const [{ identity }, backup, missingSafety, facts] = await Promise.all([
    getShopIdentity(db, deps.legalDefaults),
    lastBackup(db),
    countProductsMissingSafety(db),
    db.execute(sql`
      select
        exists (select 1 from payment_events where provider = 'stripe') as "stripeEvent",
        exists (select 1 from outbox_emails where status = 'sent') as "emailSent",
        (select count(*)::int from shipping_methods where active) as "shippingMethods",
        (select count(*)::int from shipping_methods where active and reviewed_at is null) as "shippingExamples",
        (select count(*)::int from users where role = 'admin' and not two_factor_enabled) as "adminsWithoutTotp"`),
  ]);
  const [fact] = rowsOf<{ stripeEvent: boolean; emailSent: boolean; shippingMethods: number; shippingExamples: number; adminsWithoutTotp: number }>(facts);
  const missing = missingIdentityFields(identity);
  const mediator = identity.mediatorName !== "" && identity.mediatorUrl !== "";
  const stripe = deps.payments === "stripe";
  const backupAgeDays = backup ? (now.getTime() - Date.parse(backup.at)) / 86_400_000 : null;
  return [
    {
      key: "identity",
      done: missing.length === 0 && mediator,
      label: "Identité de la boutique et médiateur",
      why: "Les mentions légales, les factures et le médiateur de la consommation sont obligatoires pour vendre en ligne.",
      href: "/admin/settings",
      state: missing.length === 0 ? "Complète" : `${missing.length} champ${missing.length > 1 ? "s" : ""} à remplir`,
    },
    {
      key: "contact",
      done: identity.email !== "" && identity.address !== "",
      label: "E-mail et adresse postale de la boutique",
      why: "Le client doit pouvoir vous écrire et vous renvoyer un article\u00a0: les e-mails de commande, le formulaire de rétractation et les mentions légales donnent l'e-mail et l'adresse enregistrés ici, rien d'autre.",
      href: "/admin/settings",
      state: contactState(identity),
    },
    {
      // Set on the server, not in the admin: no page to link to.
      key: "stripe",
      done: stripe && fact!.stripeEvent,
      label: "Paiement Stripe configuré et webhook reçu",
      why: "Sans Stripe, seule la page de paiement de test existe\u00a0; sans webhook reçu, les commandes payées ne passent pas à «\u00a0Payée\u00a0». Les clés ne se saisissent pas dans l'administration\u00a0: ce sont les variables d'environnement STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET du serveur (voir .env.example et docs/operations.md), lues à son démarrage.",
      href: null,
      state: !stripe
        ? "Page de paiement de test\u00a0: STRIPE_SECRET_KEY et STRIPE_WEBHOOK_SECRET ne sont pas définies sur le serveur"
        : fact!.stripeEvent
          ? "Webhook reçu"
          : `Aucun webhook reçu pour l'instant\u00a0: Stripe doit les envoyer à ${deps.publicUrl}/api/payments/stripe/webhook`,
    },
    {
      key: "smtp",
      done: deps.smtp && fact!.emailSent,
      label: "E-mails : SMTP configuré et un e-mail de test délivré",
      why: "Confirmations de commande, factures et réinitialisations de mot de passe partent par e-mail.",
      href: "/admin/test-email",
      state: !deps.smtp ? "SMTP non configuré (SMTP_URL) : les e-mails attendent dans la boîte d'envoi" : fact!.emailSent ? "Un e-mail délivré" : "Aucun e-mail délivré pour l'instant",
    },
    {
      key: "shipping",
      done: fact!.shippingMethods > 0 && fact!.shippingExamples === 0,
      label: "Modes de livraison",
      why: "Le panier ne propose que les modes actifs\u00a0: sans eux, personne ne peut commander. Ceux fournis au départ ne sont que des exemples\u00a0: vérifiez leurs pays, tarifs et délais.",
      href: "/admin/shipping",
      state: shippingState(fact!.shippingMethods, fact!.shippingExamples),
    },
    {
      key: "product_safety",
      done: missingSafety === 0,
      label: "Sécurité des produits en vente",
      why: "Chaque produit proposé en ligne doit indiquer son fabricant et ses adresses, la personne responsable dans l'UE pour un fabricant établi hors de l'Union, un identifiant et ses avertissements (règlement (UE) 2023/988, article 19). Un produit incomplet ne peut plus être mis en ligne\u00a0; ceux en ligne avant la règle sont à compléter.",
      href: "/admin/product-safety",
      state:
        missingSafety === 0
          ? "Produits en vente complets"
          : `${missingSafety} produit${missingSafety > 1 ? "s" : ""} en vente ou programmé${missingSafety > 1 ? "s" : ""} sans informations de sécurité complètes`,
    },
    {
      key: "totp",
      done: fact!.adminsWithoutTotp === 0,
      label: "Double authentification des administrateurs",
      why: "Un mot de passe volé ne doit pas suffire à ouvrir l'administration.",
      href: "/admin/securite",
      state: fact!.adminsWithoutTotp === 0 ? "Activée pour tous" : `${fact!.adminsWithoutTotp} administrateur${fact!.adminsWithoutTotp > 1 ? "s" : ""} sans double authentification`,
    },
    {
      key: "backup",
      done: backupAgeDays !== null && backupAgeDays <= BACKUP_MAX_AGE_DAYS,
      label: `Une sauvegarde de moins de ${BACKUP_MAX_AGE_DAYS} jours`,
      why: "Commandes, factures et images tiennent dans la base et le dossier de données : seule une sauvegarde récente permet de tout retrouver. Elle se fait sur le serveur : npm run backup (voir docs/operations.md).",
      href: null,
      state: backup ? `Dernière sauvegarde le ${formatParisDateTime(backup.at)}` : "Aucune sauvegarde notée (npm run backup)",
    },
  ];
}
