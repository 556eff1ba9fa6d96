/**
 * Steering (issue #11): "improve this version with my feedback". The optimizer turns a person's
 * feedback into a bounded patch (prompts/feedback_edits.md), applied like any step's edits —
 * protected regions kept — and handed back as a candidate for the person to take or leave.
 * Nothing is gated or stored: the person decides, and may evaluate or train from it.
 */
import { validatePayload } from '../core/basics/json-extract';
import { applyPatch, type Edit, type EditReportRow } from '../core/skill/edits';
import type { RunConfig } from '../core/config/run-config';
import { createStandaloneContext } from './context';
import type { Prices } from './meter';
import { callOptimizer } from './optimizer-call';
import type { LlmPort, RunStore } from './ports';
import type { PromptSet } from './prompts';

export type FeedbackOutcome =
  | { ok: true; reasoning: string; edits: Edit[]; report: EditReportRow[]; candidate: string; costUsd: number }
  | { ok: false; kind: string; reason: string };

export async function improveWithFeedback(
  input: { skill: string; feedback: string; config: RunConfig; prices?: Prices },
  deps: { llm: LlmPort; store: RunStore; prompts: PromptSet; now?: () => number },
): Promise<FeedbackOutcome> {
  const ctx = await createStandaloneContext({ runId: 'feedback', config: input.config, ...deps, prices: input.prices });
  const budget = Math.max(1, input.config.editBudget);
  const r = await callOptimizer(ctx, 'feedback', 'feedback_edits', {
    skill: input.skill,
    feedback: input.feedback.trim(),
    budget: String(budget),
  });
  if (r.error) return { ok: false, kind: r.error.kind, reason: r.error.message };
  const check = validatePayload(r.json, 'edits');
  const edits = check.ok ? (check.items.slice(0, budget) as unknown as Edit[]) : [];
  const applied = applyPatch(input.skill, edits);
  return {
    ok: true,
    reasoning: String(r.json?.reasoning ?? ''),
    edits,
    report: applied.report,
    candidate: applied.skill,
    costUsd: ctx.meter.totalCostUsd,
  };
}
