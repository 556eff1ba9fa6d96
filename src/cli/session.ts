/**
 * A run session of the runner, shared by `train` and `resume`: the run in the folder continued
 * (under a new budget cap when one is given) or, when it has ended, its outputs written; then
 * what happened said on the terminal and chosen as the exit code.
 */
import { join } from 'node:path';
import type { RunConfig } from '../core/config/run-config';
import type { Diagnosis } from '../core/verdict/diagnostics';
import type { TrainOutcome } from '../engine/run/trainer';
import type { TestReport } from '../engine/types';
import type { PassK } from '../core/verdict/pass-k';
import type { RunService } from '../service/run-service';
import { hasEnded } from '../service/runs';
import { ConfigError } from './config';
import { inputChecked, storePath } from './host';
import { EXIT, numberOption, stopOnInterrupt, type CliArgs, type CliIo } from './io';
import { checkOutputs, writeOutputs } from './outputs';
import { Progress } from './progress';
import { learningCurve } from '../core/report/learning-curve';
import { runLift } from '../core/report/test-lift';
import { transferLifts } from '../core/report/transfer-lifts';
import { liftWords } from '../core/verdict/transfer';
import { targetValidationRows } from '../core/report/target-validation';
import type { RunSectionCredit } from '../engine/types';
import { creditLines } from './commands/credit';

export interface Session {
  service: RunService;
  runId: string;
  out: string;
  args: CliArgs;
  io: CliIo;
}

/** Continue the folder's run (under a new budget cap, when one is given), or report a finished one. */
export async function continueRun(s: Session, budget?: RunConfig['budget']): Promise<number> {
  const run = await s.service.runRecord(s.runId);
  if (!run) throw new ConfigError(`${storePath(s.out)} holds no run and dataset.`);
  if (hasEnded(run.status)) {
    // Its outputs are made now (a bundle's, taken in): what the folder cannot hold is named first.
    await checkOutputs(s.service, s.runId, s.out);
    s.io.err(`The run in ${s.out} is ${run.status}; its outputs are there.`);
    return finishSession(s, { status: run.status, summary: run.state?.summary });
  }
  await checkOutputs(s.service, s.runId, s.out); // before anything is spent
  const controller = stopOnInterrupt(s.io, 'Pausing at the next checkpoint… (the same command resumes)');
  const progress = new Progress(s.io.err, s.io.rawErr);
  const started = inputChecked(
    await s.service.startRun(s.runId, {
      ...(budget ? { budget } : {}),
      signal: controller.signal,
      onEvent: (e) => progress.event(e),
    }),
  );
  progress.done();
  if (!started.ok) throw new Error(started.error.message);
  return finishSession(s, started);
}

/** Write the outputs, say what happened, and choose the exit code. */
async function finishSession(s: Session, outcome: TrainOutcome): Promise<number> {
  const { io, out } = s;
  const run = await s.service.runRecord(s.runId);
  const state = run?.state;
  const a = state?.activation;
  const sum = outcome.summary;
  const written = await writeOutputs(s.service, s.runId, out);
  const test = (k: string) => sum?.tests.find((t) => t.skill === k)?.hard;
  const lift = sum ? runLift(sum) : null;
  const minLift = numberOption(s.args['min-lift'], 'min-lift') ?? 0;
  // Without a test split there is no lift to check: an accepted step is the gain.
  const lifted = outcome.status === 'completed' && (sum?.accepts ?? 0) > 0 && (lift === null || lift > minLift);
  const summary = {
    status: outcome.status,
    reason: outcome.reason ?? null,
    accepted: sum?.accepts ?? 0,
    baseline: sum?.baselineSelection ?? state?.baselineScore ?? null,
    best: sum?.bestSelection ?? state?.gate.bestScore ?? null,
    testInitial: test('initial') ?? null,
    testBest: test('best') ?? null,
    lift,
    liftInterval: sum?.lift?.interval ?? null,
    // Under each target that confirmed the skills (issue #42 item 5): the lift with its interval, and a ranking flip.
    transfer: transferJson(sum?.transfer),
    // Under each target that gated the run (issue #42 item 5): the starting and the best skill on validation.
    targets:
      validationRows(run?.endpoints.target.model ?? 'target', sum)?.map((r) => ({
        target: r.label,
        trained: r.trained,
        validationInitial: r.initial,
        validationBest: r.best,
      })) ?? null,
    // With several tries per test item (issue #43): each skill's pass^k beside its pass^1, and its flip rate.
    testPassK: passKBySkill(sum?.tests ?? []),
    costUsd: sum?.totalCostUsd ?? null,
    // Which section of the best skill earns its tokens, when the config asked (issue #43 item 4).
    sectionCredit: sum?.sectionCredit ?? null,
    // Validation score against training target calls and cost, point by point (core/report/learning-curve.ts).
    learningCurve: learningCurve(await s.service.curveMarks(s.runId)),
    ...(a
      ? {
          activation: {
            initialDescription: a.initialDescription,
            description: a.description,
            validation: { initial: a.baselineScore, best: a.score },
            test: a.test ?? null,
          },
        }
      : {}),
    out,
  };
  if (outcome.status === 'completed') {
    io.err(
      `Done: ${summary.accepted} step(s) accepted; validation ${fmt(summary.baseline)} → ${fmt(summary.best)}${lift !== null ? `; test lift ${(lift * 100).toFixed(1)} points` : ''}${passKWords(summary.testPassK?.best)}.`,
    );
    io.err(
      `Best skill: ${written.join(' and ')} · report: ${join(out, 'report.html')} · run bundle (import it on the Runs screen): ${join(out, 'run-bundle.json')}`,
    );
    const transfer = transferLifts(sum?.transfer);
    const gated = validationRows(run?.endpoints.target.model ?? 'target', sum);
    if (gated)
      io.err(
        [
          'Validation under each target that gated, the starting skill → the best:',
          ...gated.map((r) => `  ${r.label}${r.trained ? ' (trained on)' : ''}: ${fmt(r.initial)} → ${fmt(r.best)}`),
        ].join('\n'),
      );
    if (transfer) io.err(transferWords(transfer));
    if (sum?.sectionCredit) io.err(creditWords(sum.sectionCredit));
    if (!summary.accepted && sum?.diagnosis) io.err(whyNothingLearned(sum.diagnosis, out));
  } else io.err(`${outcome.status}: ${outcome.reason ?? ''}`);
  if (s.args.json) io.out(JSON.stringify(summary));
  if (outcome.status === 'paused' || outcome.status === 'interrupted') return EXIT.paused;
  if (outcome.status === 'completed') return lifted ? EXIT.lift : EXIT.noLift;
  return EXIT.failed;
}

/**
 * Why a run learned nothing, as the page's diagnosis card says it (the run's own diagnosis,
 * core/verdict/diagnostics.ts: whether the target failed or the skill did, step by step).
 */
function whyNothingLearned(d: Diagnosis, out: string): string {
  const causes = d.causes.map(
    (c) =>
      `  - ${c.steps.length ? `step${c.steps.length === 1 ? '' : 's'} ${c.steps.join(', ')}: ` : ''}${c.evidence} ${c.advice}`,
  );
  return [
    d.headline,
    ...causes,
    `  Each step's rollouts, reflections and gate are in ${join(out, 'report.html')}.`,
  ].join('\n');
}

/** The section credit in the closing lines: what it took, then a line per section and the skill's own cost. */
function creditWords(c: RunSectionCredit): string {
  if (!c.ok) return `Section credit of the best skill was not made: ${c.reason}`;
  const dropping = c.report.droppable.map((i) => c.report.sections[i].title);
  return [
    `Section credit of the best skill: ${c.masks} masks on ${c.plan.items} validation items, ${c.calls} calls of ${c.budget}` +
      `${c.errors ? ` (${c.errors} errored, not scored)` : ''}, cost $${c.costUsd.toFixed(4)}; effects on pass^1 with ` +
      `${Math.round(c.report.level * 100)}% intervals:`,
    ...creditLines(c.report),
    ...(dropping.length
      ? [
          `  Worth dropping (harmful, or no evidence of help): ${dropping.join(', ')} — skillwright credit --drop puts that to the gate.`,
        ]
      : []),
  ].join('\n');
}

/** The transfer in the JSON: per target its test scores and lift, and the verdict. */
function transferJson(t: unknown) {
  const read = transferLifts(t);
  if (!read) return null;
  return {
    targets: read.rows.map((r) => ({
      target: r.label,
      trained: r.trained,
      testInitial: r.initial,
      testBest: r.best,
      lift: r.lift,
      liftInterval: r.interval,
      reads: r.side,
    })),
    flip: read.verdict.flipped,
    warning: read.verdict.words,
  };
}

/** The transfer in the closing lines: one line per target, then the flip or the doubt. */
function transferWords(t: NonNullable<ReturnType<typeof transferLifts>>): string {
  const lines = t.rows.map(
    (r) =>
      `  ${r.label}${r.trained ? ' (trained on)' : ''}: test ${fmt(r.initial)} → ${fmt(r.best)}, lift ${liftWords({ shown: r.lift, interval: r.interval, level: r.level })}`,
  );
  return [
    'Transfer, the best skill over the starting one under each target:',
    ...lines,
    ...(t.verdict.words ? [t.verdict.words] : []),
  ].join('\n');
}

const fmt = (v: number | null) => (v === null || !Number.isFinite(v) ? '—' : v.toFixed(3));

/** The starting and the best skill on validation under each target, when other targets gated the run. */
const validationRows = (trained: string, sum: TrainOutcome['summary']) =>
  targetValidationRows(
    { label: trained, initial: sum?.baselineSelection ?? null, best: sum?.bestSelection ?? null },
    sum?.gateTargets,
  );

/** Each tested skill's pass^k, when the test tried its items more than once; null when it did not. */
function passKBySkill(tests: readonly TestReport[]): Partial<Record<TestReport['skill'], PassK>> | null {
  const withK = tests.filter((t) => t.passK);
  return withK.length ? Object.fromEntries(withK.map((t) => [t.skill, t.passK!])) : null;
}

/** The best skill's pass^k in the closing line. */
const passKWords = (p: PassK | undefined) =>
  p
    ? `; best on test pass^1 ${fmt(p.passAt1)}, pass^${p.k} ${fmt(p.passAtK)}, ${Math.round(p.flipRate * 100)}% of items flipped`
    : '';
