import { describe, expect, it } from "vitest";
import { creditBonusCents, offerPayouts, offerTotalCents } from "./buyback-offer";
import { acceptOfferSchema, ibanProblem, readOfferLines, receptionSchema } from "./buyback-offer-forms";
import { readStockChoices } from "./buyback-stock";
import { registerCsv } from "./purchase-register-csv";

const lines = [
  { description: "Dracaufeu", condition: "near-mint" as const, quantity: 2, unitPriceCents: 5000 },
  { description: "Pikachu", condition: "good" as const, quantity: 3, unitPriceCents: 333 },
];

describe("offer totals", () => {
  it("adds the lines, and the bonus on credit only, rounded down to the cent", () => {
    expect(offerTotalCents(lines)).toBe(10_999);
    expect(creditBonusCents(10_999, 10)).toBe(1099);
    expect(offerPayouts(lines, 10)).toEqual({ transfer: 10_999, credit: 12_098 });
    expect(offerPayouts(lines, 0)).toEqual({ transfer: 10_999, credit: 10_999 });
    expect(offerPayouts([], 10)).toEqual({ transfer: 0, credit: 0 });
  });
});

describe("the offer form's lines", () => {
  it("reads the filled lines in euros, skipping empty ones", () => {
    const read = readOfferLines({
      "lines.0.description": " Dracaufeu ",
      "lines.0.condition": "near-mint",
      "lines.0.quantity": "2",
      "lines.0.unitPrice": "50",
      "lines.1.description": "",
      "lines.1.unitPrice": "",
      "lines.2.description": "Pikachu",
      "lines.2.condition": "good",
      "lines.2.quantity": "3",
      "lines.2.unitPrice": "3,33",
    });
    expect(read).toEqual({ ok: true, lines });
  });

  it("says in French what is wrong, under the field's name", () => {
    expect(readOfferLines({})).toEqual({ ok: false, fieldErrors: { "lines.0.description": "Ajoutez au moins une ligne à l'offre" } });
    expect(readOfferLines({ "lines.0.description": "Carte", "lines.0.condition": "abimee", "lines.0.quantity": "0", "lines.0.unitPrice": "douze" })).toEqual({
      ok: false,
      fieldErrors: {
        "lines.0.condition": "Choisissez l'état de l'article",
        "lines.0.quantity": "La quantité doit être au moins 1",
        "lines.0.unitPrice": "Merci d'entrer un prix en euros, par exemple 12,50",
      },
    });
  });
});

describe("IBAN", () => {
  it("accepts a valid IBAN typed with spaces, in any case", () => {
    expect(ibanProblem("FR76 3000 6000 0112 3456 7890 189")).toBeNull();
    expect(ibanProblem("fr7630006000011234567890189")).toBeNull();
  });

  it("explains a wrong key, length or country in French", () => {
    expect(ibanProblem("")).toBe("L'IBAN est obligatoire");
    expect(ibanProblem("FR76 3000 6000 0112 3456 7890 188")).toBe("Cet IBAN contient une erreur (sa clé de contrôle ne correspond pas) : vérifiez-le");
    expect(ibanProblem("FR76 3000 6000 0112 3456 7890")).toBe("Cet IBAN n'a pas la bonne longueur pour son pays");
    expect(ibanProblem("ZZ76 3000 6000 0112 3456 7890 189")).toBe("Cet IBAN ne commence pas par un code pays connu (FR76…)");
  });

  it("asks for the IBAN and holder only for a transfer, and keeps the IBAN without spaces", () => {
    const address = "12 rue des Lilas, 69001 Lyon";
    expect(acceptOfferSchema.parse({ means: "credit", address })).toEqual({ means: "credit", address, transfer: null });
    expect(acceptOfferSchema.parse({ means: "transfer", address, accountHolder: "Marie Dupont", iban: "FR76 3000 6000 0112 3456 7890 189" })).toEqual({
      means: "transfer",
      address,
      transfer: { accountHolder: "Marie Dupont", iban: "FR7630006000011234567890189" },
    });
    const refused = acceptOfferSchema.safeParse({ means: "transfer", address, accountHolder: "", iban: "FR7630006000011234567890188" });
    expect(refused.success).toBe(false);
    expect(refused.error!.issues.map((issue) => [issue.path[0], issue.message])).toEqual([
      ["accountHolder", "Indiquez le titulaire du compte"],
      ["iban", "Cet IBAN contient une erreur (sa clé de contrôle ne correspond pas) : vérifiez-le"],
    ]);
  });
});

describe("reception and stock", () => {
  it("requires every part of the identity document", () => {
    const refused = receptionSchema.safeParse({ idType: "", idNumber: "", idAuthority: "", idIssuedOn: "", address: "" });
    expect(refused.error!.issues.map((issue) => issue.path[0])).toEqual(["idType", "idNumber", "idAuthority", "idIssuedOn", "address"]);
    expect(receptionSchema.parse({ idType: "cni", idNumber: "X1234567", idAuthority: "Préfecture du Rhône", idIssuedOn: "2020-03-14", address: "12 rue des Lilas, 69001 Lyon" }).idType).toBe("cni");
  });

  it("reads one stock choice per line", () => {
    expect(
      readStockChoices({ "stock.0.mode": "new", "stock.0.title": "Dracaufeu", "stock.0.category": "TCG", "stock.0.price": "80", "stock.0.publish": "on", "stock.1.mode": "existing", "stock.1.productId": "7", "stock.2.mode": "skip" }, 3),
    ).toEqual({ ok: true, choices: [{ mode: "new", title: "Dracaufeu", category: "TCG", priceCents: 8000, publish: true }, { mode: "existing", productId: 7 }, { mode: "skip" }] });
    expect(readStockChoices({ "stock.0.mode": "existing", "stock.0.productId": "" }, 2)).toEqual({
      ok: false,
      fieldErrors: { "stock.0.productId": "Choisissez le produit", "stock.1.mode": "Choisissez ce que devient cette ligne" },
    });
  });
});

describe("the register's CSV", () => {
  it("has one row per entry, amounts with a decimal comma, typed text neutralised", () => {
    const csv = registerCsv([
      {
        number: 1,
        recordedAt: new Date("2026-11-29T10:00:00.000Z"),
        sellerName: "=Marie Dupont",
        sellerAddress: "12 rue des Lilas, 69001 Lyon",
        idType: "cni",
        idNumber: "X1234567",
        idAuthority: "Préfecture du Rhône",
        idIssuedOn: "2020-03-14",
        description: "Dracaufeu",
        quantity: 2,
        unitPriceCents: 5000,
        totalCents: 10_000,
        paymentMeans: "credit",
        correctsNumber: null,
        correctionReason: null,
      },
    ]);
    const [header, row] = csv.replace(/^\uFEFF/, "").trim().split("\r\n");
    expect(header!.startsWith("N°;Date;Vendeur;Adresse;Pièce d'identité")).toBe(true);
    expect(row).toBe("1;29/11/2026 11:00;'=Marie Dupont;12 rue des Lilas, 69001 Lyon;Carte nationale d'identité;X1234567;Préfecture du Rhône;14/03/2020;Dracaufeu;2;50,00;100,00;Avoir en boutique;");
  });
});
