/**
 * Events from the engine go to the page through a Comlink proxy, one message each. Progress
 * comes in bursts (one per rollout), so it is coalesced: the latest progress per phase is sent
 * at most every `intervalMs`; any other event first flushes pending progress, so the order of
 * what the page sees is kept. `close()` flushes and waits for the last delivery: Comlink does
 * not order a proxied callback's messages relative to the method's own return value.
 */
import type { RunEvent } from '../engine/events';

export type Deliver = (e: RunEvent) => unknown;

export class EventCoalescer {
  private pending = new Map<string, RunEvent>();
  private timer: ReturnType<typeof setTimeout> | null = null;
  private last: unknown = undefined;
  private lastSent = 0;

  constructor(
    private readonly deliver: Deliver,
    private readonly intervalMs = 100,
    private readonly now: () => number = () => Date.now(),
  ) {}

  push(e: RunEvent): void {
    if (e.type === 'progress') {
      this.pending.set(e.phase, e);
      if (!this.timer) {
        const wait = Math.max(0, this.intervalMs - (this.now() - this.lastSent));
        this.timer = setTimeout(() => this.flush(), wait);
      }
      return;
    }
    this.flush();
    this.send(e);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = [...this.pending.values()];
    this.pending.clear();
    for (const e of batch) this.send(e);
    if (batch.length) this.lastSent = this.now();
  }

  private send(e: RunEvent): void {
    try {
      this.last = this.deliver(e);
    } catch {
      // A closed page must not break the run.
    }
  }

  async close(final?: RunEvent): Promise<void> {
    this.flush();
    if (final) this.send(final);
    try {
      await this.last;
    } catch {
      // as above
    }
  }
}
