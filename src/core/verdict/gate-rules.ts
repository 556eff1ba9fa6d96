/**
 * Gate rules (issue #11, after SkillOpt-Sleep and cap-evolve): what a candidate must show on
 * the validation items, besides a strictly higher mean, to replace the current skill.
 * - `mean`: the strictly higher mean alone (SkillOpt's gate);
 * - `no_regression`: and no item that passed with the current skill fails with the candidate;
 * - `significance`: and the mean paired gain exceeds k standard errors of the paired difference.
 * The rules only ever refuse more than `mean`, so the gate's early stop stays exact.
 */
import { isGain } from './epsilon';
import { compareOutcomes, type ItemOutcome } from './credit';
import type { GateMetric } from './gate';

export const GATE_RULES = ['mean', 'no_regression', 'significance'] as const;
export type GateRule = (typeof GATE_RULES)[number];

export const GATE_RULE_LABELS: Record<GateRule, string> = {
  mean: 'Higher mean (SkillOpt)',
  no_regression: 'Higher mean, no item regresses',
  significance: 'Higher mean, significant gain',
};

export interface GateRuleOptions {
  rule: GateRule;
  metric: GateMetric;
  mixedWeight?: number;
  /** Standard errors the mean paired gain must exceed (significance rule). */
  k?: number;
}

export interface GateRuleVerdict {
  rule: GateRule;
  allowed: boolean;
  /** Items both skills were scored on. */
  n: number;
  /** Items that passed with the current skill and fail with the candidate. */
  regressed: string[];
  /** Mean paired gain on the gate metric, and its standard error. */
  gain: number;
  se: number;
  /** Why, in a sentence a user can read. */
  reason: string;
}

/** One item's value on the gate metric. */
function itemValue(r: ItemOutcome, metric: GateMetric, mixedWeight = 0.5): number {
  const w = Math.min(1, Math.max(0, mixedWeight));
  return metric === 'hard' ? r.hard : metric === 'soft' ? r.soft : (1 - w) * r.hard + w * r.soft;
}

/** Candidate minus current, per item both were scored on. */
export function pairedDifferences(
  current: readonly ItemOutcome[],
  candidate: readonly ItemOutcome[],
  metric: GateMetric,
  mixedWeight?: number,
): number[] {
  const before = new Map(current.map((r) => [r.itemId, r]));
  const out: number[] = [];
  for (const a of candidate) {
    const b = before.get(a.itemId);
    if (b) out.push(itemValue(a, metric, mixedWeight) - itemValue(b, metric, mixedWeight));
  }
  return out;
}

/** Mean and standard error of the mean (sample standard deviation over √n; 0 below two items). */
export function meanAndStandardError(xs: readonly number[]): { mean: number; se: number } {
  const n = xs.length;
  if (n === 0) return { mean: 0, se: 0 };
  const mean = xs.reduce((a, x) => a + x, 0) / n;
  if (n < 2) return { mean, se: 0 };
  const variance = xs.reduce((a, x) => a + (x - mean) ** 2, 0) / (n - 1);
  return { mean, se: Math.sqrt(variance / n) };
}

const fmt = (x: number) => x.toFixed(4);

/** Whether the rule lets a candidate that beat the current mean in. */
export function judgeByRule(
  current: readonly ItemOutcome[],
  candidate: readonly ItemOutcome[],
  o: GateRuleOptions,
): GateRuleVerdict {
  const delta = compareOutcomes(current, candidate);
  const { mean: gain, se } = meanAndStandardError(pairedDifferences(current, candidate, o.metric, o.mixedWeight));
  const base = { rule: o.rule, n: delta.n, regressed: delta.regressed, gain, se };
  if (o.rule === 'no_regression' && delta.regressed.length > 0) {
    const list = delta.regressed.slice(0, 5).join(', ') + (delta.regressed.length > 5 ? ', …' : '');
    return {
      ...base,
      allowed: false,
      reason: `${delta.regressed.length} item${delta.regressed.length === 1 ? '' : 's'} that passed would fail (${list}).`,
    };
  }
  if (o.rule === 'significance') {
    const k = o.k ?? 1;
    if (!isGain(gain - k * se)) {
      return {
        ...base,
        allowed: false,
        reason: `The gain ${fmt(gain)} is not above ${k} × its standard error ${fmt(se)} over ${delta.n} items.`,
      };
    }
    return {
      ...base,
      allowed: true,
      reason: `The gain ${fmt(gain)} is above ${k} × its standard error ${fmt(se)} over ${delta.n} items.`,
    };
  }
  if (o.rule === 'no_regression') return { ...base, allowed: true, reason: `No item regresses over ${delta.n} items.` };
  return { ...base, allowed: true, reason: 'A strictly higher mean is enough.' };
}
