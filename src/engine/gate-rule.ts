/**
 * The run's gate rule on top of the mean gate (core/gate-rules.ts): an accept stands only if
 * the rule holds on both skills' validation rows, item by item. The rows come from the rollout
 * cache (the gate just scored both skills), so the rule costs no calls except errored rows
 * tried again.
 */
import { isAccept, type GateDecision, type GateState } from '../core/gate';
import { judgeByRule, type GateRuleVerdict } from '../core/gate-rules';
import type { EngineContext } from './context';
import { pairedValidationRows } from './selection';
import type { RunDataset } from './types';

export async function applyGateRule(
  ctx: EngineContext,
  data: RunDataset,
  a: { phase: string; current: string; candidate: string; decision: GateDecision; before: GateState },
): Promise<{ decision: GateDecision; rule: GateRuleVerdict | null }> {
  const c = ctx.config;
  const rule = c.gateRule ?? 'mean'; // runs made before the option have none
  if (rule === 'mean' || !isAccept(a.decision.action) || a.decision.action === 'force_accept') return { decision: a.decision, rule: null };
  const rows = await pairedValidationRows(ctx, data, a.phase, a.current, a.candidate);
  const verdict = judgeByRule(rows.current, rows.candidate, { rule, metric: c.gateMetric, mixedWeight: c.gateMixedWeight, k: c.gateSignificanceK });
  return { decision: verdict.allowed ? a.decision : { action: 'reject', state: a.before }, rule: verdict };
}
