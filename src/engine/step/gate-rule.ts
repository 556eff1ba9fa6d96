/**
 * The run's gate rule on top of the gate's verdict (core/gate-rules.ts): an accept stands only if
 * the rule holds on both skills' settled validation values, item by item. The values come from
 * the gate's own comparison, so the rule costs no calls.
 */
import { isAccept, type GateDecision, type GateState } from '../../core/gate';
import { judgeByRule, type GateRuleVerdict } from '../../core/gate-rules';
import { hardValue, type ItemPair } from '../../core/paired-verdict';
import type { RunConfig } from '../../core/run-config';

const meanSoft = (xs: readonly { soft: number }[]) => (xs.length ? xs.reduce((a, x) => a + x.soft, 0) / xs.length : 0);

export function applyGateRule(
  c: RunConfig,
  a: { pairs: readonly ItemPair[]; margin: number; decision: GateDecision; before: GateState },
): { decision: GateDecision; rule: GateRuleVerdict | null } {
  const rule = c.gateRule ?? 'mean'; // runs made before the option have none
  if (rule === 'mean' || !isAccept(a.decision.action) || a.decision.action === 'force_accept')
    return { decision: a.decision, rule: null };
  const both = a.pairs.filter((p) => p.ref.length && p.cand.length);
  const side = (f: 'ref' | 'cand') =>
    both.map((p) => ({ itemId: p.itemId, hard: hardValue(p[f], a.margin), soft: meanSoft(p[f]) }));
  const verdict = judgeByRule(side('ref'), side('cand'), {
    rule,
    metric: c.gateMetric,
    mixedWeight: c.gateMixedWeight,
    k: c.gateSignificanceK,
  });
  return { decision: verdict.allowed ? a.decision : { action: 'reject', state: a.before }, rule: verdict };
}
