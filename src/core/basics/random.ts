/**
 * Seeded randomness. MT19937 seeded the way CPython's `random.Random(n)` is, with CPython's
 * `shuffle`, so a seed gives the same permutation here as in the reference implementation
 * (algorithm doc, Appendix A). Nothing else in the app may use Math.random.
 */
export class SeededRandom {
  private readonly mt = new Uint32Array(624);
  private index = 625;

  /** Any integer seed: a number (a safe integer) or a bigint, for 64-bit and larger seeds as CPython takes them. */
  constructor(seed: number | bigint) {
    if (typeof seed === 'number' && !Number.isSafeInteger(seed)) {
      throw new RangeError(`seed must be an integer (a bigint above 2^53), got ${seed}`);
    }
    this.initByArray(toKey(BigInt(seed) < BigInt(0) ? -BigInt(seed) : BigInt(seed)));
  }

  /** A uniformly distributed 32-bit unsigned integer. */
  nextUint32(): number {
    if (this.index >= 624) this.twist();
    let y = this.mt[this.index++];
    y ^= y >>> 11;
    y = (y ^ ((y << 7) & 0x9d2c5680)) >>> 0;
    y = (y ^ ((y << 15) & 0xefc60000)) >>> 0;
    y ^= y >>> 18;
    return y >>> 0;
  }

  /** `k` random bits (1 ≤ k ≤ 32), as CPython's getrandbits for k ≤ 32. */
  getRandBits(k: number): number {
    return this.nextUint32() >>> (32 - k);
  }

  /** A uniform integer in [0, n), as CPython's _randbelow (rejection sampling, no modulo bias). */
  below(n: number): number {
    if (n <= 0) throw new RangeError('below(n) needs n > 0');
    if (n >= 2 ** 32) throw new RangeError('below(n) supports n < 2^32');
    const k = 32 - Math.clz32(n);
    let r = this.getRandBits(k);
    while (r >= n) r = this.getRandBits(k);
    return r;
  }

  /** A float in [0, 1) with 53 random bits, as CPython's random(). */
  nextFloat(): number {
    const a = this.nextUint32() >>> 5;
    const b = this.nextUint32() >>> 6;
    return (a * 67108864 + b) / 9007199254740992;
  }

  private initGenrand(s: number): void {
    const mt = this.mt;
    mt[0] = s >>> 0;
    for (let i = 1; i < 624; i++) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = (Math.imul(1812433253, prev) + i) >>> 0;
    }
    this.index = 624;
  }

  private initByArray(key: number[]): void {
    const mt = this.mt;
    this.initGenrand(19650218);
    let i = 1;
    let j = 0;
    for (let k = Math.max(624, key.length); k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1664525)) + key[j] + j) >>> 0;
      i++;
      j++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
      if (j >= key.length) j = 0;
    }
    for (let k = 623; k > 0; k--) {
      const prev = mt[i - 1] ^ (mt[i - 1] >>> 30);
      mt[i] = ((mt[i] ^ Math.imul(prev, 1566083941)) - i) >>> 0;
      i++;
      if (i >= 624) {
        mt[0] = mt[623];
        i = 1;
      }
    }
    mt[0] = 0x80000000;
  }

  private twist(): void {
    const mt = this.mt;
    for (let i = 0; i < 624; i++) {
      const y = (mt[i] & 0x80000000) | (mt[(i + 1) % 624] & 0x7fffffff);
      let v = mt[(i + 397) % 624] ^ (y >>> 1);
      if (y & 1) v ^= 0x9908b0df;
      mt[i] = v >>> 0;
    }
    this.index = 0;
  }
}

/** The 32-bit little-endian words of a non-negative integer, as CPython splits |seed|; [0] for 0. */
function toKey(n: bigint): number[] {
  const word = BigInt(2) ** BigInt(32);
  if (n === BigInt(0)) return [0];
  const key: number[] = [];
  for (let rest = n; rest > BigInt(0); rest /= word) key.push(Number(rest % word));
  return key;
}

/** Fisher–Yates in place, exactly as CPython's random.shuffle. Returns the same array. */
export function shuffleInPlace<T>(items: T[], rng: SeededRandom): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.below(i + 1);
    const t = items[i];
    items[i] = items[j];
    items[j] = t;
  }
  return items;
}

/** A shuffled copy; the input is left untouched. */
export function shuffled<T>(items: readonly T[], seed: number | bigint): T[] {
  return shuffleInPlace([...items], new SeededRandom(seed));
}
