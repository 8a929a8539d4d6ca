import { Transform, type TransformCallback } from "node:stream";

/**
 * Between React's stream and the response: React writes in 4 KB pieces and calls `flush()` at
 * the end of each round (the shell, then each Suspense boundary that resolves). This passes a
 * round on as one chunk. @react-router/node flushes the response after every chunk it reads,
 * and a flush of the compression stream is costly: piece by piece, it was about a fifth of an
 * uncached page's server CPU (a /catalog render), and compressed worse. Streaming is kept: a
 * round still leaves as soon as React finishes it.
 */
export class FlushCoalescer extends Transform {
  private pending: Buffer[] = [];

  constructor(private readonly onEnd: () => void = () => {}) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.pending.push(chunk);
    callback();
  }

  /** Called by React at the end of each round. */
  flush(): void {
    if (this.pending.length === 0) return;
    this.push(this.pending.length === 1 ? this.pending[0] : Buffer.concat(this.pending));
    this.pending = [];
  }

  override _flush(callback: TransformCallback): void {
    this.flush();
    this.onEnd();
    callback();
  }
}
