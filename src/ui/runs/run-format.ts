import type { RunEndpoints } from '../../worker/api-types';

/** A share as a percentage with one decimal; a dash when there is none. */
export const pct = (v: number | null | undefined): string =>
  v === null || v === undefined ? '—' : `${(v * 100).toFixed(1)}%`;

/** A count and its noun: "1 call", "3 calls". */
export const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** The hosts a run calls, as a user recognises them. */
export function hostsOf(e: RunEndpoints): string[] {
  const host = (u: string) => {
    try {
      return new URL(u).host;
    } catch {
      return u;
    }
  };
  return [...new Set([e.target, e.optimizer, e.judge].filter((x) => x !== undefined).map((x) => host(x.baseURL)))];
}
