/**
 * What this server process knows about a drop, so that the 990 buyers who arrive after the last
 * unit are answered without queueing behind each other in the database
 * (docs/decisions/008-drop-stock-gate.md):
 *
 * - checkouts of the same product take turns in this process (`exclusive`); waiting costs
 *   nothing, and the database row would serialise them anyway;
 * - each checkout leaves behind the stock it saw (`remember`): a later checkout asking for more
 *   than that is refused at once (`shortage`), without a database round trip;
 * - every change to the product announced by the database (NOTIFY catalog_changes, heard by
 *   every instance) forgets it (`changed`), and a stock read before a change is never kept
 *   after it (a version per product). Knowledge also expires after `ttlMs`.
 *
 * The database stays the only judge of a sale: the gate can only refuse early a checkout that
 * the conditional UPDATE would have refused too.
 */
export type Shortage = { productId: number; name: string; stock: number };

export class StockGate {
  private readonly known = new Map<number, { stock: number; name: string; at: number }>();
  private readonly versions = new Map<number, number>();
  private readonly tails = new Map<number, Promise<void>>();
  private epoch = 0;

  constructor(private readonly options: { ttlMs?: number; now?: () => number } = {}) {}

  private get now() {
    return (this.options.now ?? Date.now)();
  }

  /** The product's version now: pass it back to `remember` with what was read after it. */
  version(productId: number): string {
    return `${this.epoch}:${this.versions.get(productId) ?? 0}`;
  }

  /** A product changed (or, without an id, anything may have: a lost connection). */
  changed(productId?: number): void {
    if (productId === undefined) {
      this.epoch += 1;
      this.known.clear();
      return;
    }
    this.versions.set(productId, (this.versions.get(productId) ?? 0) + 1);
    this.known.delete(productId);
  }

  /** Keeps the stock read for a product, unless the product changed since `version`. */
  remember(productId: number, stock: number, name: string, version: string): void {
    if (this.version(productId) !== version) return;
    this.known.set(productId, { stock, name, at: this.now });
  }

  /** The first line asking for more than the known stock, if any. */
  shortage(lines: { productId: number; quantity: number }[]): Shortage | null {
    for (const line of lines) {
      const known = this.known.get(line.productId);
      if (!known) continue;
      if (this.now - known.at > (this.options.ttlMs ?? 30_000)) {
        this.known.delete(line.productId);
        continue;
      }
      if (known.stock < line.quantity) return { productId: line.productId, name: known.name, stock: known.stock };
    }
    return null;
  }

  /** Runs `task` once no other task of this process holds any of these products (FIFO each). */
  async exclusive<T>(productIds: number[], task: () => Promise<T>): Promise<T> {
    const releases: (() => void)[] = [];
    try {
      // Always in id order: two carts sharing products cannot wait for each other.
      for (const id of [...new Set(productIds)].sort((a, b) => a - b)) releases.push(await this.lock(id));
      return await task();
    } finally {
      for (const release of releases.reverse()) release();
    }
  }

  private lock(productId: number): Promise<() => void> {
    const previous = this.tails.get(productId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.tails.set(productId, tail);
    return previous.then(() => () => {
      release();
      if (this.tails.get(productId) === tail) this.tails.delete(productId);
    });
  }
}
