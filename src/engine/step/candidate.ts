/**
 * From a merged patch to a gated candidate (stages 4–6, with issue #8's credit assignment):
 * carried edits join the pool, edits that can never help are screened out before they take
 * budget, the ranker picks the step's edits, and the candidate is checked on the step's own
 * train items before validation — a candidate that broke items is repaired by the optimizer,
 * one that does not improve on train is rejected without spending validation calls (GEPA's
 * minibatch check). Each mechanism is a knob. The validation gate itself: engine/gate.ts.
 */
import { isTie } from '../../core/verdict/epsilon';
import { poolWithCarried } from '../../core/verdict/credit';
import { screenEdits } from '../../core/skill/edit-screen';
import { applyPatch, type Edit, type Patch, type PatchResult } from '../../core/skill/edits';
import type { NoisePolicy } from '../../core/verdict/noise';
import type { FlipUnits } from '../verdict';
import { putStepArtifact } from '../artifacts';
import type { EngineContext } from '../context';
import {
  blameByLeavingOut,
  checkArtifact,
  checkOnTrain,
  repairBundle,
  summariseDelta,
  type RepairOutcome,
  type TrainCheck,
} from './credit-check';
import type { RepairStep } from '../artifacts';
import { okRows } from '../rollout';
import { rankAndSelect } from './rank-edits';
import { editsAhead, onPlateau } from './look-ahead';
import { dropRiders } from './riders';
import { heldBefore, holdSingles } from './held-edits';
import type { RolloutRow } from '../types';

export interface CandidateInput {
  key: string;
  step: number;
  current: string;
  merged: Patch;
  /** Edits a promising rejected candidate left for this step. */
  pending: readonly Edit[];
  budget: number;
  metaText: string;
  /** The step's rollouts of the current skill (the train batch). */
  rows: readonly RolloutRow[];
  /** The step's noise policy. */
  policy: NoisePolicy;
  /** What a look one step ahead needs: the batch's seed for the analysts' shuffle, and the step buffer. */
  batchSeed: number;
  bufferText: string;
}

/**
 * A step's proposal, as the update mode made it (issue #21): a patch of ranked, applied edits, or
 * a whole-skill rewrite with its change summary. Both carry the candidate skill and its train
 * check; everything after (review, gate, the step record) tells them apart by `kind`.
 */
export type Candidate = PatchCandidate | RewriteCandidate;

interface CandidateBase {
  skill: string;
  check: TrainCheck | null;
  /** Repeated samples the checks drew, for the run's flip tally. */
  units?: FlipUnits;
}

export interface PatchCandidate extends CandidateBase {
  kind: 'patch';
  ranked: Patch;
  /** The bundle applied to the current skill (the ranked edits, repaired). */
  edits: Edit[];
  applied: PatchResult;
  repair: RepairOutcome | null;
  /** Carried edits that were in the pool. */
  carried: number;
}

export interface RewriteCandidate extends CandidateBase {
  kind: 'rewrite';
  reasoning: string;
  /** What the rewrite changed, one line per change. */
  changeSummary: string[];
}

/** A bundle of edits and the candidate text it makes of the current skill: applied once, then passed on. */
interface Bundle {
  edits: Edit[];
  applied: PatchResult;
}

export const bundleOf = (current: string, edits: Edit[]): Bundle => ({ edits, applied: applyPatch(current, edits) });

/** Pool, screen, rank, apply; then the train check and the repair. */
export async function buildCandidate(ctx: EngineContext, a: CandidateInput): Promise<PatchCandidate> {
  const c = ctx.config;
  let pool = c.carryEdits ? poolWithCarried(a.merged.edits, a.pending) : [...a.merged.edits];
  if (c.holdSingleEdits) {
    // An edit one trajectory alone supports waits for a second failure to show the same pattern.
    const h = holdSingles(pool, await heldBefore(ctx, a.step), a.step);
    await putStepArtifact(ctx, a.key, 'held', { held: h.held, released: h.released });
    pool = h.kept;
  }
  let kept = pool;
  if (c.screenEdits) {
    const s = screenEdits(a.current, pool);
    kept = s.kept;
    await putStepArtifact(ctx, a.key, 'screened', {
      pool: pool.length,
      kept: s.kept.length,
      carried: pool.filter((e) => e.carried).length,
      dropped: s.dropped.map((d) => ({
        index: d.index,
        op: String(d.edit.op),
        target: d.edit.target ?? '',
        content: d.edit.content ?? '',
        reason: d.reason,
      })),
    });
  }
  const sel = await rankAndSelect(ctx, a.key, { ...a.merged, edits: kept }, a.budget, a.current, a.metaText);
  await putStepArtifact(ctx, a.key, 'ranked', sel.ranked);
  let bundle = bundleOf(a.current, sel.ranked.edits);
  let check: TrainCheck | null = null;
  let repair: RepairOutcome | null = null;
  let units: FlipUnits = {};
  const base = okRows(a.rows);
  if (c.trainCheck && bundle.applied.skill !== a.current && base.length) {
    const checkBundle = async (phase: string, b: Bundle): Promise<TrainCheck> => {
      const r = await checkOnTrain(ctx, phase, base, a.current, b.applied.skill, {
        policy: a.policy,
        findRegressions: c.repairEdits,
      });
      units = { ...units, ...r.units };
      return r;
    };
    check = await checkBundle(`${a.key}/check`, bundle);
    if (c.repairEdits && check.delta.regressed.length) {
      const credit = await assignCredit(ctx, { ...a, bundle, check, base, checkBundle });
      repair = credit.repair;
      bundle = credit.bundle;
      check = credit.check;
    }
    if (c.lookAhead && check.delta.regressed.length && bundle.applied.skill !== a.current) {
      // The repair left items broken (a rule the bundle replaced carried them): the analysts read
      // those items with the candidate, as the next step would, and their fixes join the bundle.
      const escape = await lookAhead(ctx, { ...a, bundle, check, base, checkBundle }, 'regressed');
      bundle = escape.bundle;
      check = escape.check;
    }
    if (c.lookAhead && onPlateau(check, base) && bundle.applied.skill !== a.current) {
      const ahead = await lookAhead(ctx, { ...a, bundle, check, base, checkBundle }, 'plateau');
      bundle = ahead.bundle;
      check = ahead.check;
    }
    if (c.dropRiders && check.improved) {
      // An edit that carried none of the gains would ride into the skill and block its family's right rule.
      const checkEdits = (phase: string, edits: Edit[]) => checkBundle(phase, bundleOf(a.current, edits));
      const kept = await dropRiders(ctx, {
        key: a.key,
        current: a.current,
        edits: bundle.edits,
        check,
        base,
        checkEdits,
      });
      if (kept) {
        bundle = bundleOf(a.current, kept.edits);
        check = kept.check;
      }
    }
    await putStepArtifact(ctx, a.key, 'check', checkArtifact(check));
  }
  await putStepArtifact(ctx, a.key, 'candidate_edits', bundle.edits);
  return {
    kind: 'patch',
    ranked: sel.ranked,
    edits: bundle.edits,
    applied: bundle.applied,
    skill: bundle.applied.skill,
    check,
    repair,
    carried: pool.filter((e) => e.carried).length,
    units,
  };
}

/**
 * A candidate looks one step ahead (look-ahead.ts): the edits the next step would make to it join
 * the bundle. From a plateau (it neither fixed nor broke a train item) the analysts read every item
 * it still fails, and the extended bundle goes on if it fixes a train item and its check finds it
 * better. From regressions the repair left (issue #40: a replaced rule carried families the
 * repairer did not restore), they read only the items it broke — a repair aimed at them — and the
 * extended bundle goes on if it breaks fewer and its check still finds it better.
 */
async function lookAhead(
  ctx: EngineContext,
  a: CandidateInput & {
    bundle: Bundle;
    check: TrainCheck;
    base: RolloutRow[];
    checkBundle: (phase: string, bundle: Bundle) => Promise<TrainCheck>;
  },
  from: 'plateau' | 'regressed',
): Promise<{ bundle: Bundle; check: TrainCheck }> {
  const name = from === 'plateau' ? 'ahead' : 'escape';
  const ahead = await editsAhead(ctx, {
    ...a,
    edits: a.bundle.edits,
    candidate: a.bundle.applied.skill,
    keyPrefix: `${a.key}/${name}`,
    ...(from === 'regressed' ? { focus: a.check.delta.regressed } : {}),
  });
  const extended = ahead.edits.length ? bundleOf(a.current, [...a.bundle.edits, ...ahead.edits]) : null;
  // Nothing new, or back to the current skill (the fixes only undid the bundle): nothing to check.
  const changes = (b: Bundle) => b.applied.skill !== a.bundle.applied.skill && b.applied.skill !== a.current;
  let grown = extended && changes(extended) ? extended : null;
  let check = grown ? await a.checkBundle(`${a.key}/check-${name}`, grown) : null;
  if (grown && check && ctx.config.repairEdits && check.delta.regressed.length) {
    // The step ahead broke items too: the same credit assignment, under its own keys.
    const credit = await assignCredit(ctx, { ...a, key: `${a.key}/${name}`, bundle: grown, check });
    grown = credit.bundle;
    check = credit.check;
  }
  if (grown) grown = applyingOnly(a.current, grown);
  // From a plateau: taken only if the step ahead fixes a train item and the check finds it better.
  // From regressions: taken if it repairs — fewer items broken — and the check still finds it better.
  const taken =
    from === 'plateau'
      ? !!check?.improved && fixesOne(check)
      : !!grown && !!check?.improved && check.delta.regressed.length < a.check.delta.regressed.length;
  await putStepArtifact(ctx, a.key, name, {
    failing: ahead.failing,
    proposed: ahead.proposed,
    added: grown ? grown.edits.filter((e) => !a.bundle.edits.includes(e)) : [],
    after: check ? summariseDelta(check.delta) : null,
    expectedGain: check?.verdict?.posterior?.gain ?? null,
    taken,
  });
  return taken ? { bundle: grown!, check: check! } : { bundle: a.bundle, check: a.check };
}

/**
 * A check that fixed train items, not only parts of answers. By the mean, a strict hard gain: one item
 * fixed. A posterior check is already on hard answers, so any expected gain counts: items answered
 * right at last, each only 0.47 likely gained on a target whose few repeats leave its noise in doubt,
 * are a gain even when they sum to less than one item — a train batch raised 0.90 → 1.00 was dropped
 * for an empty `improved` list (issue #43, 3b; issue #40 took four such items, two in expectation).
 */
function fixesOne(check: TrainCheck): boolean {
  const posterior = check.verdict?.posterior;
  return posterior ? posterior.gain > 0 : check.delta.improved.length > 0;
}

/**
 * The bundle without edits that no longer apply: a repair that drops the rule a step-ahead edit
 * deleted leaves that delete without a target. A skipped edit changes nothing, so the text and its
 * check stay as they are.
 */
function applyingOnly(current: string, b: Bundle): Bundle {
  const skipped = new Set(b.applied.report.filter((r) => r.status.startsWith('skipped')).map((r) => r.index - 1));
  return skipped.size
    ? bundleOf(
        current,
        b.edits.filter((_, i) => !skipped.has(i)),
      )
    : b;
}

/** One bundle the credit assignment checked on the step's train items. */
interface Checked extends Bundle {
  check: TrainCheck;
  how: 'proposed' | 'repaired' | 'pruned';
}

/** Better on train: improved first, then the larger summed gain, then fewer regressions, then the later bundle. */
function better(x: Checked, y: Checked): boolean {
  const score = (b: Checked) => [
    b.check.improved ? 1 : 0,
    b.check.verdict?.posterior
      ? b.check.verdict.posterior.gain
      : b.check.verdict
        ? b.check.verdict.gain * b.check.verdict.n
        : b.check.delta.after.hard - b.check.delta.before.hard,
    -b.check.delta.regressed.length,
  ];
  const [a, b] = [score(x), score(y)];
  for (let i = 0; i < a.length; i++) if (!isTie(a[i] - b[i])) return a[i] > b[i];
  return true;
}

/**
 * Credit assignment within a bundle that broke train items (issue #8, hardened in #19 against a
 * fallible repairer): the optimizer repairs the bundle (drops the edits to blame, restores what a
 * replaced rule carried); when the repaired bundle still breaks items, each edit is left out in
 * turn on a few regressed and improved items and an edit whose absence restores the regressed
 * ones without losing a gain is dropped (leave-one-out); if items are still broken, a further
 * bounded repair round follows. Every bundle is checked on the same train items, and the one that
 * did best there goes on — a bad repair costs the repair, not the step.
 */
async function assignCredit(
  ctx: EngineContext,
  a: CandidateInput & {
    bundle: Bundle;
    check: TrainCheck;
    base: RolloutRow[];
    checkBundle: (phase: string, bundle: Bundle) => Promise<TrainCheck>;
  },
): Promise<{ bundle: Bundle; check: TrainCheck; repair: RepairOutcome }> {
  const c = ctx.config;
  const rounds = Math.max(1, c.repairRounds ?? 1);
  const seen: Checked[] = [{ ...a.bundle, check: a.check, how: 'proposed' }];
  const steps: RepairStep[] = [];
  let latest = seen[0];
  let first: RepairOutcome | null = null;
  for (let round = 1; round <= rounds && latest.check.delta.regressed.length; round++) {
    const repair = await repairBundle(ctx, {
      key: a.key,
      round,
      current: a.current,
      candidate: latest.applied.skill,
      edits: latest.edits,
      check: latest.check,
      currentRows: a.base,
      maxAdded: a.budget,
      metaText: a.metaText,
    });
    first ??= repair;
    const fixed = repair.repaired ? bundleOf(a.current, repair.edits) : null;
    if (!fixed || fixed.applied.skill === a.current) {
      steps.push({
        kind: 'repair',
        round,
        changed: false,
        dropped: [],
        added: [],
        reasoning: repair.reasoning,
        after: null,
      });
      break;
    }
    const repaired: Checked = {
      ...fixed,
      check: await a.checkBundle(`${a.key}/check-repaired${round > 1 ? round : ''}`, fixed),
      how: 'repaired',
    };
    seen.push(repaired);
    steps.push({
      kind: 'repair',
      round,
      changed: true,
      dropped: repair.dropped,
      added: repair.added,
      reasoning: repair.reasoning,
      after: summariseDelta(repaired.check.delta),
    });
    latest = repaired;
    if (c.blameEdits && latest.check.delta.regressed.length && latest.edits.length > 1) {
      const blame = await blameByLeavingOut(ctx, {
        key: a.key,
        round,
        current: a.current,
        edits: latest.edits,
        check: latest.check,
        policy: a.policy,
      });
      if (blame.blamed.length) {
        const pruned = bundleOf(
          a.current,
          latest.edits.filter((_, i) => !blame.blamed.includes(i)),
        );
        const checked: Checked = {
          ...pruned,
          check: await a.checkBundle(`${a.key}/check-pruned${round > 1 ? round : ''}`, pruned),
          how: 'pruned',
        };
        seen.push(checked);
        steps.push({
          kind: 'blame',
          round,
          probes: blame.probes,
          dropped: blame.blamed.map((i) => latest.edits[i]),
          after: summariseDelta(checked.check.delta),
        });
        latest = checked;
      } else steps.push({ kind: 'blame', round, probes: blame.probes, dropped: [], after: null });
    }
  }
  const chosen = seen.reduce((best, x) => (better(x, best) ? x : best));
  const repair: RepairOutcome = {
    edits: chosen.edits,
    dropped: a.bundle.edits.filter((e) => !chosen.edits.includes(e)),
    added: chosen.edits.filter((e) => !a.bundle.edits.includes(e)),
    reasoning: first?.reasoning ?? '',
    repaired: chosen !== seen[0],
  };
  await putStepArtifact(ctx, a.key, 'repair', {
    regressed: a.check.delta.regressed,
    fixed: a.check.delta.improved,
    after: chosen !== seen[0] ? summariseDelta(chosen.check.delta) : null,
    repaired: repair.repaired,
    dropped: repair.dropped,
    added: repair.added,
    reasoning: repair.reasoning,
    steps,
    chosen: chosen.how,
  });
  return { bundle: { edits: chosen.edits, applied: chosen.applied }, check: chosen.check, repair };
}
