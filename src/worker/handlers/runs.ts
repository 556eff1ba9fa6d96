/**
 * Runs: create, start or resume (one tab at a time, under a lock), pause, cancel, list, rename,
 * delete, and recovery at start-up.
 */
import { deriveSteps, validateAgainstSplits, validateRunConfig } from '../../core/run-config';
import type { RunEvent } from '../../engine/events';
import { buildPromptSet } from '../../engine/prompts';
import { trainInputOf } from '../../storage/train-input';
import { runTraining } from '../../engine/run/trainer';
import { createLlmPort } from '../../llm/openai-client';
import { stripSecretHeaders } from '../../storage/bundle';
import { runShell } from '../../core/package-zip';
import { getDataset, getDatasetIndex } from '../../storage/datasets-repo';
import { IdbRunStore } from '../../storage/idb-run-store';
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
import type { CreateRunInput, RunsApi } from '../api-types';
import { keyFor, type KeyFor } from '../key-binding';
import { EventCoalescer } from '../event-coalescer';
import { runLockName } from '../locks';
import { fail, endpointConfig, type ApiContext } from './context';

export function runsHandlers(c: ApiContext): RunsApi {
  const { dbp, deps, now, newId, active, locks, lockedElsewhere, vault } = c;
  return {
    async createRun(input: CreateRunInput) {
      const db = await dbp;
      const d = await getDataset(db, input.datasetId);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const problems = [
        ...validateRunConfig(input.config),
        ...validateAgainstSplits(input.config, {
          train: d.splits.train.length,
          val: d.splits.val.length,
          test: d.splits.test.length,
        }),
      ];
      if (problems.length) return fail('invalid_config', problems.map((p) => p.message).join('; '));
      try {
        buildPromptSet(deps.promptFiles, input.config.promptOverrides);
      } catch (e) {
        return fail('invalid_config', `A prompt override is not usable: ${e instanceof Error ? e.message : String(e)}`);
      }
      const id = newId();
      const t = now();
      const run: RunRecord = {
        id,
        name: input.name?.trim() || `${d.name} · ${input.endpoints.target.model}`,
        datasetId: d.id,
        createdAt: t,
        updatedAt: t,
        status: 'idle',
        config: input.config,
        initialSkill: input.initialSkill,
        endpoints: {
          target: stripSecretHeaders(input.endpoints.target),
          optimizer: stripSecretHeaders(input.endpoints.optimizer),
          ...(input.endpoints.judge ? { judge: stripSecretHeaders(input.endpoints.judge) } : {}),
        },
        prices: input.prices ?? {},
        ...(input.parent ? { parent: input.parent } : {}),
        ...(input.skillMeta ? { skillMeta: input.skillMeta } : {}),
        ...(input.skillPackage ? { skillPackage: input.skillPackage } : {}),
        ...(input.triggerQueries?.length ? { triggerQueries: input.triggerQueries } : {}),
      };
      await putRun(db, run);
      return { ok: true, runId: id };
    },

    async startRun(runId, onEvent, patch) {
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      if (active.has(runId)) return fail('already_running', 'This run is already running.');
      if (run.status === 'completed' || run.status === 'cancelled')
        return fail('finished', `This run is ${run.status}; start a new run from one of its skill versions instead.`);
      if (run.needsBinding) {
        return fail(
          'needs_binding',
          'This run was imported from a file: it is read-only until you bind it to your own connection ' +
            '(Runs → "Use my connection"). Its endpoints came with the file, and your keys are never sent to them.',
        );
      }
      const k = await vault.current();
      const t = keyFor(k, 'target', run.endpoints.target.baseURL);
      const o = keyFor(k, 'optimizer', run.endpoints.optimizer.baseURL);
      const j = run.endpoints.judge ? keyFor(k, 'judge', run.endpoints.judge.baseURL, 'optimizer') : null;
      for (const r of [t, o, j]) if (r && !r.ok) return fail(r.kind, r.message);
      const key = (r: KeyFor | null) => (r?.ok ? r.key : '');
      const d = await getDataset(db, run.datasetId);
      if (!d) return fail('not_found', 'The dataset of this run is no longer in this browser.');
      const config = patch?.budget ? { ...run.config, budget: patch.budget } : run.config;

      const outcome = await locks.request(runLockName(runId), { ifAvailable: true }, async (lock) => {
        if (!lock) return null;
        // A raised budget is written only by the tab that holds the run, over the record as it is
        // now: a stale tab would otherwise overwrite a running run's record (issue #20 item 6).
        if (patch?.budget) {
          const fresh = (await getRun(db, runId)) ?? run;
          await putRun(db, { ...fresh, config, state: fresh.state && { ...fresh.state, config } });
        }
        const controller = new AbortController();
        active.set(runId, controller);
        const events = new EventCoalescer((e: RunEvent) => onEvent?.({ ...e, runId }), deps.progressIntervalMs ?? 100);
        try {
          const llm = createLlmPort(
            {
              target: endpointConfig(run.endpoints.target, key(t), config.targetConcurrency, 'target'),
              optimizer: endpointConfig(run.endpoints.optimizer, key(o), config.optimizerConcurrency, 'optimizer'),
              ...(run.endpoints.judge
                ? { judge: endpointConfig(run.endpoints.judge, key(j), config.optimizerConcurrency, 'judge') }
                : {}),
            },
            { ...deps.clientOptions, fetch: c.fetch },
          );
          const result = await runTraining(trainInputOf(run, d, config), {
            llm,
            store: new IdbRunStore(db, deps.estimate),
            prompts: buildPromptSet(deps.promptFiles, config.promptOverrides),
            signal: controller.signal,
            onEvent: (e) => events.push(e),
            now,
          });
          await events.close();
          return result;
        } finally {
          active.delete(runId);
        }
      });
      if (!outcome)
        return fail('locked', 'This run is open in another tab, which is running it. It is read-only here.');
      return { ok: true, status: outcome.status, reason: outcome.reason, reasonKind: outcome.reasonKind };
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
      if (!run || run.status === 'completed' || run.status === 'cancelled' || (await lockedElsewhere(runId)))
        return false;
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
