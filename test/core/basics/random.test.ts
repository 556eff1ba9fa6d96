import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { SeededRandom, shuffled } from '../../../src/core/basics/random';

// Expected values printed by CPython 3.11's random module (algorithm doc, Appendix A).
describe('SeededRandom matches CPython random.Random', () => {
  it('getrandbits(32) for seed 42', () => {
    const r = new SeededRandom(42);
    expect([r.nextUint32(), r.nextUint32(), r.nextUint32()]).toEqual([2746317213, 478163327, 107420369]);
  });
  it.each([
    [42, 10, [7, 3, 2, 8, 5, 6, 9, 4, 0, 1]],
    [1042, 20, [5, 0, 15, 3, 17, 9, 16, 8, 12, 2, 13, 6, 19, 18, 14, 10, 1, 11, 4, 7]],
    [2 ** 40 + 5, 7, [1, 3, 5, 0, 2, 6, 4]],
  ])('shuffle(range(n)) with seed %d', (seed, n, expected) => {
    expect(shuffled([...Array(n).keys()], seed)).toEqual(expected);
  });
  it('random() floats', () => {
    expect(new SeededRandom(0).nextFloat()).toBe(0.8444218515250481);
    expect(new SeededRandom(7).nextFloat()).toBe(0.32383276483316237);
  });
  it('negative seeds use |n| as CPython does', () => {
    expect(shuffled([1, 2, 3, 4, 5], -42)).toEqual(shuffled([1, 2, 3, 4, 5], 42));
  });
  it('refuses non-integer seeds', () => {
    expect(() => new SeededRandom(1.5)).toThrow(RangeError);
    expect(() => new SeededRandom(2 ** 60)).toThrow(/bigint/);
  });
  // Issue #9 item 19: seeds of any size, as bigints (CPython 3.11: r = random.Random(s); r.shuffle(l)).
  it.each([
    [BigInt(2) ** BigInt(53), [2, 6, 8, 4, 1, 0, 9, 3, 5, 7]],
    [BigInt(2) ** BigInt(53) + BigInt(1), [2, 7, 6, 1, 3, 0, 8, 9, 4, 5]],
    [BigInt(2) ** BigInt(64) + BigInt(5), [7, 4, 3, 5, 0, 2, 6, 1, 9, 8]],
    [BigInt('12345678901234567890123'), [7, 3, 4, 0, 8, 5, 1, 6, 9, 2]],
  ])('shuffle(range(10)) with the big seed %s', (seed, expected) => {
    expect(shuffled([...Array(10).keys()], seed)).toEqual(expected);
    expect(shuffled([...Array(10).keys()], -seed)).toEqual(expected);
  });
  it('a bigint seed below 2^53 equals the same number seed', () => {
    expect(shuffled([...Array(20).keys()], BigInt(1042))).toEqual(shuffled([...Array(20).keys()], 1042));
  });
});

describe('shuffle invariants', () => {
  it('is a permutation, leaves the input untouched, and is stable under the seed', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), fc.integer({ min: 0, max: 2 ** 31 }), (xs, seed) => {
        const copy = [...xs];
        const a = shuffled(xs, seed);
        expect(xs).toEqual(copy);
        expect([...a].sort((p, q) => p - q)).toEqual([...xs].sort((p, q) => p - q));
        expect(shuffled(xs, seed)).toEqual(a);
      }),
    );
  });
  it('below(n) stays in range', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 32 - 1 }), fc.integer({ min: 0, max: 1e9 }), (n, seed) => {
        const v = new SeededRandom(seed).below(n);
        return Number.isInteger(v) && v >= 0 && v < n;
      }),
    );
  });
});
