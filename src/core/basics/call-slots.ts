/**
 * At most `size` calls of one role under way, first come first served. A call builds its
 * prompt only once it holds a slot, so a 100 kB skill is rendered for the calls in flight,
 * not for every queued item of every phase running at the same time.
 */
export class CallSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly size: number) {}

  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.active >= Math.max(1, this.size)) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.active++;
    try {
      return await fn();
    } finally {
      // The slot passes straight to the next waiter, so `active` counts holders exactly.
      const next = this.waiting.shift();
      if (next) next();
      else this.active--;
    }
  }
}
