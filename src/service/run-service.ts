/**
 * The run service (DESIGN §7b): every use case the page and the runner offer, written once over
 * the host's ports (ports.ts). `createRunService(deps)` binds them to one host's store, keys and
 * clock; the page's worker exposes it with Comlink, the runner calls it from its commands.
 */
import type { ServiceDeps } from './ports';
import { bindRun, createRun, startRun } from './runs';
import { estimateCost, evaluateSkill, improveWithFeedback } from './evaluation';
import { exportBundle, exportEvals, importBundle } from './documents';
import { blameSkill, curveMarks, pendingReview, stepDetail, submitReview } from './inspection';
import { reportHtml } from './report';
import { createDataset } from './datasets';
import { creditSkillSections, gateSectionDrop } from './section-credit';
import { confirmRun } from './confirm-run';

/** Each use case with the host's deps bound: `service.startRun(runId, …)`. */
type Bound<F> = F extends (deps: infer _D, ...args: infer A) => infer R ? (...args: A) => R : never;

const USE_CASES = {
  createDataset,
  createRun,
  startRun,
  bindRun,
  confirmRun,
  evaluateSkill,
  improveWithFeedback,
  estimateCost,
  creditSkillSections,
  gateSectionDrop,
  exportEvals,
  exportBundle,
  importBundle,
  stepDetail,
  curveMarks,
  blameSkill,
  pendingReview,
  submitReview,
  exportReport: (deps: ServiceDeps, runId: string) => reportHtml(deps.records, runId),
  /** The stored run record, its state inside (what a host shows or writes out of it). */
  runRecord: (deps: ServiceDeps, runId: string) => deps.records.getRun(runId),
};

export type RunService = { [K in keyof typeof USE_CASES]: Bound<(typeof USE_CASES)[K]> };

export function createRunService(deps: ServiceDeps): RunService {
  const bound = Object.entries(USE_CASES).map(([name, fn]) => [
    name,
    (...args: unknown[]) => (fn as (d: ServiceDeps, ...a: unknown[]) => unknown)(deps, ...args),
  ]);
  return Object.fromEntries(bound) as RunService;
}
