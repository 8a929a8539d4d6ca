/**
 * `work`'s result, or a rejection once `ms` have passed without one. The server's render waits
 * for everything the page suspends on; this gives it up (a 500) rather than let a promise that
 * never settles hold the visitor's connection.
 */
export function withinTimeout<T>(work: T | Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`Gave up after ${ms} ms`)), ms);
  });
  return Promise.race([Promise.resolve(work), expired]).finally(() => clearTimeout(timer));
}
