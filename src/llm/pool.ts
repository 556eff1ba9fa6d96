/**
 * A concurrency pool that adapts to rate limits: on a 429 it halves its limit and holds new
 * calls until the server's retry-after has passed; after a run of successes it grows back by
 * one, up to the configured maximum. Waiting calls leave the queue when their signal aborts.
 */
interface Waiting {
  start: () => void;
  fail: (reason: unknown) => void;
}

/** The calls waiting on one signal, and the one abort listener they share. */
interface SignalWaiters {
  entries: Set<Waiting>;
  onAbort: () => void;
}

export class AdaptivePool {
  private active = 0;
  private limit: number;
  private successes = 0;
  private resumeAt = 0;
  private queue: Waiting[] = [];
  // One listener per signal, not one per waiting call: a phase queues hundreds of calls on the
  // run's signal, and adding a listener scans the ones already there (quadratic in the queue).
  private readonly waiters = new Map<AbortSignal, SignalWaiters>();
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
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    // A free slot and nobody waiting: start now, with no listener to add and remove (the usual case).
    if (!this.queue.length && this.active < this.limit && this.resumeAt <= Date.now()) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const entry: Waiting = {
        start: () => {
          if (signal) this.leave(signal, entry);
          this.active++;
          resolve();
        },
        fail: reject,
      };
      if (signal) this.waitersOf(signal).entries.add(entry);
      this.queue.push(entry);
      this.pump();
    });
  }

  private waitersOf(signal: AbortSignal): SignalWaiters {
    let w = this.waiters.get(signal);
    if (!w) {
      const entries = new Set<Waiting>();
      const onAbort = () => {
        this.waiters.delete(signal);
        this.queue = this.queue.filter((e) => !entries.has(e));
        for (const e of entries) e.fail(abortReason(signal));
      };
      w = { entries, onAbort };
      this.waiters.set(signal, w);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    return w;
  }

  private leave(signal: AbortSignal, entry: Waiting): void {
    const w = this.waiters.get(signal);
    if (!w) return;
    w.entries.delete(entry);
    if (w.entries.size) return;
    signal.removeEventListener('abort', w.onAbort);
    this.waiters.delete(signal);
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

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('Aborted', 'AbortError');
}
