import type { Db } from "~/db/types";
import { countDropRefusal, type DropRefusalReason } from "./drop-limits.server";

/**
 * This process's count of the drop checkouts refused before any database work (out of turn, a
 * forged or ended admission), written to the fairness summary's counters once a second by the
 * waiting room's round: a script's flood at the opening costs no write per post, yet every
 * refusal is counted (issue 50: « Aucun refus. » after 55 of them).
 */
export class DropRefusalTally {
  private counts = new Map<string, { productId: number; reason: DropRefusalReason; count: number }>();

  add(productId: number, reason: DropRefusalReason): void {
    const key = `${productId}|${reason}`;
    const entry = this.counts.get(key) ?? { productId, reason, count: 0 };
    entry.count += 1;
    this.counts.set(key, entry);
  }

  /** Writes what was counted since the last flush (and forgets it; a failed write puts it back). */
  async flush(db: Db): Promise<void> {
    const entries = [...this.counts.values()];
    this.counts.clear();
    for (const [index, entry] of entries.entries()) {
      try {
        await countDropRefusal(db, entry.productId, entry.reason, entry.count);
      } catch (error) {
        for (const left of entries.slice(index)) for (let i = 0; i < left.count; i++) this.add(left.productId, left.reason);
        throw error;
      }
    }
  }
}
