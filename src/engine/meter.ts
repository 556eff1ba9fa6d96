/**
 * Usage and cost per stage, and the budget cap: a call that could push spending past the cap
 * is not made, and the run pauses instead (DESIGN §4).
 */
import type { BudgetCap } from '../core/run-config';
import type { LlmUsage, Role } from './ports';
import type { StageUsage } from './types';
import { PauseError } from './pause';

/** USD per million tokens. */
export interface Price {
  input: number;
  output: number;
}
export type Prices = Partial<Record<Role, Price>>;

export function emptyUsage(): StageUsage {
  return { calls: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0, costUsd: 0 };
}

export function costOf(usage: LlmUsage, price: Price | undefined): number {
  if (!price) return 0;
  // Reasoning tokens are billed as output and are already part of completion tokens.
  return (usage.promptTokens * price.input + usage.completionTokens * price.output) / 1e6;
}

export class Meter {
  readonly byStage: Record<string, StageUsage> = {};
  private completionSeen: Partial<Record<Role, { n: number; tokens: number }>> = {};

  constructor(
    private readonly prices: Prices,
    private readonly budget: BudgetCap,
  ) {}

  add(stage: string, role: Role, usage: LlmUsage): void {
    const s = (this.byStage[stage] ??= emptyUsage());
    s.calls++;
    s.promptTokens += usage.promptTokens;
    s.completionTokens += usage.completionTokens;
    s.reasoningTokens += usage.reasoningTokens;
    s.costUsd += costOf(usage, this.prices[role]);
    const c = (this.completionSeen[role] ??= { n: 0, tokens: 0 });
    c.n++;
    c.tokens += usage.completionTokens;
  }

  get totalCostUsd(): number {
    return Object.values(this.byStage).reduce((a, s) => a + s.costUsd, 0);
  }

  get totalTokens(): number {
    return Object.values(this.byStage).reduce((a, s) => a + s.promptTokens + s.completionTokens, 0);
  }

  /** Refuse a call whose likely cost would cross the cap. */
  check(role: Role, promptChars: number): void {
    const seen = this.completionSeen[role];
    const estimate: LlmUsage = {
      promptTokens: Math.ceil(promptChars / 4),
      completionTokens: seen && seen.n ? Math.ceil(seen.tokens / seen.n) : 256,
      reasoningTokens: 0,
    };
    if (this.budget.usd !== undefined && this.totalCostUsd + costOf(estimate, this.prices[role]) > this.budget.usd) {
      throw new PauseError(
        'budget',
        `Paused before exceeding the budget cap of $${this.budget.usd.toFixed(2)}: $${this.totalCostUsd.toFixed(4)} spent so far. Raise the cap to continue.`,
      );
    }
    if (this.budget.tokens !== undefined && this.totalTokens + estimate.promptTokens + estimate.completionTokens > this.budget.tokens) {
      throw new PauseError('budget', `Paused before exceeding the token budget of ${this.budget.tokens}: ${this.totalTokens} tokens used so far. Raise the budget to continue.`);
    }
  }
}

/** The usage stage a rollout phase is billed to ("s0003/gate" → "gate"). */
export function usageStageOfPhase(phase: string): string {
  if (phase === 'baseline' || phase === 'final') return phase;
  if (phase.startsWith('test/')) return 'test';
  if (/^e\d+\/(prev|curr)/.test(phase)) return 'slow_update_rollout';
  if (phase.endsWith('/gate')) return 'gate';
  return 'rollout';
}

/** The usage stage an optimizer prompt is billed to (the token stages of §1.8). */
export function usageStageOfPrompt(prompt: string): string {
  if (prompt.startsWith('reflect_')) return 'analyst';
  if (prompt.startsWith('merge_')) return 'merge';
  if (prompt === 'rank_edits') return 'ranking';
  return prompt;
}
