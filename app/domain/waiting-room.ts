import type { DropStartMode } from "./drop-form";

/**
 * A drop's waiting room (issue 39, point 3), its rules as pure functions: who is admitted when,
 * and in which order. The state lives in the database (services/waiting-room.server.ts), so every
 * instance agrees and one stopped mid-drop loses nobody's place.
 */

/** An admitted buyer's time to start a checkout; then the admission goes to the next in line. */
export const ADMISSION_MINUTES = 5;
/** Admissions open at once, per free unit: some admitted buyers never check out. */
export const ADMISSION_MARGIN = 1.5;
/**
 * Tickets one network may take for one drop. An IPv6 /64 is one subscriber's line: a household
 * (2). An IPv4 address is often shared by many (an office, a carrier's NAT): 10. Tighter, scripts
 * holding many mailboxes on one line would fill the fair start's draw (the benchmark saw 10 per
 * /64 give 20 scripts 17 % of the tickets).
 */
export const TICKETS_PER_IPV6_NETWORK = 2;
export const TICKETS_PER_IPV4_ADDRESS = 10;

/**
 * With a collector behind each ticket (a fair start, domain/drop-identity.ts) the bound only
 * stops floods, and a carrier's NAT puts many collectors behind one IPv4 address: 200; an IPv6
 * /64 stays one subscriber's line: 10.
 */
export const COLLECTOR_TICKETS_PER_IPV4_ADDRESS = 200;
export const COLLECTOR_TICKETS_PER_IPV6_NETWORK = 10;

/** The bound for a network as domain/network-key.ts writes it ("…::/64" for IPv6), for tickets with or without a collector. */
export function ticketsPerNetwork(network: string, collectors = false): number {
  const ipv6 = network.endsWith("/64");
  if (collectors) return ipv6 ? COLLECTOR_TICKETS_PER_IPV6_NETWORK : COLLECTOR_TICKETS_PER_IPV4_ADDRESS;
  return ipv6 ? TICKETS_PER_IPV6_NETWORK : TICKETS_PER_IPV4_ADDRESS;
}
/** A join past its network's bound. */
export const NETWORK_FULL_MESSAGE = "Trop de places prises depuis votre connexion pour cette sortie.";
/** How often a waiting page asks for its place (sold out is then seen within this and the server's round). */
export const QUEUE_POLL_MS = 2_000;
/** Between two looks at a room the buyer is not in (its figures, its opening): the live channel says sooner. */
export const IDLE_POLL_MS = 10_000;
/** The longest wait between two tries while the connection fails. */
export const RETRY_MAX_MS = 30_000;
/** Failed looks in a row before the page says the connection is lost. */
export const FAILURES_SHOWN = 2;

/**
 * When a waiting page looks again (issue 50): after a look that answered, at the pace of its
 * state (none after sold out); after `failures` failed ones in a row, twice as late each time up
 * to RETRY_MAX_MS, spread by `jitter` (uniform in [0, 1)) so a thousand phones back online do not
 * come back on the same millisecond. Never stops but at sold out: one lost request must not
 * freeze a page for good.
 */
export function nextLookDelay(view: QueueView | null, failures: number, jitter: number): number | null {
  if (view?.state === "sold_out") return null;
  const pace = view === null || view.state === "waiting" || view.state === "admitted" ? QUEUE_POLL_MS : IDLE_POLL_MS;
  if (failures === 0) return pace;
  const backoff = Math.min(QUEUE_POLL_MS * 2 ** (failures - 1), RETRY_MAX_MS);
  return Math.round(backoff * (0.5 + jitter));
}

/** Ranks below this are the fair start's draw; arrival ranks come after every one of them. */
export const FAIR_RANK_RANGE = 2 ** 40;

/** How many more buyers to admit now: about 1.5 × the units not sold and not held, less the admissions still open. */
export function admissionSlots(freeUnits: number, openAdmissions: number): number {
  return Math.max(0, Math.ceil(Math.max(0, freeUnits) * ADMISSION_MARGIN) - openAdmissions);
}

/** The waiting room opens this long before the drop (the window of the fair start's draw). */
export function queueOpensAt(dropTime: Date, windowMinutes: number): Date {
  return new Date(dropTime.getTime() - windowMinutes * 60_000);
}

/**
 * A new ticket's place. A fair start's arrival before the opening gets a random rank: all of
 * them are admitted before anyone who came after the opening, in the order of the draw (free
 * entry, nothing held: no lottery in the sense of CSI L322-1/2). Otherwise the arrival time, to
 * the millisecond, with a random tie-break.
 * `random` is a uniform integer in [0, FAIR_RANK_RANGE).
 */
export function ticketRank(mode: DropStartMode, dropTime: Date, joinedAt: Date, random: number): number {
  if (mode === "fair_start" && joinedAt < dropTime) return random;
  return FAIR_RANK_RANGE + joinedAt.getTime() * 1000 + (random % 1000);
}

export type QueueFigures = { available: number; held: number; sold: number };

/** What a waiting page shows. */
export type QueueView =
  | { state: "closed"; opensAt: string; figures: QueueFigures }
  | { state: "open"; figures: QueueFigures }
  | { state: "waiting"; position: number; figures: QueueFigures }
  | { state: "admitted"; expiresAt: string; figures: QueueFigures }
  | { state: "sold_out"; figures: QueueFigures };

/** Sold out for good: no unit on sale and none held by an unpaid order that could come back. */
export function isSoldOut(figures: QueueFigures): boolean {
  return figures.available <= 0 && figures.held <= 0;
}
