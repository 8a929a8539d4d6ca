import { asc, eq, isNull } from "drizzle-orm";
import { z } from "zod";
import { buybackOffers, inboxEvents, inboxMessages, products, purchaseRegisterEntries, siteSettings } from "~/db/schema";
import type { Db, Tx } from "~/db/types";
import { BONUS_PERCENT_DEFAULT, OFFER_LINK_DAYS, type OfferLine, type PaymentMeans, creditBonusCents, lineTotalCents, offerTotalCents } from "~/domain/buyback-offer";
import { type AcceptOfferInput, type BuybackSettings, type ReceptionInput, buybackSettingsSchema } from "~/domain/buyback-offer-forms";
import type { StockChoice } from "~/domain/buyback-stock";
import type { InboxStatus } from "~/domain/inbox-values";
import type { MailShop } from "~/domain/email-templates";
import { offerEmail } from "~/domain/inbox-emails";
import { formatParisDate } from "~/domain/paris-time";
import { missingSafetyInformation, productSafety } from "~/domain/safety-profile";
import { deriveSecret } from "~/lib/secrets.server";
import { signToken, readToken } from "~/lib/signed-token.server";
import { absoluteUrl } from "~/lib/seo";
import { type InboxRequest, type MailDeps, NOT_FOUND, type Refusal, afterwardsCounted, applyMove, findRequest, isRefusal } from "./inbox.server";
import { nextNumber } from "./invoices.server";
import { queueEmail } from "./mail.server";
import { insertProductLogged } from "./product-admin.server";
import { addPurchaseLot } from "./purchase-lots.server";
import { grantStoreCredit } from "./store-credit-grants.server";

/**
 * Buy-back offers by lines, answered by the customer on a signed page, then received (identity
 * document), adjusted if need be, and completed: register entries, store credit or a transfer
 * to make, and units into stock, in one transaction (issue 54, points 1 to 3).
 */

// ---------------------------------------------------------------------------------------------
// The seller's setting

export const BUYBACK_SETTING = "buyback";

export async function getBuybackSettings(db: Db | Tx): Promise<BuybackSettings> {
  const [row] = await db.select({ value: siteSettings.value }).from(siteSettings).where(eq(siteSettings.key, BUYBACK_SETTING));
  const parsed = buybackSettingsSchema.safeParse(row?.value ?? {});
  return parsed.success ? parsed.data : { creditBonusPercent: BONUS_PERCENT_DEFAULT };
}

export async function saveBuybackSettings(db: Db, settings: BuybackSettings, now = new Date()): Promise<void> {
  await db
    .insert(siteSettings)
    .values({ key: BUYBACK_SETTING, value: settings, updatedAt: now })
    .onConflictDoUpdate({ target: siteSettings.key, set: { value: settings, updatedAt: now } });
}

// ---------------------------------------------------------------------------------------------
// The customer's link

/** The key of offer links, derived from the drop secret (one stored secret, one purpose each). */
export function offerSecret(dropSecret: string): string {
  return deriveSecret(dropSecret, "buyback-offer");
}

type LinkPayload = { m: string; v: number; e: number };
export type OfferDeps = MailDeps & { secret: string };

export function offerLinkToken(secret: string, messageId: string, version: number, expiresAt: Date): string {
  return signToken({ m: messageId, v: version, e: expiresAt.getTime() } satisfies LinkPayload, secret);
}

function isPayload(value: unknown): value is LinkPayload {
  const p = value as Partial<LinkPayload> | null;
  return typeof p === "object" && p !== null && typeof p.m === "string" && Number.isSafeInteger(p.v) && Number.isSafeInteger(p.e);
}

export const FORGED_LINK = "Ce lien n'est pas valide : il a été modifié ou mal copié. Ouvrez le lien de notre e-mail tel quel, ou écrivez-nous.";
const expiredLink = (at: Date) => `Ce lien a expiré le ${formatParisDate(at)}. Écrivez-nous pour recevoir une nouvelle offre.`;
const SUPERSEDED_LINK = "Cette offre a été remplacée par une offre plus récente : ouvrez le lien du dernier e-mail reçu.";

export type OfferView = {
  messageId: string;
  firstName: string;
  lastName: string;
  status: InboxStatus;
  lines: OfferLine[];
  bonusPercent: number;
  expiresAt: Date;
  /** An adjustment made at reception, waiting for the customer. */
  adjusted: boolean;
  /** Whether the customer can still answer (else: what they answered). */
  open: boolean;
  paymentMeans: PaymentMeans | null;
};

type Offer = typeof buybackOffers.$inferSelect;

/** The offer a link points to, refused when forged (403), expired or superseded (410). */
async function offerOfLink(db: Db | Tx, secret: string, token: string, now: Date, lock = false): Promise<{ ok: true; offer: Offer; request: InboxRequest } | Refusal> {
  const payload = readToken(token, secret);
  if (!isPayload(payload)) return { ok: false, status: 403, message: FORGED_LINK };
  if (now.getTime() > payload.e) return { ok: false, status: 410, message: expiredLink(new Date(payload.e)) };
  if (!z.guid().safeParse(payload.m).success) return { ok: false, status: 403, message: FORGED_LINK };
  // The offer first, locked: a second answer at the same time reads the request once the first is written.
  const query = db.select().from(buybackOffers).where(eq(buybackOffers.messageId, payload.m));
  const [offer] = lock ? await query.for("update") : await query;
  const request = offer ? await findRequest(db, payload.m) : null;
  if (!offer || !request) return { ok: false, status: 410, message: "Cette demande n'existe plus." };
  if (offer.version !== payload.v) return { ok: false, status: 410, message: SUPERSEDED_LINK };
  return { ok: true, offer, request };
}

function viewOf(offer: Offer, request: InboxRequest): OfferView {
  const adjusted = offer.pendingLines !== null;
  return {
    messageId: request.id,
    firstName: request.firstName,
    lastName: request.lastName,
    status: request.status,
    lines: offer.pendingLines ?? offer.lines,
    bonusPercent: offer.bonusPercent,
    expiresAt: offer.linkExpiresAt,
    adjusted,
    open: request.status === "offre_envoyee" || (request.status === "recue" && adjusted),
    paymentMeans: offer.paymentMeans,
  };
}

export async function readOfferLink(db: Db, secret: string, token: string, now = new Date()): Promise<{ ok: true; view: OfferView } | Refusal> {
  const found = await offerOfLink(db, secret, token, now);
  return found.ok ? { ok: true, view: viewOf(found.offer, found.request) } : found;
}

const linkExpiry = (now: Date) => new Date(now.getTime() + OFFER_LINK_DAYS * 24 * 3600_000);

async function mailOffer(tx: Tx, deps: OfferDeps, request: InboxRequest, offer: { lines: OfferLine[]; bonusPercent: number; version: number; expiresAt: Date; note: string; adjusted: boolean }) {
  const url = absoluteUrl(deps.shop.publicUrl, `/rachat/offre/${offerLinkToken(deps.secret, request.id, offer.version, offer.expiresAt)}`);
  return queueEmail(tx, {
    to: request.email,
    kind: offer.adjusted ? "inbox-rachat-offer-adjusted" : "inbox-rachat-offer",
    content: offerEmail({ shop: deps.shop, firstName: request.firstName, lines: offer.lines, bonusPercent: offer.bonusPercent, note: offer.note, url, expiresAt: offer.expiresAt, adjusted: offer.adjusted }),
  });
}

// ---------------------------------------------------------------------------------------------
// The seller's offer, and the customer's answer

export type ActionOutcome = { ok: true; request: InboxRequest } | Refusal;

/** Sends an offer by lines (from "en estimation" only, once): status, offer, e-mail with its link and event together. */
export async function sendOffer(deps: OfferDeps, input: { id: string; lines: OfferLine[]; note: string; actorId: string; now?: Date }): Promise<ActionOutcome> {
  const now = input.now ?? new Date();
  return afterwardsCounted(deps.db, deps.db.transaction(async (tx) => {
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    const total = offerTotalCents(input.lines);
    const moved = await applyMove(tx, request, "en_estimation", "offre_envoyee", { offerCents: total, offerNote: input.note || null });
    if (isRefusal(moved)) return moved;
    const { creditBonusPercent } = await getBuybackSettings(tx);
    const expiresAt = linkExpiry(now);
    await tx.insert(buybackOffers).values({ messageId: request.id, lines: input.lines, bonusPercent: creditBonusPercent, linkExpiresAt: expiresAt, version: 1 });
    const email = await mailOffer(tx, deps, request, { lines: input.lines, bonusPercent: creditBonusPercent, version: 1, expiresAt, note: input.note, adjusted: false });
    await tx.insert(inboxEvents).values({
      messageId: request.id,
      type: "offer",
      fromStatus: "en_estimation",
      toStatus: "offre_envoyee",
      amountCents: total,
      body: input.note || null,
      emailId: email.id,
      actorId: input.actorId,
    });
    return { ok: true, request: moved };
  }));
}

export type CustomerAnswer = { kind: "accept"; input: AcceptOfferInput } | { kind: "decline" };
export type AnswerOutcome = { ok: true; view: OfferView } | Refusal;

/**
 * The customer's answer on the offer page: the first offer (offre_envoyee → acceptee or refusee)
 * or an adjustment (the new lines replace the accepted ones, or the cards go back: refusee).
 * The same answer sent twice changes nothing the second time.
 */
export async function answerOffer(deps: OfferDeps, token: string, answer: CustomerAnswer, now = new Date()): Promise<AnswerOutcome> {
  return afterwardsCounted(deps.db, deps.db.transaction(async (tx): Promise<AnswerOutcome> => {
    const found = await offerOfLink(tx, deps.secret, token, now, true);
    if (!found.ok) return found;
    const { offer, request } = found;
    const view = viewOf(offer, request);
    if (!view.open) {
      const same = answer.kind === "accept" ? request.status !== "refusee" : request.status === "refusee";
      return same ? { ok: true, view } : { ok: false, status: 409, message: "Vous avez déjà répondu à cette offre." };
    }
    const from = request.status;
    if (answer.kind === "decline") {
      const moved = await applyMove(tx, request, from, "refusee");
      if (isRefusal(moved)) return moved;
      await tx.update(buybackOffers).set({ pendingLines: null, updatedAt: now }).where(eq(buybackOffers.messageId, request.id));
      await tx.insert(inboxEvents).values({ messageId: request.id, type: "declined", fromStatus: from, toStatus: "refusee" });
      return { ok: true, view: { ...view, status: "refusee", open: false } };
    }
    const lines = view.lines;
    const total = offerTotalCents(lines);
    const { means, address, transfer } = answer.input;
    let status = from;
    if (from === "offre_envoyee") {
      const moved = await applyMove(tx, request, from, "acceptee", { offerCents: total });
      if (isRefusal(moved)) return moved;
      status = "acceptee";
    } else {
      await tx.update(inboxMessages).set({ offerCents: total, updatedAt: now }).where(eq(inboxMessages.id, request.id));
    }
    await tx
      .update(buybackOffers)
      .set({
        lines,
        pendingLines: null,
        paymentMeans: means,
        acceptedTotalCents: total,
        acceptedAt: now,
        // The address the seller may already have checked at reception stays unless retyped here.
        sellerAddress: address,
        accountHolder: transfer?.accountHolder ?? null,
        iban: transfer?.iban ?? null,
        updatedAt: now,
      })
      .where(eq(buybackOffers.messageId, request.id));
    await tx.insert(inboxEvents).values({
      messageId: request.id,
      type: "accepted",
      fromStatus: from,
      toStatus: status,
      amountCents: total,
      body: means === "credit" ? `Paiement choisi : avoir en boutique (bonus compris)` : `Paiement choisi : virement bancaire`,
    });
    return { ok: true, view: { ...view, lines, status, open: false, adjusted: false, paymentMeans: means } };
  }));
}

// ---------------------------------------------------------------------------------------------
// Reception, adjustment, completion

async function lockedOffer(tx: Tx, id: string): Promise<Offer | null> {
  if (!z.guid().safeParse(id).success) return null;
  const [offer] = await tx.select().from(buybackOffers).where(eq(buybackOffers.messageId, id)).for("update");
  return offer ?? null;
}

/** The cards arrived: the seller records the identity document (required by the register) and the address. */
export async function markReceived(db: Db, input: { id: string; reception: ReceptionInput; actorId: string; now?: Date }): Promise<ActionOutcome> {
  const now = input.now ?? new Date();
  const { reception } = input;
  return afterwardsCounted(db, db.transaction(async (tx) => {
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    const moved = await applyMove(tx, request, "acceptee", "recue");
    if (isRefusal(moved)) return moved;
    await tx
      .update(buybackOffers)
      .set({
        idType: reception.idType,
        idNumber: reception.idNumber,
        idAuthority: reception.idAuthority,
        idIssuedOn: reception.idIssuedOn,
        sellerAddress: reception.address,
        receivedAt: now,
        updatedAt: now,
      })
      .where(eq(buybackOffers.messageId, request.id));
    await tx.insert(inboxEvents).values({ messageId: request.id, type: "received", fromStatus: "acceptee", toStatus: "recue", actorId: input.actorId });
    return { ok: true, request: moved };
  }));
}

/**
 * A line's condition differs from the one announced: the customer gets the adjusted offer by
 * e-mail with a new link (the old one is refused from now on); what was accepted stays the
 * accepted total until they accept the new one.
 */
export async function adjustOffer(deps: OfferDeps, input: { id: string; lines: OfferLine[]; note: string; actorId: string; now?: Date }): Promise<ActionOutcome> {
  const now = input.now ?? new Date();
  return afterwardsCounted(deps.db, deps.db.transaction(async (tx) => {
    // The offer locked before the request is read: a completion running meanwhile is seen.
    const offer = await lockedOffer(tx, input.id);
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    if (!offer || request.status !== "recue") return { ok: false, status: 409, message: "Seule une offre dont les cartes sont reçues, et pas encore terminée, peut être ajustée." };
    const version = offer.version + 1;
    const expiresAt = linkExpiry(now);
    await tx.update(buybackOffers).set({ pendingLines: input.lines, version, linkExpiresAt: expiresAt, updatedAt: now }).where(eq(buybackOffers.messageId, request.id));
    const email = await mailOffer(tx, deps, request, { lines: input.lines, bonusPercent: offer.bonusPercent, version, expiresAt, note: input.note, adjusted: true });
    await tx.insert(inboxEvents).values({ messageId: request.id, type: "adjusted", amountCents: offerTotalCents(input.lines), body: input.note || null, emailId: email.id, actorId: input.actorId });
    return { ok: true, request };
  }));
}

export type CompletionOutcome = { ok: true; request: InboxRequest; entryNumbers: number[]; productIds: number[]; offline: number } | Refusal;

/**
 * Completes a purchase whose cards are received, in one transaction: one register entry per line
 * (gap-free numbers), the store credit (total + bonus) or a transfer to make, and each line into
 * stock as the seller chose (a new margin-scheme product, or units added to one), its purchase
 * price recorded as a lot. Anything refused writes nothing.
 */
export async function completePurchase(db: Db, input: { id: string; stock: StockChoice[]; actorId: string; shop: MailShop; now?: Date }): Promise<CompletionOutcome> {
  const now = input.now ?? new Date();
  return afterwardsCounted(db, db.transaction(async (tx): Promise<CompletionOutcome> => {
    const offer = await lockedOffer(tx, input.id);
    const request = await findRequest(tx, input.id);
    if (!request) return NOT_FOUND;
    if (!offer || !offer.paymentMeans) return { ok: false, status: 409, message: "Cette demande n'a pas d'offre acceptée." };
    if (offer.pendingLines) return { ok: false, status: 409, message: "L'offre ajustée attend la réponse du client : terminez le rachat une fois qu'il l'a acceptée." };
    if (!offer.idType || !offer.idNumber || !offer.idAuthority || !offer.idIssuedOn || !offer.sellerAddress) {
      return { ok: false, status: 409, message: "Relevez la pièce d'identité du vendeur à la réception avant de terminer le rachat (registre des objets mobiliers)." };
    }
    if (input.stock.length !== offer.lines.length) return { ok: false, status: 400, message: "Choisissez ce que devient chaque ligne." };
    const to = offer.paymentMeans === "credit" ? "payee" : "a_virer";
    const moved = await applyMove(tx, request, "recue", to);
    if (isRefusal(moved)) return moved;

    const entryNumbers: number[] = [];
    for (const line of offer.lines) {
      const { sequence, issuedAt } = await nextNumber(tx, "purchase_register", now);
      await tx.insert(purchaseRegisterEntries).values({
        number: sequence,
        recordedAt: issuedAt,
        messageId: request.id,
        sellerName: `${request.firstName} ${request.lastName}`,
        sellerAddress: offer.sellerAddress,
        idType: offer.idType,
        idNumber: offer.idNumber,
        idAuthority: offer.idAuthority,
        idIssuedOn: offer.idIssuedOn,
        description: line.description,
        quantity: line.quantity,
        unitPriceCents: line.unitPriceCents,
        totalCents: lineTotalCents(line),
        paymentMeans: offer.paymentMeans,
        authorId: input.actorId,
      });
      entryNumbers.push(sequence);
    }

    const total = offerTotalCents(offer.lines);
    const paid = offer.paymentMeans === "credit" ? total + creditBonusCents(total, offer.bonusPercent) : total;
    if (offer.paymentMeans === "credit") {
      // A savepoint inside this transaction: a failure below takes the credit back with the rest.
      // Granted as every credit is: the seller's validity applies and the e-mail announces it.
      await grantStoreCredit(
        tx,
        {
          email: request.email,
          name: request.firstName,
          amountCents: paid,
          kind: "buyback",
          reason: `Rachat de cartes, registre n° ${entryNumbers.join(", ")} (bonus de ${offer.bonusPercent} % compris)`,
          author: `seller:${input.actorId}`,
          sourceRef: `rachat:${request.id}`,
        },
        input.shop,
        now,
      );
    }

    const productIds: number[] = [];
    let offline = 0;
    for (const [i, choice] of input.stock.entries()) {
      const line = offer.lines[i]!;
      let productId: number;
      if (choice.mode === "skip") continue;
      if (choice.mode === "existing") productId = choice.productId;
      else {
        const fields = newProductFields(choice, line);
        const publishable = missingSafetyInformation(productSafety(fields, null)).length === 0;
        if (choice.publish && !publishable) offline += 1;
        const product = await insertProductLogged(tx, { ...fields, status: choice.publish && publishable ? "en_ligne" : "hors_ligne" }, input.actorId, now);
        productId = product.id;
      }
      await addPurchaseLot(tx as unknown as Db, { productId, quantity: line.quantity, unitCostCents: line.unitPriceCents, source: "buyback", sourceRef: `registre:${entryNumbers[i]}`, receivedAt: now });
      productIds.push(productId);
    }

    await tx.update(buybackOffers).set({ completedAt: now, paidCents: paid, updatedAt: now }).where(eq(buybackOffers.messageId, request.id));
    await tx.insert(inboxEvents).values({
      messageId: request.id,
      type: "completed",
      fromStatus: "recue",
      toStatus: to,
      amountCents: paid,
      body: offer.paymentMeans === "credit" ? "Avoir crédité au client" : "Virement à faire",
      actorId: input.actorId,
    });
    return { ok: true, request: moved, entryNumbers, productIds, offline };
  }));
}

/** A new product for a bought line: second-hand (margin scheme), no stock of its own until its lot adds it. */
function newProductFields(choice: Extract<StockChoice, { mode: "new" }>, line: OfferLine) {
  return {
    title: choice.title,
    description: `${line.description}, état ${line.condition}. Carte d'occasion.`,
    priceCents: choice.priceCents,
    stock: 0,
    category: choice.category,
    subCategory: choice.category === "TCG" ? "Cartes" : null,
    cardType: null,
    featured: false,
    dropTime: null,
    imagePath: null,
    additionalImages: [],
    series: null,
    rarity: null,
    condition: line.condition,
    compareAtCents: null,
    weightGrams: null,
    vatRateBp: null,
    vatScheme: "margin" as const,
    safetyProfileId: null,
    manufacturerName: null,
    manufacturerAddress: null,
    manufacturerEmail: null,
    manufacturerOutsideEu: null,
    euRepName: null,
    euRepAddress: null,
    euRepEmail: null,
    ean: null,
    manufacturerReference: null,
    safetyWarnings: null,
    labelImagePath: null,
    pegiRating: null,
    pegiDescriptors: [],
  };
}

/** A request's offer, for the seller's page. */
export async function getBuybackOffer(db: Db, id: string): Promise<Offer | null> {
  const [offer] = await db.select().from(buybackOffers).where(eq(buybackOffers.messageId, id));
  return offer ?? null;
}

/** The products a bought line can add units to (not archived), by title. */
export async function productChoices(db: Db): Promise<{ id: number; title: string; stock: number }[]> {
  return db.select({ id: products.id, title: products.title, stock: products.stock }).from(products).where(isNull(products.archivedAt)).orderBy(asc(products.title)).limit(500);
}
