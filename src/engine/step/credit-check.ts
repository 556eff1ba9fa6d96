/**
 * The train-batch check and bundle repair (issue #8): before the validation gate, the candidate
 * is scored on the step's own train items (as GEPA checks a minibatch), compared item by item
 * with the current skill's rollouts, and when it broke items the current skill passed, the
 * optimizer reads those items and repairs the bundle — drops the edits to blame, adds what a
 * removed rule was carrying. The check's rows and the repair call are checkpoints like any
 * rollout or optimizer call, so a resumed step replays them.
 */
import { isGain, isTie } from '../../core/verdict/epsilon';
import { isPass, type ItemDelta } from '../../core/verdict/credit';
import { resamples, type NoisePolicy } from '../../core/verdict/noise';
import type { PairedVerdict } from '../../core/verdict/paired-verdict';
import { compareSkills, type FlipUnits } from '../verdict';
import { weighSkills } from '../weigh';
import type { ComparatorKind } from '../../core/verdict/comparator';
import type { ItemShift } from '../../core/verdict/paired-posterior';
import { screenEdits } from '../../core/skill/edit-screen';
import type { Edit } from '../../core/skill/edits';
import { validatePayload } from '../../core/basics/json-extract';
import type { EngineContext } from '../context';
import { trajectoryView } from '../trajectory';
import { conversationLines } from '../../core/agent/transcript';
import { callOptimizer, checkErrorRate } from '../optimizer-call';
import { okRows, rolloutPhase } from '../rollout';
import { describeEdit, pickIndices } from './rank-edits';
import type { RolloutRow } from '../types';
import type { BlameProbe, CheckArtifact, DeltaSummary, EvidenceRecord, VerdictRecord } from '../artifacts';
import { EVIDENCE_SAMPLES } from '../gate';
import { withoutEdit } from '../../core/skill/edits';

export interface TrainCheck {
  delta: ItemDelta;
  rows: RolloutRow[];
  calls: number;
  /** Every item was scored; false when the check stopped because its verdict was certain. */
  complete: boolean;
  /** The candidate is better on the batch (hard, or equal hard and better soft). */
  improved: boolean;
  /** The candidate is strictly better in hard score on the batch. */
  strict: boolean;
  /** Posterior verdicts: weigh on until strictly better with the gate's confidence, or not (a tie-break asks). */
  confirmStrict?: () => Promise<boolean>;
  /** The check was weighed on by confirmStrict: its artifact is rewritten after the gate. */
  confirmed?: boolean;
  /** Posterior verdicts: each item's chance of having been gained and lost (a tie pools them with validation's). */
  changes?: ItemShift[];
  /** An undecided screen's extra samples (issue #40); absent when it decided on the run's samples. */
  evidence?: EvidenceRecord;
  /** The item-by-item verdict (settled where the target is noisy), and the repeated samples it drew. */
  verdict?: PairedVerdict;
  resampleCalls?: number;
  units?: FlipUnits;
}

/** Items per wave of the check: fixed, so where it stops (and what the repair sees) never depends on concurrency. */
export const CHECK_WAVE = 4;

const meanSoft = (xs: readonly { soft: number }[]) => (xs.length ? xs.reduce((a, x) => a + x.soft, 0) / xs.length : 0);

/**
 * Score `candidate` on the items the current skill was rolled out on in this step and compare the
 * two item by item (engine/verdict.ts: where the target is noisy, items the two disagree on are
 * asked again until settled). Looking for regressions (to repair them), every item is scored in
 * one wave at full concurrency. Otherwise the items the current skill failed go first (where a gain
 * shows), then the ones it passed, in fixed waves, and the check stops as soon as its verdict is
 * certain: the candidate cannot improve even if every remaining item passes, or it is strictly
 * better even if every remaining item fails. A batch the current skill already aces costs nothing.
 */
export async function checkOnTrain(
  ctx: EngineContext,
  phase: string,
  currentRows: readonly RolloutRow[],
  current: string,
  candidate: string,
  o: { policy: NoisePolicy; findRegressions?: boolean },
): Promise<TrainCheck> {
  const before = okRows(currentRows);
  const ordered = [...before.filter((r) => !isPass(r.hard)), ...before.filter((r) => isPass(r.hard))];
  const wave = o.findRegressions ? Math.max(1, ordered.length) : CHECK_WAVE;
  return TRAIN_CHECKS[ctx.comparator](ctx, { phase, current, candidate, ordered, wave, ...o });
}

/** What a train check compares: the candidate against the current skill's rows, failed items first. */
interface TrainPair {
  phase: string;
  current: string;
  candidate: string;
  ordered: readonly RolloutRow[];
  wave: number;
  policy: NoisePolicy;
  findRegressions?: boolean;
}

/** The train check by the run's comparator (engine/comparator.ts): each reads its own verdict. */
const TRAIN_CHECKS: Record<ComparatorKind, (ctx: EngineContext, a: TrainPair) => Promise<TrainCheck>> = {
  mean: compareOnTrain,
  posterior: weighOnTrain,
};

/** The check by the mean of settled answers (engine/verdict.ts). */
async function compareOnTrain(ctx: EngineContext, a: TrainPair): Promise<TrainCheck> {
  const { ordered } = a;
  // Stop when the candidate cannot improve even if every item left goes its way; unless looking
  // for regressions, stop too when it is sure: better even if every item left goes against it.
  const canImprove = (gainSum: number, left: number) => !isGain(-(gainSum + left));
  const sure = (gainSum: number, lost: number) => isGain(gainSum + lost);
  const cmp = await compareSkills(ctx, {
    phase: a.phase,
    ref: a.current,
    cand: a.candidate,
    itemIds: ordered.map((x) => x.itemId),
    refRows: ordered,
    policy: a.policy,
    values: { metric: 'hard' },
    continueWhile: (v, gainSum, left, lost) =>
      v.n === 0 && !isGain(left) ? false : canImprove(gainSum, left) && (a.findRegressions || !sure(gainSum, lost)),
    wave: a.wave,
  });
  const v = cmp.verdict;
  const softGain = meanSoft(cmp.pairs.flatMap((p) => p.cand)) - meanSoft(cmp.pairs.flatMap((p) => p.ref));
  const delta: ItemDelta = {
    n: v.n,
    regressed: v.regressed,
    improved: v.improved,
    before: { hard: v.refScore, soft: meanSoft(cmp.pairs.flatMap((p) => p.ref)) },
    after: { hard: v.candScore, soft: meanSoft(cmp.pairs.flatMap((p) => p.cand)) },
  };
  const base = {
    delta,
    rows: cmp.candRows,
    calls: cmp.calls,
    verdict: v,
    resampleCalls: cmp.resampleCalls,
    units: cmp.units,
  };
  if (cmp.complete) {
    const strict = isGain(v.gain);
    return { ...base, complete: true, improved: strict || (isTie(v.gain) && isGain(softGain)), strict };
  }
  // Stopped early: the unscored items decide nothing — the verdict held for any outcome of theirs.
  const scored = new Set(cmp.candRows.map((r) => r.itemId));
  const lost = -ordered.filter((r) => !scored.has(r.itemId)).reduce((a, r) => a + (isPass(r.hard) ? r.hard : 0), 0);
  const certain = v.n > 0 && sure(v.gain * v.n, lost);
  return { ...base, complete: false, improved: certain, strict: certain };
}

/**
 * A train check passes a candidate on to the gate when "better" leads "worse" by this much: a
 * screen, not a verdict — the gate weighs it again at the run's confidence. Asking "more likely
 * better than not" instead stopped real fixes on a noisy target (most of the mass sits on "no
 * change" after 20 items), and any fixed bar on P(better) alone is met by the prior itself once an
 * edit may change many items; the lead is 0 before any sample.
 */
const SCREEN_LEAD = 0.2;

/**
 * A screen that looks for regressions settles a loss from this chance (issue #40): the repair reads
 * the items more likely lost than not, so a loss at 0.05 (both skills passed; the candidate's pass
 * might be a guess) is not worth a sample on either side — settling those cost the noisy world's
 * checks a third of their repeats.
 */
const LOSSES_FROM = 0.25;

/**
 * A tie's train gains are settled with this many times the run's samples per item: the tie rests
 * on a train item or two, and on an agent that slips one answer in ten three answers cannot tell
 * a gain from a slip (agentic seed 2 stopped at 0.94 with 3, reached 1.00 with 6).
 */
const TIE_SAMPLES = 2;

/**
 * A tie's train gains are asked again from the first hint of one (a chance of 0.05) until each is
 * 0.99 sure or out of samples. A tie has nothing else to rest on: five single answers that each
 * might have been a gain summed to "better" without one repeat (A/A seed 26), and one item looked
 * 0.9 sure after a reference that knew it slipped three answers of four (A/A seed 8).
 */
const TIE_GAINS = { gainsFrom: 0.05, gainsSure: 0.99 };

/**
 * The check by posterior verdict (issue #32): improved when "better" leads "worse" by the screen's
 * margin (SCREEN_LEAD), and it stops as soon as that is decided either way; strict (for the tie-break) when it
 * is better with the gate's confidence — weighed on only if a tie comes to need it. Looking for
 * regressions, every item is scored first (the repair reads the items more likely lost than not).
 */
async function weighOnTrain(ctx: EngineContext, a: TrainPair): Promise<TrainCheck> {
  const weigh = (accept: number, cautious = false, samples?: number) =>
    weighSkills(ctx, {
      ...(samples ? { samples } : {}),
      // A tie's accept rests on this verdict: the candidate may have changed nothing, as the gate's may.
      ...(cautious ? { samples: TIE_SAMPLES * a.policy.maxSamples, ...TIE_GAINS, neutral: true } : {}),
      noise: cautious ? 'cautious' : 'estimate',
      lead: !cautious,
      settleGains: cautious,
      phase: a.phase,
      ref: a.current,
      cand: a.candidate,
      itemIds: a.ordered.map((x) => x.itemId),
      refRows: a.ordered,
      policy: a.policy,
      accept,
      wave: a.wave,
      scoreAll: a.findRegressions,
      settleLosses: a.findRegressions,
      lossesFrom: LOSSES_FROM,
      untilWorse: true,
      acceptEarly: true,
    });
  let check = trainCheckOf(ctx, await weigh(SCREEN_LEAD));
  const first = check.verdict!.posterior!;
  if (!check.improved && undecidedScreen(first) && resamples(a.policy)) {
    // Undecided on the run's samples: the same screen weighed on with more (its samples so far count).
    const samples = EVIDENCE_SAMPLES * a.policy.maxSamples;
    const more = trainCheckOf(ctx, await weigh(SCREEN_LEAD, false, samples));
    const after = more.verdict!.posterior!;
    check = {
      ...more,
      calls: check.calls + more.calls,
      resampleCalls: (check.resampleCalls ?? 0) + (more.resampleCalls ?? 0),
      units: { ...check.units, ...more.units },
      evidence: {
        asked: 'samples',
        samples,
        calls: more.calls,
        before: { pBetter: first.pBetter, pWorse: first.pWorse },
        after: { pBetter: after.pBetter, pWorse: after.pWorse },
      },
    };
  }
  // Only a tie-break needs more: the same verdict, weighed on (its samples so far count) to the gate's confidence.
  check.confirmStrict = async () => {
    if (check.confirmed) return check.strict;
    // A tie has no validation evidence of its own: its train evidence is weighed at the cautious
    // noise bound, and every gain it rests on is asked again until settled (a fluke rarely repeats).
    const sure = trainCheckOf(ctx, await weigh(ctx.config.gateConfidence, true));
    Object.assign(check, { ...sure, confirmStrict: check.confirmStrict, confirmed: true });
    return check.strict;
  };
  return check;
}

/**
 * An undecided screen (issue #40): short of its lead, yet "better" plausible and "worse" no likelier
 * than not. On a target that misses one answer in five, a fix worth a family is a train item or two
 * of twenty, and a slip elsewhere on three answers leaves "worse" about as likely as "better":
 * cold-noisier ended at 0.75–0.875 on seeds whose last useful proposals the screen refused so (the
 * truly neutral candidates of its runs read 0.12 at most; the A/A world's reach 0.24, and more
 * samples bring them down).
 */
export function undecidedScreen(p: { pBetter: number; pWorse: number }): boolean {
  return p.pBetter >= SCREEN_UNDECIDED_FROM && p.pBetter - p.pWorse < SCREEN_LEAD && p.pWorse <= 0.5;
}

/** Below this chance of "better" a screen has said no. */
const SCREEN_UNDECIDED_FROM = 0.15;

function trainCheckOf(ctx: EngineContext, cmp: Awaited<ReturnType<typeof weighSkills>>): TrainCheck {
  const v = cmp.verdict;
  const both = cmp.pairs.filter((p) => p.ref.length && p.cand.length);
  const side = (f: 'ref' | 'cand') => ({
    hard: meanOf(both.map((p) => p[f][0].hard)),
    soft: meanSoft(both.flatMap((p) => p[f])),
  });
  return {
    delta: { n: v.n, regressed: v.regressed, improved: v.improved, before: side('ref'), after: side('cand') },
    rows: cmp.candRows,
    calls: cmp.calls,
    verdict: v,
    resampleCalls: cmp.resampleCalls,
    units: cmp.units,
    complete: cmp.complete,
    improved: cmp.posterior.pBetter - cmp.posterior.pWorse >= SCREEN_LEAD,
    strict: cmp.posterior.pBetter >= ctx.config.gateConfidence,
    changes: cmp.posterior.items.map((x) => ({ up: x.up, down: x.down })),
  };
}

const meanOf = (xs: readonly number[]) => (xs.length ? xs.reduce((a, x) => a + x, 0) / xs.length : 0);

export interface RepairOutcome {
  /** The repaired bundle: kept edits, then the added ones. */
  edits: Edit[];
  dropped: Edit[];
  added: Edit[];
  reasoning: string;
  /** The bundle changed. */
  repaired: boolean;
}

export interface RepairInput {
  key: string;
  /** 1 for the first repair of the step; later rounds see what the previous bundle still broke. */
  round?: number;
  current: string;
  candidate: string;
  edits: readonly Edit[];
  check: TrainCheck;
  currentRows: readonly RolloutRow[];
  /** Most edits the repairer may add (the step's budget). */
  maxAdded: number;
  metaText: string;
}

function describeItem(
  ctx: EngineContext,
  id: string,
  before: RolloutRow | undefined,
  after: RolloutRow | undefined,
): string {
  const item = ctx.items.get(id);
  const expected = item?.correctChoice ?? item?.answers.join(' | ') ?? '';
  const lines = [
    `### Task ${id}`,
    `Question: ${item?.question ?? ''}`,
    `Expected answer: ${expected}`,
    `Answer with the current skill: ${before?.predicted || 'N/A'}`,
    `Answer with the candidate: ${after?.predicted || 'N/A'}`,
  ];
  // An agent's item (issue #30): what went wrong is in its turns — a slip of the agent reads
  // differently from a rule that sent it astray, so the repairer sees both trajectories.
  const view = trajectoryView(ctx, '');
  if (view.full && (before?.trajectory || after?.trajectory)) {
    for (const [label, row] of [
      ['current skill', before],
      ['candidate', after],
    ] as const) {
      if (!row?.trajectory) continue;
      const reason = row.failReason ? ` — ${row.failReason}` : ' — passed';
      lines.push(`Trajectory with the ${label}${reason}:`, ...conversationLines(row.trajectory, view.resultChars));
    }
  }
  return lines.join('\n');
}

/** Ask the optimizer which edits broke the regressed items, and how to keep the gains. */
export async function repairBundle(ctx: EngineContext, a: RepairInput): Promise<RepairOutcome> {
  const before = new Map(a.currentRows.map((r) => [r.itemId, r]));
  const after = new Map(a.check.rows.map((r) => [r.itemId, r]));
  const render = (ids: readonly string[]) =>
    ids.map((id) => describeItem(ctx, id, before.get(id), after.get(id))).join('\n\n');
  const round = a.round ?? 1;
  const r = await callOptimizer(ctx, `${a.key}/repair_edits${round > 1 ? `-${round}` : ''}`, 'repair_edits', {
    meta: a.metaText,
    skill: a.current,
    candidate: a.candidate,
    count: String(a.edits.length),
    edits: a.edits.map(describeEdit).join('\n'),
    regressed: render(a.check.delta.regressed.slice(0, 12)),
    improved: render(a.check.delta.improved.slice(0, 6)),
    budget: String(a.maxAdded),
  });
  checkErrorRate(ctx, 'repair', [r]);
  const unchanged: RepairOutcome = { edits: [...a.edits], dropped: [], added: [], reasoning: '', repaired: false };
  if (!r.json) return unchanged;
  const drop = new Set(pickIndices(r.json.drop_indices, a.edits.length, a.edits.length));
  const kept = a.edits.filter((_, i) => !drop.has(i));
  const proposed = validatePayload(r.json, 'add_edits');
  const raw = (proposed.ok ? proposed.items : []) as unknown as Edit[];
  // Added edits are screened against the candidate they extend, like any other edit.
  const added = screenEdits(
    a.candidate,
    raw.map((e) => ({ ...e, source_type: 'failure' as const })),
  ).kept.slice(0, Math.max(0, a.maxAdded));
  const repaired = drop.size > 0 || added.length > 0;
  return {
    edits: repaired ? [...kept, ...added] : [...a.edits],
    dropped: a.edits.filter((_, i) => drop.has(i)),
    added,
    reasoning: String(r.json.reasoning ?? ''),
    repaired,
  };
}

/** Regressed and improved items each leave-one-out probe scores (few: every edit costs a call per item). */
const BLAME_REGRESSED = 3;
const BLAME_IMPROVED = 2;

/**
 * Leave-one-out blame (issue #19): each edit of the bundle is left out in turn and the bundle
 * without it is scored on a few items the bundle broke and a few it fixed. An edit is to blame
 * when leaving it out restores at least half of those broken items and loses none of the fixed
 * ones — a harmful rule slipped in by a repair, say — while an edit that carries the gains (a
 * replaced rule whose families the bundle must restore) is kept. No optimizer call is needed.
 */
export async function blameByLeavingOut(
  ctx: EngineContext,
  a: { key: string; round: number; current: string; edits: readonly Edit[]; check: TrainCheck; policy: NoisePolicy },
): Promise<{ blamed: number[]; probes: BlameProbe[] }> {
  const regressed = a.check.delta.regressed.slice(0, BLAME_REGRESSED);
  const improved = a.check.delta.improved.slice(0, BLAME_IMPROVED);
  const ids = [...regressed, ...improved];
  if (a.edits.length < 2 || !regressed.length) return { blamed: [], probes: [] };
  const probes = await Promise.all(
    a.edits.map(async (_, index) => {
      const without = withoutEdit(a.current, a.edits, index);
      const r = await rolloutPhase(ctx, {
        phase: `${a.key}/check-blame${a.round > 1 ? `${a.round}-` : ''}${index}`,
        skill: without,
        itemIds: ids,
      });
      const pass = new Map(r.rows.filter((x) => x.status === 'ok').map((x) => [x.itemId, isPass(x.hard)]));
      return {
        index,
        restored: regressed.filter((id) => pass.get(id) === true),
        lost: improved.filter((id) => pass.get(id) === false),
      };
    }),
  );
  const need = Math.max(1, Math.ceil(regressed.length / 2));
  return { blamed: probes.filter((p) => p.restored.length >= need && p.lost.length === 0).map((p) => p.index), probes };
}

/** An item delta as artifacts store it: `fixed` are the items that now pass. */
export function summariseDelta(d: ItemDelta): DeltaSummary {
  return { n: d.n, regressed: d.regressed, fixed: d.improved, before: d.before, after: d.after };
}

/** A train check as its step artifact stores it. */
export function checkArtifact(check: TrainCheck): CheckArtifact {
  const v = check.verdict;
  return {
    ...summariseDelta(check.delta),
    complete: check.complete,
    improved: check.improved,
    strict: check.strict,
    calls: check.calls,
    ...(v ? { verdict: verdictRecord(v), resampleCalls: check.resampleCalls ?? 0 } : {}),
    ...(check.evidence ? { evidence: check.evidence } : {}),
  };
}

/** A paired verdict as artifacts store it. */
export function verdictRecord(v: PairedVerdict): VerdictRecord {
  return {
    n: v.n,
    improved: v.improved,
    regressed: v.regressed,
    pValue: v.pValue,
    resampled: v.resampled,
    unsettled: v.unsettled,
    margin: v.margin,
    ...(v.posterior ? { posterior: v.posterior } : {}),
  };
}
