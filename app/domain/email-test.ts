import { computeOrderTotals } from "./checkout";
import { STANDARD_VAT_BP } from "./vat";
import { allocateVat } from "./vat-allocation";
import type { OrderView, ShippingAddress } from "./order-view";
import { formatOrderNumber } from "./order-number";

/**
 * The admin's e-mail test (SPEC.md section 2, Test-email page): a test order, built in memory
 * and never stored, whose customer confirmation and seller notification go through the real
 * mail path. Pure parts: the order, what the page and its toasts say.
 */

/** Test orders are numbered like real ones, with this prefix instead of the shop's. */
export const TEST_ORDER_PREFIX = "TEST";

export type TestOrderLine = {
  productId: number | null;
  name: string;
  unitPriceCents: number;
};

/** Used when the catalogue has no product online: the test still shows a realistic order. */
export const SAMPLE_TEST_LINES: TestOrderLine[] = [
  {
    productId: null,
    name: "Booster Écarlate et Violet (test)",
    unitPriceCents: 599,
  },
  {
    productId: null,
    name: "Display Astres Radieux (test)",
    unitPriceCents: 15_990,
  },
];

/** A home delivery as the default methods price it (migration 0014). */
const TEST_DELIVERY = {
  methodName: "Colissimo à domicile",
  kind: "home" as const,
  deliveryTime: "2 à 3 jours ouvrés",
  cents: 899,
};

/** The first line once, the second twice: the e-mails show a quantity above 1. */
const QUANTITIES = [1, 2];

const TEST_ADDRESS: Omit<ShippingAddress, "fullName"> = {
  method: "home",
  line1: "1 rue de l'Exemple",
  line2: "Commande de test",
  postalCode: "75001",
  city: "Paris",
  country: "FR",
};

/**
 * A paid order for the test, with the real totals (subtotal, parcel insurance chosen, total)
 * computed by the checkout's own rules. `lines` are the first two products (or SAMPLE_TEST_LINES).
 */
export function buildTestOrder(input: {
  lines: TestOrderLine[];
  customer: { name: string; email: string };
  now: Date;
  random4: number;
}): OrderView {
  const source = input.lines.length > 0 ? input.lines : SAMPLE_TEST_LINES;
  const lines = source.slice(0, QUANTITIES.length).map((line, index) => {
    const quantity = QUANTITIES[index]!;
    return {
      ...line,
      quantity,
      lineTotalCents: line.unitPriceCents * quantity,
    };
  });
  const goods = lines.reduce((sum, line) => sum + line.lineTotalCents, 0);
  // Free from 100 € of goods, as the default Colissimo method.
  const shippingCents = goods >= 10_000 ? 0 : TEST_DELIVERY.cents;
  const totals = computeOrderTotals(lines, true, 0, shippingCents);
  const vat = allocateVat(
    lines.map((line) => ({
      totalCents: line.lineTotalCents,
      vatRateBp: STANDARD_VAT_BP,
      vatScheme: "normal" as const,
    })),
    0,
    totals.insuranceCents + shippingCents,
    false,
  );
  const at = input.now.toISOString();
  return {
    // Never stored: the id only fills the shape (no invoice link is made for a test order).
    id: "00000000-0000-4000-8000-000000000000",
    number: formatOrderNumber(
      TEST_ORDER_PREFIX,
      input.now.getTime(),
      input.random4,
    ),
    status: "paid",
    refundReason: null,
    createdAt: at,
    paidAt: at,
    customerEmail: input.customer.email,
    customerName: input.customer.name,
    lines,
    ...totals,
    discountCode: null,
    shippingAddress: { ...TEST_ADDRESS, fullName: input.customer.name },
    shipping: { ...TEST_DELIVERY, cents: shippingCents },
    vatRegime: "normal",
    vatBreakdown: vat.breakdown,
    documents: [],
  };
}

/** The number of articles: the sum of the quantities. */
export function itemCount(order: Pick<OrderView, "lines">): number {
  return order.lines.reduce((sum, line) => sum + line.quantity, 0);
}

export type TestEmailStatus = "sent" | "queued" | "failed";

/** One e-mail of the test: what happened to it, as SPEC.md's result boxes show it. */
export type TestEmailOutcome = {
  status: TestEmailStatus;
  sentTo: string;
  /** The relay's Message-ID once sent; the outbox id while it waits or after a failure. */
  id: string;
  /** Its copy in the outbox (/admin/emails/{id}). */
  outboxId: string;
  error: string | null;
};

export type EmailTestResult = {
  success: boolean;
  error: string | null;
  confirmationEmail: TestEmailOutcome;
  notificationEmail: TestEmailOutcome;
  orderDetails: { orderNumber: string; totalCents: number; items: number };
};

/** What the action answers: the test's result, a refusal (run too soon after the last one) or an unexpected failure. */
export type EmailTestAnswer =
  | { kind: "result"; result: EmailTestResult }
  | { kind: "refused"; error: string }
  | { kind: "error"; error: string | null };

export const TEST_EMAIL_STATUS_LABELS: Record<TestEmailStatus, string> = {
  sent: "Envoyé",
  queued: "En file d'attente",
  failed: "Échec",
};
export const TEST_EMAIL_STATUS_TONES = {
  sent: "success",
  queued: "warning",
  failed: "destructive",
} as const;

export const EMAIL_LABELS = {
  confirmationEmail: "Confirmation client",
  notificationEmail: "Notification vendeur",
} as const;

export const TOO_SOON =
  "Un test vient d'être lancé\u00a0: attendez quelques secondes avant d'en lancer un autre.";

/** The result's error: which e-mails failed, and the first reason; null when none failed. */
export function emailTestError(
  result: Pick<EmailTestResult, "confirmationEmail" | "notificationEmail">,
): string | null {
  const failed = (["confirmationEmail", "notificationEmail"] as const).filter(
    (key) => result[key].status === "failed",
  );
  if (failed.length === 0) return null;
  const labels = failed
    .map((key) => EMAIL_LABELS[key].toLowerCase())
    .join(" et ");
  const reason = result[failed[0]!].error ?? "raison inconnue";
  return `Envoi impossible (${labels})\u00a0: ${reason}`;
}

/** The toast of an answer (SPEC.md section 8, E-mail test), also shown in the page. */
export function emailTestToast(answer: EmailTestAnswer): {
  ok: boolean;
  toast: { title: string; description: string };
} {
  if (answer.kind === "result" && answer.result.success) {
    return {
      ok: true,
      toast: {
        title: "Test réussi",
        description: "Les emails de test ont été envoyés avec succès.",
      },
    };
  }
  if (answer.kind === "error")
    return {
      ok: false,
      toast: {
        title: "Erreur",
        description: answer.error || "Erreur inconnue",
      },
    };
  const error = answer.kind === "refused" ? answer.error : answer.result.error;
  return {
    ok: false,
    toast: {
      title: "Échec du test",
      description: error || "Une erreur est survenue lors du test des emails.",
    },
  };
}
