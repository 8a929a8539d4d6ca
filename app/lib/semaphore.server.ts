/**
 * At most `size` tasks at once, the others waiting their turn in order: a bound on work that
 * takes much memory or CPU however many requests ask for it together.
 */
export class Semaphore {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`Semaphore size must be a positive integer, not ${size}`);
  }

  /** Tasks running now, and waiting for a turn. */
  get load(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Runs `task` once a turn is free; the turn is handed on when it settles, thrown or not. */
  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.size) this.running++;
    else await new Promise<void>((resolve) => this.waiting.push(resolve)); // the finishing task hands its turn over
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }
}

/**
 * Image decoding by sharp, for every request together (buy-back photos, product images): a
 * decoded image takes about 4 bytes a pixel (200 MB at the 50-megapixel limit), so ten posts
 * of five photos decoded at once would take gigabytes. Two at a time keep the process's memory
 * bounded and both cores busy; the others wait their turn.
 */
export const IMAGE_DECODING_CONCURRENCY = 2;
export const imageDecoding = new Semaphore(IMAGE_DECODING_CONCURRENCY);

/**
 * One task at a time per key, the keys independent of each other (a Semaphore of 1 per key): a
 * key's tasks wait their turn in this process, in order, holding nothing else meanwhile. Only
 * the keys with a task running or waiting are kept.
 */
export class OneAtATimePerKey {
  private readonly turns = new Map<string, Semaphore>();

  /** Keys with a task running or waiting. */
  get keys(): number {
    return this.turns.size;
  }

  /** A key's tasks running or waiting. */
  pending(key: string): number {
    const load = this.turns.get(key)?.load;
    return load ? load.running + load.waiting : 0;
  }

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    let turn = this.turns.get(key);
    if (!turn) this.turns.set(key, (turn = new Semaphore(1)));
    try {
      return await turn.run(task);
    } finally {
      if (turn.load.running === 0 && turn.load.waiting === 0 && this.turns.get(key) === turn) this.turns.delete(key);
    }
  }
}
