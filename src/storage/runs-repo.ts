/** Runs as the UI sees them: list, read, rename, delete (with all their rows), recover. */
import type { SkillwrightDb } from './open-db';
import { RUN_DATA_STORES, type RunRecord } from './schema';
import { guardQuota } from './quota';

/** What a runs list shows, without the heavy state. */
export interface RunListItem {
  id: string;
  name: string;
  datasetId: string;
  status: RunRecord['status'];
  createdAt: number;
  updatedAt: number;
  reason?: string;
  bestScore: number | null;
  baselineScore: number | null;
  stepsDone: number;
  totalCostUsd: number | null;
  targetModel: string;
  optimizerModel: string;
  /** Imported and not yet bound to the user's own endpoints: read-only. */
  needsBinding: boolean;
  /** The run and skill this run was branched from (the lineage view). */
  parent?: { runId: string; label?: string };
}

/** A stored figure the list shows, or null: an imported bundle's run state is someone else's (issue #39 M7). */
const figure = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

export function toListItem(r: RunRecord): RunListItem {
  return {
    id: r.id,
    name: r.name,
    datasetId: r.datasetId,
    status: r.status,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    reason: typeof r.state?.reason === 'string' ? r.state.reason : undefined,
    bestScore: r.state?.baselineDone ? figure(r.state.gate.bestScore) : null,
    baselineScore: figure(r.state?.summary?.baselineSelection),
    stepsDone: r.state ? (figure(r.state.nextStep) ?? 1) - 1 : 0,
    totalCostUsd: figure(r.state?.summary?.totalCostUsd),
    targetModel: r.endpoints.target.model,
    optimizerModel: r.endpoints.optimizer.model,
    needsBinding: Boolean(r.needsBinding),
    ...(r.parent ? { parent: { runId: r.parent.runId, ...(r.parent.label ? { label: r.parent.label } : {}) } } : {}),
  };
}

/**
 * The one way a run's status changes: the record's status (what lists and indexes read) and its
 * state's status, reason and kind (what the engine resumes from) move together. Every writer
 * of a status — the engine's checkpoints, a cancel, start-up recovery, an import — goes
 * through here.
 */
export function withStatus(
  run: RunRecord,
  status: RunRecord['status'],
  why?: { reason?: string; reasonKind?: string },
): RunRecord {
  const state = run.state && {
    ...run.state,
    status,
    ...(why ? { reason: why.reason, reasonKind: why.reasonKind } : {}),
  };
  return { ...run, status, state };
}

/** Change a stored run's status (see `withStatus`); undefined when there is no such run. */
export async function setRunStatus(
  db: SkillwrightDb,
  runId: string,
  status: RunRecord['status'],
  why: { reason: string; reasonKind: string },
  at: number,
): Promise<RunRecord | undefined> {
  const run = await db.get('runs', runId);
  if (!run) return undefined;
  const next = { ...withStatus(run, status, why), updatedAt: at };
  await putRun(db, next);
  return next;
}

export async function putRun(db: SkillwrightDb, run: RunRecord): Promise<void> {
  await guardQuota(() => db.put('runs', run));
}

export function getRun(db: SkillwrightDb, id: string): Promise<RunRecord | undefined> {
  return db.get('runs', id);
}

/** Most recently updated first. */
export async function listRuns(db: SkillwrightDb): Promise<RunListItem[]> {
  const all = await db.getAllFromIndex('runs', 'by-updated');
  return all.reverse().map(toListItem);
}

export async function renameRun(db: SkillwrightDb, id: string, name: string): Promise<boolean> {
  const tx = db.transaction('runs', 'readwrite');
  const r = await tx.store.get(id);
  if (r) await tx.store.put({ ...r, name: name.trim() || r.name });
  await tx.done;
  return Boolean(r);
}

/** Delete a run and every row that belongs to it, in one transaction. */
export async function deleteRun(db: SkillwrightDb, id: string): Promise<void> {
  const tx = db.transaction(['runs', ...RUN_DATA_STORES], 'readwrite');
  const deletions: Promise<unknown>[] = [tx.objectStore('runs').delete(id)];
  for (const name of RUN_DATA_STORES) {
    const index = tx.objectStore(name).index('by-run');
    deletions.push(
      (async () => {
        for (let c = await index.openKeyCursor(IDBKeyRange.only(id)); c; c = await c.continue())
          await tx.objectStore(name).delete(c.primaryKey);
      })(),
    );
  }
  await Promise.all([...deletions, tx.done]);
}

/** At start-up: a run still marked running was cut off (tab closed, crash). */
export async function markInterrupted(
  db: SkillwrightDb,
  isOwnedElsewhere: (id: string) => Promise<boolean> = async () => false,
): Promise<string[]> {
  const running = await db.getAllFromIndex('runs', 'by-status', 'running');
  const marked: string[] = [];
  for (const r of running) {
    if (await isOwnedElsewhere(r.id)) continue;
    const reason =
      'The run was interrupted (the page was closed or reloaded). Resume to continue from its last checkpoint.';
    await db.put('runs', withStatus(r, 'interrupted', { reason, reasonKind: 'interrupted' }));
    marked.push(r.id);
  }
  return marked;
}
