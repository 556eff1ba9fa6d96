import { describe, expect, it } from 'vitest';
import { AdaptivePool } from '../../src/llm/pool';

const tick = () => new Promise((r) => setTimeout(r, 0));

/** A call that finishes when the test says so. */
function gate() {
  let open!: () => void;
  const done = new Promise<void>((r) => (open = r));
  return { done, open };
}

/** The run's signal, counting the listeners added to it (the pool should add one, not one per call). */
function countedSignal() {
  const ac = new AbortController();
  const add = ac.signal.addEventListener.bind(ac.signal);
  const remove = ac.signal.removeEventListener.bind(ac.signal);
  const counts = { added: 0, removed: 0 };
  ac.signal.addEventListener = ((...a: Parameters<AbortSignal['addEventListener']>) => {
    counts.added++;
    add(...a);
  }) as AbortSignal['addEventListener'];
  ac.signal.removeEventListener = ((...a: Parameters<AbortSignal['removeEventListener']>) => {
    counts.removed++;
    remove(...a);
  }) as AbortSignal['removeEventListener'];
  return { ac, counts };
}

describe('AdaptivePool', () => {
  it('runs at most its limit at once, in the order calls arrive', async () => {
    const pool = new AdaptivePool(2);
    const started: number[] = [];
    const gates = Array.from({ length: 5 }, gate);
    const runs = gates.map((g, i) => pool.run(async () => (started.push(i), g.done)));
    await tick();
    expect(started).toEqual([0, 1]);
    gates[1].open();
    await tick();
    expect(started).toEqual([0, 1, 2]);
    gates.forEach((g) => g.open());
    await Promise.all(runs);
    expect(started).toEqual([0, 1, 2, 3, 4]);
  });

  it('takes waiting calls out of the queue when their signal aborts, with its reason; the others go on', async () => {
    const pool = new AdaptivePool(1);
    const { ac, counts } = countedSignal();
    const first = gate();
    const running = pool.run(() => first.done, ac.signal);
    const waiting = Array.from({ length: 50 }, () => pool.run(async () => 'ran', ac.signal));
    const other = pool.run(async () => 'other');
    await tick();
    expect(counts.added - counts.removed).toBe(1); // one listener for the 50 waiting calls
    ac.abort('pause');
    for (const w of waiting) await expect(w).rejects.toBe('pause');
    first.open();
    await running;
    expect(await other).toBe('other');
    await expect(pool.run(async () => 'late', ac.signal)).rejects.toBe('pause');
  });

  it('leaves no listener on the signal once its calls have started, and adds none for a call that starts at once', async () => {
    const pool = new AdaptivePool(2);
    const { ac, counts } = countedSignal();
    await pool.run(async () => 'alone', ac.signal);
    expect(counts.added).toBe(0);
    await Promise.all(Array.from({ length: 20 }, (_, i) => pool.run(async () => i, ac.signal)));
    expect(counts.added).toBeGreaterThan(0);
    expect(counts.removed).toBe(counts.added);
  });

  it('holds new calls until a rate limit’s wait has passed, even with free slots', async () => {
    const pool = new AdaptivePool(4);
    pool.rateLimited(60);
    const t0 = Date.now();
    await pool.run(async () => 'after the wait');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
  });

  it('halves its limit on a rate limit and grows back by one after a run of successes', async () => {
    const pool = new AdaptivePool(8);
    pool.rateLimited(0);
    expect(pool.currentLimit).toBe(4);
    for (let i = 0; i < 4; i++) pool.succeeded();
    expect(pool.currentLimit).toBe(5);
  });
});
