/**
 * A map that keeps at most `maxSize` in total (each value's `sizeOf`, 1 by default), dropping
 * the least recently used first: Map keeps insertion order, so a value read or written moves
 * to the end and the oldest is first. The page cache, the parts' markup and the kept listings
 * each hold one.
 */
export class LruMap<K, V> {
  private readonly values = new Map<K, V>();
  private sizes = 0;

  constructor(
    private readonly maxSize: number,
    private readonly sizeOf: (value: V, key: K) => number = () => 1,
  ) {}

  /** The value, marked as the most recently used. */
  get(key: K): V | undefined {
    const value = this.values.get(key);
    if (value !== undefined) {
      this.values.delete(key);
      this.values.set(key, value);
    }
    return value;
  }

  /** The value, left where it is in the order. */
  peek(key: K): V | undefined {
    return this.values.get(key);
  }

  set(key: K, value: V): void {
    this.delete(key);
    this.values.set(key, value);
    this.sizes += this.sizeOf(value, key);
    for (const oldest of this.values.keys()) {
      if (this.sizes <= this.maxSize) break;
      this.delete(oldest);
    }
  }

  delete(key: K): void {
    const value = this.values.get(key);
    if (value === undefined) return;
    this.sizes -= this.sizeOf(value, key);
    this.values.delete(key);
  }

  clear(): void {
    this.values.clear();
    this.sizes = 0;
  }

  entries(): IterableIterator<[K, V]> {
    return this.values.entries();
  }

  /** How many values, and their total size. */
  get count(): number {
    return this.values.size;
  }
  get size(): number {
    return this.sizes;
  }
}
