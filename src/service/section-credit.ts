/**
 * Which section earns its tokens (issue #43 item 4), as two use cases outside a run: credit the
 * skill's sections by random masking on the validation items within a call budget, and gate a drop
 * of the sections the person chose — the same target, LLM port and environment as an evaluation
 * (service/target.ts chooses them once). Nothing is stored; the host shows the answer.
 */
import { creditSections, type CreditInput, type CreditOutcome } from '../engine/run/section-credit';
import { gateDrop, type DropInput, type GatedDrop } from '../engine/run/gate-drop';
import type { EventSink } from '../engine/events';
import { fail, type HostDeps, type Outcome } from './ports';
import { engineInput, withSessionTarget, type SessionInput } from './evaluation';

type Options = { signal?: AbortSignal; onEvent?: EventSink };

/** The engine's credit, as the hosts show it. */
export type SectionCredit = Omit<Extract<CreditOutcome, { ok: true }>, 'ok'>;

/** Each section's effect on pass^1 with its interval, its cost per task and lift per cent, within `budget` calls. */
export async function creditSkillSections(
  deps: HostDeps,
  input: SessionInput & Pick<CreditInput, 'budget'>,
  o: Options = {},
): Promise<Outcome<SectionCredit>> {
  const r = await withSessionTarget(deps, input, o, (engine) =>
    creditSections({ ...engineInput(input), budget: input.budget }, engine),
  );
  if (!r.ok) return r;
  const v = r.value;
  if (!v.ok) return fail(v.kind, v.reason);
  const { report, plan, masks, calls, rollouts, errors, costUsd } = v;
  return { ok: true, report, plan, masks, calls, rollouts, errors, costUsd };
}

/** The skill without the chosen sections, judged by the gate against the skill as it is. */
export async function gateSectionDrop(
  deps: HostDeps,
  input: SessionInput & Pick<DropInput, 'sections'>,
  o: Options = {},
): Promise<Outcome<GatedDrop>> {
  const r = await withSessionTarget(deps, input, o, (engine) =>
    gateDrop({ ...engineInput(input), sections: input.sections }, engine),
  );
  if (!r.ok) return r;
  const v = r.value;
  if (!v.ok) return fail(v.kind, v.reason);
  return v;
}
