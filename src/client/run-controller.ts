/**
 * Starting, resuming, pausing and cancelling runs from the page. The worker does the work; this
 * module turns its answers and events into the page's state. The run's status shown is always
 * one the worker reported (an event, or its answer to a call), never one assumed ahead of it.
 */
import { trainer, proxyCallback } from './trainer-client';
import { runEndpoints, runEnvironment, setApp, useApp, type ChartPoint } from '../store/app-store';
import { isDemoEndpoint } from './demo';
import { handOverKeys } from './keys';
import { flushRunEvents, queueRunEvent, startLive } from '../store/run-events';
import type { RunEventOf, RunStatus, StartOutcome, Result } from '../worker/api-types';
import { chargedPrices } from '../core/config/service-tier';

/** Show how a start or resume ended; a refused one (missing key, locked…) gets back the status it had. */
function settle(r: Result<StartOutcome>, before: { status: RunStatus; reason?: string }): void {
  flushRunEvents();
  if (!r.ok) {
    const live = useApp.getState().live;
    if (live) setApp({ live: { ...live, status: before.status, reason: before.reason, starting: undefined } });
    setApp({ problem: r.error.message });
    return;
  }
  const live = useApp.getState().live;
  if (live)
    setApp({ live: { ...live, status: r.status, reason: r.reason, reasonKind: r.reasonKind, starting: undefined } });
  // A pause for the user's own action (pausing, a review they asked for) is no problem.
  if (r.status === 'paused' && r.reasonKind !== 'user' && r.reasonKind !== 'review')
    setApp({ problem: r.reason ?? 'The run paused.' });
}

/** Chart points of a run so far, from its stored steps. */
async function storedPoints(runId: string): Promise<ChartPoint[]> {
  const { steps } = await trainer().getSteps(runId, 0, 100_000);
  return steps.map((s) => ({
    step: s.step,
    epoch: s.epoch,
    action: s.action,
    candidate: s.candidateGateScore,
    ...(s.scoreBefore !== undefined ? { faced: s.scoreBefore } : {}),
    current: s.currentScore,
    best: s.bestScore,
    trainHard: s.rolloutHard,
    editBudget: s.editBudget,
  }));
}

/**
 * The run this tab is running, if any. One at a time (issue #20 item 3): the dashboard, Pause and
 * the run's events follow one run, so a second start waits until the first has paused or ended.
 */
let runningHere: string | null = null;

const busyProblem = () =>
  'Another run is running in this tab. Pause it (Train) before you start or resume a different one.';

/** Run `startRun` as this tab's one running run. */
async function runHere(runId: string, start: () => Promise<Result<StartOutcome>>): Promise<Result<StartOutcome>> {
  runningHere = runId;
  try {
    return await start();
  } finally {
    if (runningHere === runId) runningHere = null;
  }
}

export async function startTraining(): Promise<void> {
  const s = useApp.getState();
  setApp({ problem: null });
  if (runningHere) return void setApp({ problem: busyProblem() });
  if (!s.datasetId) return void setApp({ problem: 'Choose a dataset first (Data).' });
  await handOverKeys();
  const held = await trainer().keyStatus();
  // The demo endpoint needs no key of the user's: the worker supplies its own, for it alone.
  const endpoints = runEndpoints(s.connection);
  const needs = (role: 'target' | 'optimizer') => !isDemoEndpoint(endpoints[role].baseURL) && !held[role];
  if (needs('target') || needs('optimizer')) return void setApp({ problem: 'Enter the API key first (Connect).' });
  setApp({ live: null }); // the previous run's dashboard goes away at once
  const environment = runEnvironment(s);
  const created = await trainer().createRun({
    datasetId: s.datasetId,
    config: s.config,
    initialSkill: s.skill,
    endpoints,
    prices: chargedPrices(s.connection.prices, s.connection),
    ...(s.skillMeta ? { skillMeta: s.skillMeta } : {}),
    ...(s.skillPackage ? { skillPackage: s.skillPackage } : {}),
    ...(s.skillParent ? { parent: s.skillParent } : {}),
    ...(s.config.activationTrack && s.triggerQueries ? { triggerQueries: s.triggerQueries.queries } : {}),
    ...(environment ? { environment } : {}),
  });
  if (!created.ok) return void setApp({ problem: created.error.message });
  const run = await trainer().getRun(created.runId);
  startLive(created.runId, 'idle', run.ok ? run.detail.totalSteps : 0, { starting: true });
  const r = await runHere(created.runId, () =>
    trainer().startRun(
      created.runId,
      proxyCallback((e: RunEventOf) => queueRunEvent(e)),
    ),
  );
  settle(r, { status: 'idle' });
}

export async function resumeRun(runId: string, patch?: { budgetUsd?: number }): Promise<void> {
  setApp({ problem: null });
  if (runningHere) return void setApp({ problem: busyProblem() });
  await handOverKeys();
  const run = await trainer().getRun(runId);
  if (!run.ok) return void setApp({ problem: run.error.message });
  const prior = run.detail.run.status;
  startLive(runId, prior, run.detail.totalSteps, {
    points: await storedPoints(runId),
    curve: await trainer().getCurveMarks(runId),
    baseline: run.detail.baselineScore,
    reason: run.detail.reason,
    reasonKind: run.detail.reasonKind,
    starting: true,
  });
  const budget =
    patch?.budgetUsd !== undefined ? { budget: { ...run.detail.config.budget, usd: patch.budgetUsd } } : undefined;
  const r = await runHere(runId, () =>
    trainer().startRun(
      runId,
      proxyCallback((e: RunEventOf) => queueRunEvent(e)),
      budget,
    ),
  );
  settle(r, { status: prior, reason: run.detail.reason });
}

/**
 * Steering: store the approved items of the proposal the panel showed, then resume the run to gate
 * them. False when the decision was refused (the proposal changed): the panel shows the new one.
 */
export async function submitReviewAndResume(
  runId: string,
  step: number,
  approved: number[],
  proposal: string | null,
): Promise<boolean> {
  const r = await trainer().submitReview(runId, step, approved, proposal);
  if (!r.ok) {
    setApp({ problem: r.error.message });
    return false;
  }
  await resumeRun(runId);
  return true;
}

export async function pauseRun(): Promise<void> {
  const live = useApp.getState().live;
  if (live) await trainer().pauseRun(live.runId);
}

export async function cancelRun(runId?: string): Promise<void> {
  const id = runId ?? useApp.getState().live?.runId;
  if (!id) return;
  const cancelled = await trainer().cancelRun(id);
  // A running run reports its own end in a status event; a stopped one was cancelled in storage, as the answer says.
  const live = useApp.getState().live;
  if (live?.runId === id && cancelled && live.status !== 'running')
    setApp({ live: { ...live, status: 'cancelled', reason: 'Cancelled by you.' } });
}

/** At start-up: mark cut-off runs interrupted and show the most recent unfinished one. */
export async function recoverOnStartup(): Promise<void> {
  await trainer().recoverInterrupted();
  const runs = await trainer().listRuns();
  const last = runs[0];
  if (last && (last.status === 'interrupted' || last.status === 'paused' || last.status === 'running')) {
    const run = await trainer().getRun(last.id);
    startLive(last.id, last.status, run.ok ? run.detail.totalSteps : 0, {
      points: await storedPoints(last.id),
      curve: await trainer().getCurveMarks(last.id),
      baseline: run.ok ? run.detail.baselineScore : undefined,
      reason: last.reason,
      reasonKind: run.ok ? run.detail.reasonKind : undefined,
    });
  }
}
