/**
 * Dropping sections as a candidate the gate judges (issue #43 item 4): never silently. The skill
 * without the chosen sections meets the skill as it is on the validation items through the one
 * gate training uses (`../gate.ts` gateCandidate: the run's comparator, gate rule, tie rules and
 * re-check), as a step's candidate would. A drop that only saves tokens ties, and the gate, which
 * asks for a strictly better score, refuses a tie; the person is told so.
 */
import { isAccept, type GateAction } from '../../core/verdict/gate';
import { dropCandidate } from '../../core/verdict/section-credit';
import { gateCandidate } from '../gate';
import { policyOf } from '../noise-ledger';
import { scoreOnSelection, type Scoring } from '../validation-score';
import { sessionContext, stoppedBy, type EvaluateInput, type SessionDeps } from './evaluate';

export interface DropInput extends Omit<EvaluateInput, 'split' | 'limit'> {
  /** Indices of the sections to drop (protected ones always stay). */
  sections: readonly number[];
}

export interface GatedDrop {
  candidate: string;
  accepted: boolean;
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
  const ctx = await sessionContext('section-drop', input, deps);
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
      policy: policyOf(input.config, {}),
    });
    return {
      ok: true,
      candidate,
      accepted: isAccept(g.decision.action),
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
