import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { outboxEmails, products, stockAlerts } from "~/db/schema";
import { ALERT_CONSENT_TEXT } from "~/domain/stock-alerts";
import { alertLinkToken, alertOfLink, confirmAlert, requestAlert, sendDueAlerts, unsubscribeAlert } from "~/services/stock-alerts.server";
import { databaseLabel, openTestDatabase } from "./test-database";

/**
 * "Prévenez-moi" on a real database (issue 39, point 4): double opt-in, one e-mail when the
 * product opens or comes back (once, even with instances sending together), unsubscribe by link.
 */
const SECRET = "secret-des-alertes-0123456789";
const shop = { name: "Comptoir", email: "contact@comptoir.example", publicUrl: "https://comptoir.example" };

describe(`stock alerts on ${databaseLabel}`, () => {
  let database: Database;
  const deps = () => ({ db: database.db, shop, secret: SECRET });

  beforeAll(async () => {
    database = await openTestDatabase();
  });
  afterAll(() => database.close());

  const product = async (values: Partial<typeof products.$inferInsert>) =>
    (await database.db.insert(products).values({ title: "Display attendu", priceCents: 19_999, stock: 0, category: "TCG", subCategory: "Scellés", ...values }).returning())[0]!;
  const mailsTo = (to: string, kind: string) => database.db.select().from(outboxEmails).where(and(eq(outboxEmails.to, to), eq(outboxEmails.kind, kind)));
  const linkIn = (text: string, step: string) => {
    const url = new URL(text.match(new RegExp(`https://comptoir\\.example/alertes/${step}\\?\\S+`))![0]);
    return { id: url.searchParams.get("alerte")!, token: url.searchParams.get("jeton")! };
  };

  it("confirms by e-mail first, then sends one e-mail when the product comes back, once", async () => {
    const sold = await product({ title: "Display revenu" });
    expect(await requestAlert(deps(), { productId: sold.id, email: " Marie@Example.com " })).toBe(true);
    // Asked twice: one alert, one e-mail.
    expect(await requestAlert(deps(), { productId: sold.id, email: "marie@example.com" })).toBe(true);
    const confirmations = await mailsTo("marie@example.com", "alert-confirm");
    expect(confirmations).toHaveLength(1);
    expect(confirmations[0]!.subject).toBe("Confirmez votre alerte – Comptoir");
    const { id, token } = linkIn(confirmations[0]!.text, "confirmer");

    // Unconfirmed: nothing is sent when it comes back.
    await database.db.update(products).set({ stock: 3 }).where(eq(products.id, sold.id));
    expect(await sendDueAlerts(deps())).toBe(0);
    await database.db.update(products).set({ stock: 0 }).where(eq(products.id, sold.id));

    expect(await alertOfLink(database.db, SECRET, "confirmer", id, "faux-jeton")).toBeNull();
    expect(await confirmAlert(database.db, SECRET, id, alertLinkToken(SECRET, "desinscription", id))).toBe(false);
    expect(await alertOfLink(database.db, SECRET, "confirmer", id, token)).toEqual({ productTitle: "Display revenu", status: "pending" });
    expect(await confirmAlert(database.db, SECRET, id, token)).toBe(true);
    const [alert] = await database.db.select().from(stockAlerts).where(eq(stockAlerts.id, id));
    expect(alert).toMatchObject({ status: "active", consentText: ALERT_CONSENT_TEXT, confirmedAt: expect.any(Date) });

    expect(await sendDueAlerts(deps())).toBe(0); // still sold out
    await database.db.update(products).set({ stock: 2 }).where(eq(products.id, sold.id));
    // Two instances at once: one e-mail.
    const sent = await Promise.all([sendDueAlerts(deps()), sendDueAlerts(deps())]);
    expect(sent[0]! + sent[1]!).toBe(1);
    const available = await mailsTo("marie@example.com", "alert-available");
    expect(available).toHaveLength(1);
    expect(available[0]!.subject).toBe("« Display revenu » est en vente – Comptoir");
    expect(available[0]!.text).toContain(`https://comptoir.example/product/`);
    expect(await sendDueAlerts(deps())).toBe(0);
  });

  it("sends at a drop's opening, not before; unsubscribing by link stops it", async () => {
    const opening = new Date(Date.now() + 60_000);
    const upcoming = await product({ title: "Coffret à venir", stock: 10, status: "a_venir", dropTime: opening });
    for (const email of ["attend@example.com", "plus@example.com"]) {
      await requestAlert(deps(), { productId: upcoming.id, email });
      const [mail] = await mailsTo(email, "alert-confirm");
      const { id, token } = linkIn(mail!.text, "confirmer");
      await confirmAlert(database.db, SECRET, id, token);
    }
    const [mail] = await mailsTo("plus@example.com", "alert-confirm");
    const stop = linkIn(mail!.text, "desinscription");
    expect(await unsubscribeAlert(database.db, SECRET, stop.id, "faux")).toBe(false);
    expect(await unsubscribeAlert(database.db, SECRET, stop.id, stop.token)).toBe(true);

    expect(await sendDueAlerts(deps(), new Date())).toBe(0);
    expect(await sendDueAlerts(deps(), new Date(opening.getTime() + 1))).toBe(1);
    expect(await mailsTo("attend@example.com", "alert-available")).toHaveLength(1);
    expect(await mailsTo("plus@example.com", "alert-available")).toHaveLength(0);
  });

  it("refuses a product one cannot wait for", async () => {
    const offline = await product({ status: "hors_ligne" });
    expect(await requestAlert(deps(), { productId: offline.id, email: "x@example.com" })).toBe(false);
    expect(await requestAlert(deps(), { productId: 987_654, email: "x@example.com" })).toBe(false);
  });
});
