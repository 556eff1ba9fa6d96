/**
 * Folding the worker's run events into the live view of the page (module-level actions).
 * Events arrive in bursts (a progress event per item, a log line per call): each store update
 * re-renders the dashboard synchronously, so a burst is folded into one update per frame.
 */
import type { RunEventOf, RunStatus } from '../worker/api-types';
import { setApp, useApp, type LiveRun } from './app-store';
import type { CurveMark } from '../core/report/learning-curve';

const sameMark = (a: CurveMark, b: CurveMark) =>
  a.kind === b.kind && (a.kind === 'baseline' || (b.kind !== 'baseline' && a.step === b.step && a.epoch === b.epoch));

const MAX_LOG = 400;
/** How long events wait to be folded together: ten screen updates a second is as live as a person reads. */
export const EVENT_FLUSH_MS = 100;

let queued: RunEventOf[] = [];
let flushTimer: ReturnType<typeof setTimeout> | null = null;

/** Take an event from the worker; it reaches the page with the others of its burst. */
export function queueRunEvent(e: RunEventOf): void {
  queued.push(e);
  flushTimer ??= setTimeout(flushRunEvents, EVENT_FLUSH_MS);
}

/** Fold every queued event now (before the page acts on a run's answer, so events keep their order). */
export function flushRunEvents(): void {
  if (flushTimer !== null) clearTimeout(flushTimer);
  flushTimer = null;
  const events = queued;
  queued = [];
  applyRunEvents(events);
}

/**
 * Show a run live, with the status it has now; only the worker's events (or its answer to a
 * start) change it afterwards. `starting` marks a start asked for and not yet reported.
 */
export function startLive(
  runId: string,
  status: RunStatus,
  totalSteps: number,
  opts: {
    points?: LiveRun['points'];
    curve?: LiveRun['curve'];
    baseline?: number;
    reason?: string;
    reasonKind?: string;
    starting?: boolean;
  } = {},
): void {
  const { points = [], curve = [], baseline, reason, reasonKind, starting } = opts;
  flushRunEvents();
  setApp({
    live: {
      runId,
      status,
      reason,
      reasonKind,
      step: 0,
      epoch: 0,
      totalSteps,
      points,
      curve,
      baseline,
      usage: {},
      costUsd: 0,
      log: [],
      startedAt: Date.now(),
      ...(starting ? { starting } : {}),
    },
  });
}

/** Fold events into the live view with one store update. */
export function applyRunEvents(events: readonly RunEventOf[]): void {
  const before = useApp.getState().live;
  const after = events.reduce<LiveRun | null>((live, e) => (live ? foldRunEvent(live, e) : live), before);
  if (after !== before) setApp({ live: after });
}

/** The live view after one event (the same object when the event is another run's). */
function foldRunEvent(live: LiveRun, e: RunEventOf): LiveRun {
  // Another run's events never land on this dashboard.
  if (e.runId !== live.runId) return live;
  const next: LiveRun = { ...live };
  switch (e.type) {
    case 'status':
      next.starting = undefined;
      next.status = e.status;
      next.reason = e.reason;
      next.reasonKind = e.reasonKind;
      break;
    case 'stage':
      next.stage = e.stage;
      next.step = e.step;
      next.epoch = e.epoch;
      next.totalSteps = e.totalSteps;
      break;
    case 'baseline':
      next.baseline = e.score;
      break;
    case 'progress':
      next.progress = { phase: e.phase, done: e.done, total: e.total };
      break;
    case 'step':
      next.points = [
        ...live.points.filter((p) => p.step !== e.step),
        {
          step: e.step,
          epoch: e.epoch,
          action: e.action,
          candidate: e.candidateScore,
          faced: e.scoreBefore,
          current: e.currentScore,
          best: e.bestScore,
          trainHard: e.trainHard,
          editBudget: e.editBudget,
        },
      ];
      next.firstPointAt ??= Date.now();
      break;
    case 'usage':
      next.usage = e.usage;
      next.costUsd = e.totalCostUsd;
      break;
    case 'log':
      next.log = [...live.log, { at: Date.now(), level: e.level, message: e.message }].slice(-MAX_LOG);
      break;
    case 'noise':
      next.noise = e.noise;
      break;
    case 'curve':
      // A point made again (a resumed step) replaces its earlier self.
      next.curve = [...live.curve.filter((m) => !sameMark(m, e.mark)), e.mark];
      break;
    case 'epoch':
      next.log = [
        ...live.log,
        {
          at: Date.now(),
          level: 'info',
          message: `Epoch ${e.epoch} done: slow update ${e.slowUpdate ?? 'off'}, meta skill ${e.metaSkill ?? 'off'}.`,
        },
      ].slice(-MAX_LOG);
      break;
  }
  return next;
}
