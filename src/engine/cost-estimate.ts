/**
 * The cost estimate shown before a run starts: calls per stage from the core formulas (an
 * upper bound: no cache hits, no early stops) and tokens from the sizes of the skill, the
 * prompts and the items. Completion lengths are assumptions, stated here, not measurements.
 */
import {
  estimateRunCalls,
  lowRunCalls,
  OPTIMIZER_STAGES,
  type Stage,
  type StageCounts,
} from '../core/config/call-count';
import type { DatasetItem } from '../core/dataset/dataset-types';
import { testTries, type RunConfig } from '../core/config/run-config';
import { renderRollout, type RolloutTemplate } from '../core/config/templates';
import type { PromptSet } from './prompts';
import { costOf, type Price, type Prices } from './meter';
import { BATCH_CALL_STAGES, BATCH_PRICE_FACTOR } from '../core/config/batch-api';
import { DEFAULT_MAX_USER_TURNS } from '../core/agent/agent-item';
import type { Role } from './types';
import { ASSUMED_REASONING_TOKENS, type Effort } from '../core/config/capabilities';

export { ASSUMED_REASONING_TOKENS };

/** Assumed completion tokens per call, by stage. */
/** Items whose lengths stand for the dataset's (the first ones). */
export const ESTIMATE_SAMPLE = 200;

export const ASSUMED_COMPLETION_TOKENS: Record<Stage, number> = {
  baseline: 150,
  rollout: 150,
  trainCheck: 150,
  gate: 150,
  slowUpdateRollout: 150,
  slowUpdateGate: 150,
  finalValidation: 150,
  test: 150,
  confirm: 150,
  gateTargets: 150,
  judge: 60,
  userSimulator: 60,
  reflect: 700,
  merge: 900,
  lrDecision: 150,
  rank: 120,
  rewrite: 1200,
  appendix: 400,
  repair: 600,
  slowUpdate: 700,
  metaSkill: 400,
  activationRollout: 60,
  activationRewrite: 400,
  sectionCredit: 150,
};

export interface StageEstimate {
  calls: number;
  promptTokens: number;
  /** Visible and reasoning tokens together (both billed as output). */
  completionTokens: number;
  reasoningTokens: number;
  costUsd: number | null;
}

export interface PricedCalls {
  stages: Partial<Record<Stage, StageEstimate>>;
  totalCalls: number;
  totalTokens: number;
  /** null when a price is missing for a role that makes calls. */
  totalCostUsd: number | null;
}

/** The upper bound, stage by stage, and the low end of the same run (core/config/call-count.ts lowRunCalls). */
export interface CostEstimate extends PricedCalls {
  low: PricedCalls;
  assumptions: string[];
}

const tokens = (chars: number) => Math.ceil(chars / 4);

/** Who answers a stage's calls. */
function roleOfStage(stage: Stage): Role {
  if (!OPTIMIZER_STAGES.includes(stage)) return 'target';
  return stage === 'judge' ? 'judge' : stage === 'userSimulator' ? 'userSimulator' : 'optimizer';
}

/** Items with a simulated user: their share, and the simulator's calls per conversation (measured, else the limit). */
function conversationsOf(
  sample: readonly DatasetItem[],
  measured: number | undefined,
): { share: number; simulatorCalls: number } | null {
  const users = sample.flatMap((i) => (i.agent?.user ? [i.agent.user] : []));
  if (!users.length) return null;
  const limit = users.reduce((n, u) => n + (u.maxTurns ?? DEFAULT_MAX_USER_TURNS), 0) / users.length;
  return { share: users.length / sample.length, simulatorCalls: measured ?? limit };
}

/** What the estimate assumes of reasoning, role by role. */
function reasoningAssumption(r: Partial<Record<'target' | 'optimizer', Effort>> | undefined): string {
  const roles = (['target', 'optimizer'] as const).filter((k) => r?.[k] && r[k] !== 'none');
  if (!roles.length)
    return 'No reasoning tokens are counted: neither role reasons (a reasoning effort, or a reasoning model, would add them).';
  const said = roles.map(
    (k) => `the ${k} at effort ${r![k]}, about ${ASSUMED_REASONING_TOKENS[r![k]!].toLocaleString('en-US')}`,
  );
  return `Reasoning tokens per call (billed as output, counted in the completion tokens): ${said.join('; ')} — an assumption by effort (minimal 100, low 400, medium 1,200, high 3,000, xhigh 6,000, max 10,000) that varies widely with the task.`;
}

/**
 * The confirming targets' calls priced each at its own price, else the target's (issue #42 item 5):
 * each target's share of the stage's calls is its tries per test item (call-count.ts), and cost is
 * linear in usage. Null when one of them has no price at all.
 */
function confirmCost(
  usage: { promptTokens: number; completionTokens: number; reasoningTokens: number },
  targets: readonly { agentic: boolean; price?: Price }[],
  targetPrice: Price | undefined,
  c: RunConfig,
): number | null {
  const weights = targets.map((t) => testTries(c, t.agentic));
  const all = weights.reduce((a, w) => a + w, 0);
  let cost = 0;
  for (const [i, t] of targets.entries()) {
    const price = t.price ?? targetPrice;
    if (!price) return null;
    cost += (costOf(usage, price) * weights[i]) / all;
  }
  return cost;
}

export function estimateCost(args: {
  config: RunConfig;
  items: readonly DatasetItem[];
  splits: { train: number; val: number; test: number };
  skill: string;
  template: RolloutTemplate;
  prompts: PromptSet;
  prices?: Prices;
  trainAccuracy?: number;
  /** The target's one-shot phases go through its batch API: billed at the batch price. */
  batchOneShot?: boolean;
  /** Trigger queries per split, when the activation track runs. */
  triggers?: { train: number; val: number; test: number };
  /**
   * Agents' rollouts (issue #30): model turns per rollout — the mean measured at the baseline
   * when there is one, else `maxTurns`, an upper bound. Each turn is one target call.
   */
  agent?: { turns: number; measured: boolean };
  /** The user simulator's calls per conversation, when the baseline measured them (issue #31). */
  simulator?: { calls: number };
  /** The effort each role's calls reason at (issue #44; judge and user simulator: the optimizer's). */
  reasoning?: Partial<Record<'target' | 'optimizer', Effort>>;
  /** An agent is trained (a tool loop, or an agent CLI, which has no turns to count): its test tries default to three. */
  agentic?: boolean;
  /** Targets that confirm the starting and best skills on test (issue #42 item 5): each at its own price, else the target's. */
  confirm?: readonly { agentic: boolean; price?: Price }[];
  /** Other targets that gate every candidate on validation (issue #42 item 5): billed at the target's prices. */
  gateTargets?: number;
}): CostEstimate {
  const { config: c, items, skill, prompts } = args;
  const sample = items.slice(0, ESTIMATE_SAMPLE);
  const talks = conversationsOf(sample, args.simulator?.calls);
  const agentic = Boolean(args.agent || args.agentic);
  const tries = { agentic, k: testTries(c, agentic) };
  const counts: StageCounts = estimateRunCalls(c, args.splits, {
    trainAccuracy: args.trainAccuracy,
    triggers: args.triggers,
    ...(talks ? { conversations: talks } : {}),
    agentic: tries.agentic,
    ...(args.confirm?.length ? { confirm: args.confirm } : {}),
    ...(args.gateTargets ? { gateTargets: args.gateTargets } : {}),
  });
  const avgTarget = sample.length
    ? sample.reduce((a, it) => {
        const m = renderRollout(args.template, skill, it, c.rollout.contextLimit);
        return a + m.system.length + m.user.length;
      }, 0) / sample.length
    : skill.length;
  // A conversation answers each user message: until measured, its turns are per message.
  const exchanges = talks && !args.agent?.measured ? 1 + talks.share * (talks.simulatorCalls - 1) : 1;
  const turns = (args.agent ? Math.max(1, args.agent.turns) : 1) * exchanges;
  // An agent's later turns resend the conversation so far: about 400 characters a turn more.
  const avgTurn = avgTarget + ((turns - 1) / 2) * 400;
  // A trajectory repeats the target's prompts plus its response and an evaluation block (and each turn).
  const trajectory = avgTarget + 900 + (turns - 1) * 400;
  const promptLen = (name: keyof PromptSet) => prompts[name].system.length + prompts[name].user.length;
  // The skill grows during training; estimate with one and a half times its starting length.
  const sk = Math.max(400, skill.length * 1.5);
  const promptChars: Record<Stage, number> = {
    baseline: avgTurn,
    rollout: avgTurn,
    trainCheck: avgTurn,
    gate: avgTurn,
    slowUpdateRollout: avgTurn,
    slowUpdateGate: avgTurn,
    finalValidation: avgTurn,
    test: avgTurn,
    confirm: avgTurn,
    gateTargets: avgTurn,
    judge: promptLen('judge') + 600,
    userSimulator: promptLen('user_simulator') + 300 + ((talks?.simulatorCalls ?? 1) / 2) * 400,
    reflect: promptLen('reflect_failure') + sk + c.minibatchSize * trajectory,
    merge: promptLen('merge_failure') + sk + c.mergeBatchSize * 4 * 300,
    rank: promptLen('rank_edits') + sk + 12 * 300,
    rewrite: promptLen('rewrite_skill') + sk + 8 * 300,
    appendix: promptLen('appendix_consolidate') + sk + 40 * 100,
    lrDecision: promptLen('lr_decision') + sk + 12 * 300,
    repair: promptLen('repair_edits') + 2 * sk + 12 * 300,
    slowUpdate: promptLen('slow_update') + 2 * sk + Math.min(c.slowUpdateSamples, args.splits.train) * 1200,
    metaSkill: promptLen('meta_skill') + 2 * sk + Math.min(c.slowUpdateSamples, args.splits.train) * 1200,
    activationRollout: promptLen('rollout-trigger') + 400,
    activationRewrite: promptLen('describe_skill') + sk + 20 * 200,
    // Masks keep half the sections on average: about half the skill less than a rollout's prompt.
    sectionCredit: avgTurn - skill.length / 2,
  };
  const priced = (n: StageCounts): PricedCalls => {
    const stages: PricedCalls['stages'] = {};
    let totalCalls = 0;
    let totalTokens = 0;
    let totalCost: number | null = 0;
    for (const [stage, rollouts] of Object.entries(n) as [Stage, number][]) {
      if (!rollouts) continue;
      const role = roleOfStage(stage);
      // The activation track's decisions stay single calls; an agent's rollout is a call per turn; the
      // section credit's figure is its budget of calls already.
      const perTurn = role === 'target' && !stage.startsWith('activation') && stage !== 'sectionCredit';
      const calls = perTurn ? Math.ceil(rollouts * turns) : rollouts;
      const price =
        args.prices?.[role] ?? (role === 'judge' || role === 'userSimulator' ? args.prices?.optimizer : undefined);
      // In full-rewrite mode every analyst and merge reply holds a whole skill.
      const wholeSkill = c.updateMode === 'full_rewrite' && (stage === 'reflect' || stage === 'merge') ? tokens(sk) : 0;
      const effort = args.reasoning?.[role === 'target' ? 'target' : 'optimizer'] ?? 'none';
      const reasoningTokens = calls * ASSUMED_REASONING_TOKENS[effort];
      const usage = {
        promptTokens: calls * tokens(promptChars[stage]),
        completionTokens: calls * (ASSUMED_COMPLETION_TOKENS[stage] + wholeSkill) + reasoningTokens,
        reasoningTokens,
      };
      const batched = args.batchOneShot && BATCH_CALL_STAGES.has(stage);
      const cost =
        stage === 'confirm' && args.confirm?.length
          ? confirmCost(usage, args.confirm, price, c)
          : price
            ? costOf(usage, price) * (batched ? BATCH_PRICE_FACTOR : 1)
            : null;
      stages[stage] = {
        calls,
        promptTokens: usage.promptTokens,
        completionTokens: usage.completionTokens,
        reasoningTokens,
        costUsd: cost,
      };
      totalCalls += calls;
      totalTokens += usage.promptTokens + usage.completionTokens;
      totalCost = cost === null || totalCost === null ? null : totalCost + cost;
    }
    return { stages, totalCalls, totalTokens, totalCostUsd: totalCost };
  };
  return {
    ...priced(counts),
    low: priced(lowRunCalls(counts, c)),
    assumptions: [
      'An upper bound on calls: no rollout-cache hits, no early-stopped gates or train checks, every analyst returns edits, every merged patch needs ranking and every candidate a repair.',
      'The low figure: every step rolls out and reflects on its batch but no analyst proposes an edit, so nothing is merged, checked or gated, and the test scores the starting skill only.',
      `Failures per batch assume ${Math.round((args.trainAccuracy ?? 0.5) * 100)}% train accuracy.`,
      'On a stochastic target (temperature above 0, reasoning models) verdicts also ask again where two skills disagree: about 1.5× the check and gate calls in our noisy benchmark; a deterministic target pays only a few spot checks.',
      ...(args.agent
        ? [
            args.agent.measured
              ? `Each rollout is an agent's trajectory of ${turns.toFixed(1)} turns on average (measured at the baseline); each turn is one target call, and none goes through a batch API (each turn waits on the last).`
              : `Each rollout is an agent's trajectory of at most ${turns} turns (maxTurns: an upper bound until the baseline measures the mean); each turn is one target call, and none goes through a batch API (each turn waits on the last).`,
          ]
        : []),
      ...(talks
        ? [
            `${Math.round(talks.share * 100)}% of the items are conversations with a simulated user: ${args.simulator ? `${talks.simulatorCalls.toFixed(1)} simulator calls each (measured at the baseline)` : `up to ${talks.simulatorCalls.toFixed(1)} user messages each, a simulator call and an agent's answer per message (an upper bound until the baseline measures it)`}.`,
          ]
        : []),
      ...(c.evalTest && tries.k > 1
        ? [
            `The test tries each item ${tries.k} times with each skill, to report pass^${tries.k} (all ${tries.k} tries pass) beside pass^1.`,
          ]
        : []),
      ...(c.evalTest && args.confirm?.length
        ? [
            `After training, ${args.confirm.length} more target${args.confirm.length === 1 ? '' : 's'} score${args.confirm.length === 1 ? 's' : ''} the starting and the best skill on test (confirm), priced at each one's own price, else the target's.`,
          ]
        : []),
      ...(args.gateTargets
        ? [
            `${args.gateTargets} more target${args.gateTargets === 1 ? '' : 's'} gate${args.gateTargets === 1 ? 's' : ''} every candidate the target accepts, scoring it and the skill it meets on validation (gateTargets), priced at the target's prices.`,
          ]
        : []),
      ...((c.sectionCreditBudget ?? 0) > 0
        ? [
            `After training, section credit scores the best skill with random halves of its sections masked on the validation items: at most ${c.sectionCreditBudget} calls (its budget, every role's), priced as target calls.`,
          ]
        : []),
      ...(args.batchOneShot
        ? [
            'Baseline, final validation and test go through the target’s batch API, at half price (re-samples stay live).',
          ]
        : []),
      'Completion lengths are typical values (about 150 tokens per target answer, 700–900 per analyst or merge reply).',
      reasoningAssumption(args.reasoning),
    ],
  };
}
