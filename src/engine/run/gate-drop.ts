/**
 * Dropping sections as a candidate the gate judges (issue #43 item 4): never silently. The skill
 * without the chosen sections meets the skill as it is on every validation item (no early stop: a
 * tie must be seen whole) through the one gate training uses (`../gate.ts` gateCandidate: the run's
 * comparator, gate rule, tie rules and re-check), as a step's candidate would. It is taken when the
 * gate accepts it (better), or — the drop of a section that earns nothing only ties — when it is
 * no worse (core/verdict/no-worse.ts: the posterior verdict, never raw means) and cheaper: fewer
 * prompt tokens per task, measured on the two skills' rollouts. The person is told which.
 */
import { isAccept, type GateAction } from '../../core/verdict/gate';
import { dropCandidate } from '../../core/verdict/section-credit';
import { gateCandidate } from '../gate';
import { policyOf } from '../noise-ledger';
import { scoreOnSelection, selectionIds, type Scoring } from '../validation-score';
import { noWorseVerdict } from '../../core/verdict/no-worse';
import type { EngineContext } from '../context';
import { sessionContext, stoppedBy, type EvaluateInput, type SessionDeps } from './evaluate';

export interface DropInput extends Omit<EvaluateInput, 'split' | 'limit'> {
  /** Indices of the sections to drop (protected ones always stay). */
  sections: readonly number[];
}

export interface GatedDrop {
  candidate: string;
  accepted: boolean;
  /** better: the gate accepted it; no_worse_cheaper: a tie taken for the tokens it saves; refused. */
  basis: 'better' | 'no_worse_cheaper' | 'refused';
  /** The no-worse verdict's reading, in words ("a 3 % chance it knows fewer validation items (at most 30 %)"). */
  noWorse: string;
  /** Prompt tokens per task the drop saves (the two skills' first rollouts on validation, measured). */
  tokensSaved: number;
  action: GateAction;
  /** Both skills' gate scores on the items both were scored on, and the gain. */
  current: number;
  score: number;
  gain: number;
  /** Items the drop broke and fixed. */
  regressed: string[];
  improved: string[];
  calls: number;
  costUsd: number;
}

export type DropOutcome = ({ ok: true } & GatedDrop) | { ok: false; reason: string; kind: string };

export async function gateDrop(input: DropInput, deps: SessionDeps): Promise<DropOutcome> {
  const candidate = dropCandidate(input.skill, input.sections);
  if (candidate === input.skill) return { ok: false, kind: 'invalid_config', reason: 'No section to drop was chosen.' };
  // A tie is judged on every validation item: no early stop once the drop can no longer win.
  const config = { ...input.config, earlyStopGate: false };
  const ctx = await sessionContext('section-drop', { ...input, config }, deps);
  const calls = () => Object.values(ctx.meter.byStage).reduce((n, s) => n + s.calls, 0);
  try {
    // The skill as it is stands where a run's current (and best) skill would, with its own score.
    const gate = (score: number) => ({
      currentSkill: input.skill,
      currentScore: score,
      currentOrigin: 'current',
      bestSkill: input.skill,
      bestScore: score,
      bestStep: 0,
      bestOrigin: 'current',
    });
    const measuring: Scoring = { gate: gate(0), selectionCache: {} };
    const now = await scoreOnSelection(ctx, measuring, input.data, 'drop/current', input.skill);
    const s: Scoring = { gate: gate(now.gate), selectionCache: measuring.selectionCache };
    const g = await gateCandidate(ctx, s, input.data, {
      phase: 'drop/candidate',
      against: 'current',
      candidate,
      origin: 'section_drop',
      step: 1,
      check: null,
      policy: policyOf(config, {}),
    });
    const better = isAccept(g.decision.action);
    const tokensSaved = (await promptTokens(ctx, 'drop/current')) - (await promptTokens(ctx, 'drop/candidate'));
    const nw = noWorseVerdict(g.verdict, {
      confidence: config.gateConfidence,
      items: selectionIds(config, input.data).length,
    });
    const basis = better ? 'better' : nw.noWorse && tokensSaved > 0 ? 'no_worse_cheaper' : 'refused';
    return {
      ok: true,
      candidate,
      accepted: basis !== 'refused',
      basis,
      noWorse: nw.words,
      tokensSaved,
      action: g.decision.action,
      current: g.compared?.current ?? now.gate,
      score: g.compared?.candidate ?? g.selection?.gate ?? 0,
      gain: g.compared?.gain ?? 0,
      regressed: g.verdict?.regressed ?? [],
      improved: g.verdict?.improved ?? [],
      calls: calls(),
      costUsd: ctx.meter.totalCostUsd,
    };
  } catch (e) {
    return stoppedBy(e);
  }
}

/** Mean prompt tokens per task of a phase's rollouts that made their call (a cache hit carries none). */
async function promptTokens(ctx: EngineContext, phase: string): Promise<number> {
  const rows = (await ctx.store.getRollouts(ctx.runId, phase)).filter((r) => r.status === 'ok' && !r.cached);
  return rows.length ? rows.reduce((n, r) => n + r.usage.promptTokens, 0) / rows.length : 0;
}
