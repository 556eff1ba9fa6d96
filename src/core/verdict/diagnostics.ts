/**
 * Run diagnostics (issue #11): when a run ends without accepting a single step, say why, step
 * by step, with the evidence — rather than leaving the user with a flat line.
 */
import { EPSILON, isTie } from './epsilon';

/** What a step showed, as the diagnosis needs it. */
export interface StepFacts {
  step: number;
  action: string;
  rolloutN: number;
  rolloutErrors: number;
  rolloutHard: number;
  patches: number;
  merged: number;
  applied: number;
  candidateScore: number | null;
  currentScore: number;
  /** False when the gate stopped early: the candidate could no longer win. */
  complete: boolean | null;
  skippedByCheck: boolean;
  refusedByRule: boolean;
  /** The person reviewing the step approved none of its changes. */
  vetoed?: boolean;
}

export const NO_PROGRESS_CAUSES = [
  'already_perfect',
  'errors',
  'no_failures',
  'no_patches',
  'no_rewrite',
  'no_edits_applied',
  'train_check',
  'vetoed',
  'gate_rule',
  'ties',
  'worse',
] as const;
export type NoProgressCause = (typeof NO_PROGRESS_CAUSES)[number];

export interface CauseReport {
  cause: NoProgressCause;
  steps: number[];
  /** What happened, with figures. */
  evidence: string;
  /** What the user can change. */
  advice: string;
}

export interface Diagnosis {
  /** One sentence: the main cause. */
  headline: string;
  causes: CauseReport[];
}

const ADVICE: Record<NoProgressCause, string> = {
  already_perfect: 'Nothing can beat a perfect score strictly: use a harder validation split, or a different metric.',
  errors: 'Check the endpoint (Connect → Test connection) and the step inspector’s errored rollouts.',
  no_failures:
    'There was nothing to learn from failures; turn off “Failures only” to learn from successes, or use harder training items.',
  no_patches: 'Check the optimizer model and its raw answers in the step inspector (Analysts).',
  no_rewrite:
    'Read the rewrite replies in the step inspector; a reply cut off by the output limit is dropped (raise “Optimizer max output tokens” on Connect), or use patch mode.',
  no_edits_applied:
    'See “Dropped before ranking” and the apply report in the step inspector: edits that cannot apply are dropped.',
  train_check:
    'Candidates were no better on their own train batch; a larger batch or edit budget gives them more room.',
  vetoed: 'You approved none of the proposed changes; approve the ones you agree with, or turn off “Review each step”.',
  gate_rule:
    'The gate rule refused them (see its verdicts); the mean rule, or a smaller k, lets real but small gains in.',
  ties: 'A larger validation split, the soft or mixed gate metric, or the validation tie-break can tell such candidates apart.',
  worse: 'The edits hurt on validation; a smaller edit budget or more specific training items may help.',
};

/** The one cause that best explains why a step was not accepted. */
export function stepCause(s: StepFacts): NoProgressCause {
  if (s.rolloutN > 0 && s.rolloutErrors * 2 >= s.rolloutN) return 'errors';
  if (s.action === 'skip_no_patches') return s.rolloutHard >= 1 - EPSILON ? 'no_failures' : 'no_patches';
  if (s.action === 'skip_no_rewrite') return 'no_rewrite';
  if (s.action === 'skip_settled') return 'no_failures'; // every failure a slip: nothing left to learn
  if (s.patches === 0) return 'no_patches';
  if (s.vetoed) return 'vetoed'; // before 'applied': a vetoed bundle applies nothing
  if (s.merged === 0 || s.applied === 0) return 'no_edits_applied';
  if (s.skippedByCheck) return 'train_check';
  if (s.refusedByRule) return 'gate_rule';
  if (s.complete !== false && s.candidateScore !== null && isTie(s.candidateScore - s.currentScore)) return 'ties';
  return 'worse';
}

function evidence(cause: NoProgressCause, steps: StepFacts[], baseline: number): string {
  const n = steps.length;
  const of = `${n} step${n === 1 ? '' : 's'}`;
  switch (cause) {
    case 'already_perfect':
      return `The starting skill already scored ${(baseline * 100).toFixed(1)}% on validation.`;
    case 'errors':
      return `In ${of}, at least half of the train rollouts failed with errors (${steps.reduce((a, s) => a + s.rolloutErrors, 0)} errored rollouts).`;
    case 'no_failures':
      return `In ${of}, every train item passed, so the failure analysts had nothing to explain.`;
    case 'no_patches':
      return `In ${of}, the analysts returned no edits.`;
    case 'no_rewrite':
      return `In ${of}, the optimizer wrote no usable skill from the analyses (rewrite modes).`;
    case 'no_edits_applied':
      return `In ${of}, no proposed edit survived merging, screening and applying.`;
    case 'train_check':
      return `In ${of}, the candidate was no better on its train batch, so validation was not spent on it.`;
    case 'vetoed':
      return `In ${of}, you approved none of the proposed changes, so the gate had nothing new to score.`;
    case 'gate_rule':
      return `In ${of}, the candidate beat the mean but the gate rule refused it.`;
    case 'ties': {
      const scores = [...new Set(steps.map((s) => (s.candidateScore ?? 0).toFixed(3)))].join(', ');
      return `In ${of}, the candidate scored exactly the current skill on validation (${scores}): the gate needs a strictly higher score.`;
    }
    case 'worse': {
      const gaps = steps.filter((s) => s.candidateScore !== null).map((s) => s.candidateScore! - s.currentScore);
      const worst = gaps.length ? Math.min(...gaps) : 0;
      return `In ${of}, the candidate scored below the current skill on validation${gaps.length ? ` (by up to ${(-worst * 100).toFixed(1)} points)` : ''}${steps.some((s) => s.complete === false) ? '; the gate stopped early once it could no longer win' : ''}.`;
    }
  }
}

/** Why no step was accepted; null when some step was. */
export function diagnoseNoProgress(
  steps: readonly StepFacts[],
  o: { accepts: number; baseline: number },
): Diagnosis | null {
  if (o.accepts > 0) return null;
  const byCause = new Map<NoProgressCause, StepFacts[]>();
  for (const s of steps) {
    const c = stepCause(s);
    byCause.set(c, [...(byCause.get(c) ?? []), s]);
  }
  const causes: CauseReport[] = [...byCause.entries()]
    .sort((a, b) => b[1].length - a[1].length || NO_PROGRESS_CAUSES.indexOf(a[0]) - NO_PROGRESS_CAUSES.indexOf(b[0]))
    .map(([cause, ss]) => ({
      cause,
      steps: ss.map((s) => s.step),
      evidence: evidence(cause, ss, o.baseline),
      advice: ADVICE[cause],
    }));
  if (o.baseline >= 1 - EPSILON)
    causes.unshift({
      cause: 'already_perfect',
      steps: [],
      evidence: evidence('already_perfect', [], o.baseline),
      advice: ADVICE.already_perfect,
    });
  const main = causes[0];
  const headline = main
    ? `No step was accepted. ${main.evidence}`
    : 'No step was accepted: the run had no update steps (the train split is smaller than one batch?).';
  return { headline, causes };
}
