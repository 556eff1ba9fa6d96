/**
 * Runs: create, start or resume (the run service's; this tab adds the lock that lets one tab at a
 * time run a run, and coalesced events), pause, cancel, list, rename, delete, and recovery at start-up.
 */
import { deriveSteps } from '../../core/config/run-config';
import type { RunEvent } from '../../engine/events';
import { runShell } from '../../core/skill/package-zip';
import type { TrainOutcome } from '../../engine/run/trainer';
import { getDatasetIndex } from '../../storage/datasets-repo';
import {
  deleteRun,
  getRun,
  listRuns,
  markInterrupted,
  putRun,
  renameRun,
  setRunStatus,
  toListItem,
} from '../../storage/runs-repo';
import type { RunRecord } from '../../storage/schema';
import type { CreateRunInput, RunDetail, RunsApi } from '../api-types';
import { EventCoalescer } from '../event-coalescer';
import { runLockName } from '../locks';
import { fail, type ApiContext } from './context';
import { hasEnded } from '../../service/runs';

/** What the Runs screen says of a run's module: its name, hash and size, and whether it came with a file unread. */
function moduleSummary(run: RunRecord): Pick<RunDetail, 'module'> {
  const m = run.environment?.module;
  if (!m) return {};
  const bytes = new TextEncoder().encode(m.source).length;
  return { module: { name: m.name, fileName: m.fileName, hash: m.hash, bytes, fromFile: m.from === 'bundle' } };
}

export function runsHandlers(c: ApiContext): RunsApi {
  const { dbp, deps, now, active, locks, lockedElsewhere } = c;
  return {
    async createRun(input: CreateRunInput) {
      return (await c.service).createRun(input);
    },

    async startRun(runId, onEvent, patch) {
      if (active.has(runId)) return fail('already_running', 'This run is already running.');
      const controller = new AbortController();
      const events = new EventCoalescer((e: RunEvent) => onEvent?.({ ...e, runId }), deps.progressIntervalMs ?? 100);
      // The run trains only while this tab holds its lock: one tab at a time runs a run.
      const hold = (body: () => Promise<TrainOutcome>) =>
        locks.request(runLockName(runId), { ifAvailable: true }, async (lock) => {
          if (!lock) return null;
          active.set(runId, controller);
          try {
            const outcome = await body();
            await events.close();
            return outcome;
          } finally {
            active.delete(runId);
          }
        });
      const r = await (
        await c.service
      ).startRun(runId, {
        ...(patch?.budget ? { budget: patch.budget } : {}),
        signal: controller.signal,
        onEvent: (e) => events.push(e),
        hold,
      });
      return r.ok ? { ok: true, status: r.status, reason: r.reason, reasonKind: r.reasonKind } : r;
    },

    async confirmRun(runId, endpoint, onEvent) {
      if (active.has(runId)) return fail('already_running', 'This run is busy in this tab.');
      const controller = new AbortController();
      const events = new EventCoalescer((e: RunEvent) => onEvent?.({ ...e, runId }), deps.progressIntervalMs ?? 100);
      // Held as a training is: one tab at a time writes the run; cancelRun stops the confirm.
      const hold = <T>(body: () => Promise<T>) =>
        locks.request(runLockName(runId), { ifAvailable: true }, async (lock) => {
          if (!lock) return null;
          active.set(runId, controller);
          try {
            return await body();
          } finally {
            await events.close();
            active.delete(runId);
          }
        });
      return (await c.service).confirmRun(runId, endpoint, {
        signal: controller.signal,
        onEvent: (e) => events.push(e),
        hold,
      });
    },

    async pauseRun(runId) {
      const c = active.get(runId);
      if (!c) return false;
      c.abort('pause');
      return true;
    },

    async cancelRun(runId) {
      const c = active.get(runId);
      if (c) {
        c.abort('cancel');
        return true;
      }
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run || hasEnded(run.status) || (await lockedElsewhere(runId))) return false;
      await setRunStatus(db, runId, 'cancelled', { reason: 'Cancelled by you.', reasonKind: 'user' }, now());
      return true;
    },

    async listRuns() {
      return listRuns(await dbp);
    },

    async getRunPackage(runId) {
      const run = await getRun(await dbp, runId);
      return run?.skillPackage ? runShell(run.skillPackage, run.initialSkill) : null;
    },

    async getRun(runId) {
      const run = await getRun(await dbp, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      // The index entry holds the split sizes: the Runs screen asks after every live step, and a
      // dataset can be 100 MB (issue #20 item 15).
      const d = await getDatasetIndex(await dbp, run.datasetId);
      const s = run.state;
      return {
        ok: true,
        detail: {
          run: toListItem(run),
          config: run.config,
          initialSkill: run.initialSkill,
          endpoints: run.endpoints,
          prices: run.prices,
          ...(run.skillMeta ? { skillMeta: run.skillMeta } : {}),
          ...(s?.activation ? { activation: s.activation } : {}),
          currentSkill: s?.gate.currentSkill ?? run.initialSkill,
          bestSkill: s?.gate.bestSkill ?? run.initialSkill,
          currentScore: s?.gate.currentScore ?? 0,
          baselineScore: s?.baselineScore,
          bestScore: s?.gate.bestScore ?? 0,
          bestStep: s?.gate.bestStep ?? 0,
          nextStep: s?.nextStep ?? 1,
          totalSteps: d ? deriveSteps(run.config, d.counts.train).totalSteps : 0,
          metaSkill: s?.metaSkill ?? '',
          epochStats: s?.epochStats ?? [],
          summary: s?.summary,
          reason: s?.reason,
          reasonKind: s?.reasonKind,
          lockedElsewhere: await lockedElsewhere(runId),
          ...moduleSummary(run),
          ...(run.environment?.mcp ? { mcpServers: run.environment.mcp.servers } : {}),
        },
      };
    },

    async renameRun(runId, name) {
      return renameRun(await dbp, runId, name);
    },

    async deleteRun(runId) {
      if (active.has(runId) || (await lockedElsewhere(runId)))
        return fail('running', 'Pause or cancel the run before deleting it.');
      await deleteRun(await dbp, runId);
      return { ok: true };
    },

    async getRunModule(runId) {
      const module = (await getRun(await dbp, runId))?.environment?.module;
      return module ? { ok: true, module } : fail('not_found', 'This run has no environment module.');
    },

    async approveModule(runId, hash) {
      const db = await dbp;
      const run = await getRun(db, runId);
      const module = run?.environment?.module;
      if (!run || !module) return fail('not_found', 'This run has no environment module.');
      // Only the very source the person was shown: a hash names it.
      if (module.hash !== hash) return fail('changed', 'This run’s module is not the one you read; read it again.');
      if (active.has(runId) || (await lockedElsewhere(runId))) return fail('running', 'This run is running.');
      const { from: _file, ...approved } = module;
      await putRun(db, { ...run, environment: { ...run.environment, module: approved }, updatedAt: now() });
      return { ok: true };
    },

    async recoverInterrupted() {
      const db = await dbp;
      // After a reload the old page's worker may hold its run's lock for a moment longer:
      // give it time to let go before deciding the run is owned by another tab.
      const deadline = now() + (deps.lockReleaseWaitMs ?? 2000);
      for (;;) {
        const running = await db.getAllFromIndex('runs', 'by-status', 'running');
        const held = await Promise.all(running.map((r) => lockedElsewhere(r.id)));
        if (!held.some(Boolean) || now() >= deadline) break;
        await new Promise((r) => setTimeout(r, 100));
      }
      return markInterrupted(db, lockedElsewhere);
    },
  };
}
