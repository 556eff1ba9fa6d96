import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { CallSlots } from '../../../src/core/basics/call-slots';

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('CallSlots', () => {
  it('never has more than `size` calls under way, and uses all of them when there is work', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 25 }), fc.integer({ min: 1, max: 6 }), async (delays, size) => {
        const slots = new CallSlots(size);
        let active = 0;
        let peak = 0;
        const out = await Promise.all(
          delays.map((d, i) =>
            slots.run(async () => {
              peak = Math.max(peak, ++active);
              await tick(d);
              active--;
              return i;
            }),
          ),
        );
        expect(out).toEqual(delays.map((_, i) => i));
        expect(peak).toBe(Math.min(size, delays.length));
      }),
      { numRuns: 40 },
    );
  });

  it('starts a queued call only when a slot opens, first come first served', async () => {
    const slots = new CallSlots(2);
    const started: number[] = [];
    const finish: (() => void)[] = [];
    const runs = [0, 1, 2, 3].map((i) =>
      slots.run(() => {
        started.push(i);
        return new Promise<number>((resolve) => (finish[i] = () => resolve(i)));
      }),
    );
    await tick(0);
    expect(started).toEqual([0, 1]);
    finish[1]();
    await tick(0);
    expect(started).toEqual([0, 1, 2]);
    finish[0]();
    await tick(0);
    expect(started).toEqual([0, 1, 2, 3]);
    finish[2]();
    finish[3]();
    expect(await Promise.all(runs)).toEqual([0, 1, 2, 3]);
  });

  it('frees the slot of a call that throws', async () => {
    const slots = new CallSlots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await slots.run(async () => 'next')).toBe('next');
  });
});
