/**
 * A run session of the runner, shared by `train` and `resume`: the run in the folder continued
 * (under a new budget cap when one is given) or, when it has ended, its outputs written; then
 * what happened said on the terminal and chosen as the exit code.
 */
import { join } from 'node:path';
import type { RunConfig } from '../core/config/run-config';
import type { TrainOutcome } from '../engine/run/trainer';
import type { RunService } from '../service/run-service';
import { ConfigError } from './config';
import { inputChecked, storePath } from './host';
import { EXIT, numberOption, stopOnInterrupt, type CliArgs, type CliIo } from './io';
import { checkOutputs, writeOutputs } from './outputs';
import { Progress } from './progress';
import { learningCurve } from '../core/report/learning-curve';
import { runLift } from '../core/report/test-lift';

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
  if (run.status === 'completed' || run.status === 'cancelled') {
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
  const state = (await s.service.runRecord(s.runId))?.state;
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
    costUsd: sum?.totalCostUsd ?? null,
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
      `Done: ${summary.accepted} step(s) accepted; validation ${fmt(summary.baseline)} → ${fmt(summary.best)}${lift !== null ? `; test lift ${(lift * 100).toFixed(1)} points` : ''}.`,
    );
    io.err(
      `Best skill: ${written.join(' and ')} · report: ${join(out, 'report.html')} · run bundle (import it on the Runs screen): ${join(out, 'run-bundle.json')}`,
    );
    if (!summary.accepted) io.err(await whyNothingLearned(s));
  } else io.err(`${outcome.status}: ${outcome.reason ?? ''}`);
  if (s.args.json) io.out(JSON.stringify(summary));
  if (outcome.status === 'paused' || outcome.status === 'interrupted') return EXIT.paused;
  if (outcome.status === 'completed') return lifted ? EXIT.lift : EXIT.noLift;
  return EXIT.failed;
}

/**
 * A run that learned nothing says whether the target failed or the skill did (issue #31, after
 * SkillOpt's agent backend): failed calls are never scored, so a target that mostly failed left
 * the analysts little to read.
 */
async function whyNothingLearned(s: Session): Promise<string> {
  const run = await s.service.runRecord(s.runId);
  const who = run?.endpoints.target.agentCommand ? 'agent' : 'target';
  const steps = await s.service.steps(s.runId);
  const n = steps.reduce((a, x) => a + x.rolloutN, 0);
  const errors = steps.reduce((a, x) => a + x.rolloutErrors, 0);
  const where = `each step's rollouts, reflections and gate are in ${join(s.out, 'report.html')}`;
  if (n && errors / n >= 0.2)
    return `No step was accepted, and the ${who} failed on ${errors} of ${n} training rollouts (not scored): fix the ${who} first — ${where}.`;
  return `No step was accepted: the ${who} answered (${errors} of ${n} training rollouts failed), so the skill's edits did not raise validation — ${where}.`;
}

const fmt = (v: number | null) => (v === null ? '—' : v.toFixed(3));
