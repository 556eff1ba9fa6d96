/**
 * A concurrency pool that adapts to rate limits: on a 429 it halves its limit and holds new
 * calls until the server's retry-after has passed; after a run of successes it grows back by
 * one, up to the configured maximum. Waiting calls leave the queue when their signal aborts.
 */
export class AdaptivePool {
  private active = 0;
  private limit: number;
  private successes = 0;
  private resumeAt = 0;
  private readonly queue: { start: () => void; signal?: AbortSignal; onAbort: () => void }[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly max: number) {
    this.limit = Math.max(1, max);
  }

  get currentLimit(): number {
    return this.limit;
  }

  async run<T>(fn: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await fn();
    } finally {
      this.active--;
      this.pump();
    }
  }

  /** A call was rate-limited: halve the limit and pause new calls for `waitMs`. */
  rateLimited(waitMs: number): void {
    this.limit = Math.max(1, Math.floor(this.limit / 2));
    this.successes = 0;
    this.resumeAt = Math.max(this.resumeAt, Date.now() + waitMs);
  }

  succeeded(): void {
    if (this.limit >= this.max) return;
    if (++this.successes >= this.limit) {
      this.limit++;
      this.successes = 0;
      this.pump();
    }
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    if (signal?.aborted) return Promise.reject(signal.reason ?? new DOMException('Aborted', 'AbortError'));
    return new Promise((resolve, reject) => {
      const entry = {
        start: () => {
          signal?.removeEventListener('abort', entry.onAbort);
          this.active++;
          resolve();
        },
        signal,
        onAbort: () => {
          const i = this.queue.indexOf(entry);
          if (i >= 0) this.queue.splice(i, 1);
          reject(signal?.reason ?? new DOMException('Aborted', 'AbortError'));
        },
      };
      signal?.addEventListener('abort', entry.onAbort, { once: true });
      this.queue.push(entry);
      this.pump();
    });
  }

  private pump(): void {
    const wait = this.resumeAt - Date.now();
    if (wait > 0) {
      if (!this.timer) {
        this.timer = setTimeout(() => {
          this.timer = null;
          this.pump();
        }, wait);
      }
      return;
    }
    while (this.active < this.limit && this.queue.length) this.queue.shift()!.start();
  }
}
