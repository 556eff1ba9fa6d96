/**
 * The worker API as a plain object (DESIGN §2): `createApi(deps)` wires storage, the LLM client
 * and the engine, and is testable in Node directly or over a MessageChannel. The worker entry
 * only supplies real dependencies and calls Comlink.expose. Keys live in this object's memory;
 * they reach IndexedDB only when the user asks to remember them, and never any run row.
 */
import { importDatasetText, type ImportOptions } from '../core/dataset-import';
import { deriveSteps, validateAgainstSplits, validateRunConfig } from '../core/run-config';
import { estimateCost } from '../engine/cost-estimate';
import type { RunEvent } from '../engine/events';
import { buildPromptSet } from '../engine/prompts';
import { runTraining } from '../engine/trainer';
import { rolloutTemplateOf } from '../engine/context';
import { evaluateSkill } from '../engine/evaluate';
import { readStepArtifacts, rebuildCandidate } from '../engine/step-artifacts';
import { MemoryRunStore } from '../storage/memory-store';
import type { EndpointConfig } from '../llm/endpoint';
import { createLlmPort, type ClientOptions } from '../llm/openai-client';
import { stripSecretHeaders, exportRunFile, importBundle, MAX_BUNDLE_CHARS, parseBundle } from '../storage/bundle';
import { deleteDataset, getDataset, listDatasets, putDataset, toDatasetItem } from '../storage/datasets-repo';
import { IdbRunStore } from '../storage/idb-run-store';
import { readStepRecords } from '../storage/step-records';
import type { SkillwrightDb } from '../storage/open-db';
import { deleteRun, getRun, listRuns, markInterrupted, putRun, renameRun, toListItem } from '../storage/runs-repo';
import type { RunRecord, StoredEndpoint } from '../storage/schema';
import { forgetKeys, getRememberedKeys, rememberKeys } from '../storage/settings-repo';
import type { ApiError, CreateRunInput, Secrets, WorkerApi } from './api-types';
import { keyFor, originOf, withKeys, type KeyFor } from './key-binding';
import { checkEndpoint, listModels } from './connection-test';
import { EventCoalescer } from './event-coalescer';
import { defaultLocks, runLockName, type LockManagerLike } from './locks';

export interface ApiDeps {
  db: SkillwrightDb | Promise<SkillwrightDb>;
  /** Prompt texts by name (prompts/*.md). */
  promptFiles: Record<string, string>;
  locks?: LockManagerLike;
  fetch?: typeof fetch;
  clientOptions?: ClientOptions;
  estimate?: () => Promise<{ usage?: number; quota?: number }>;
  newId?: () => string;
  now?: () => number;
  /** How often progress events may reach the page. */
  progressIntervalMs?: number;
  /** How long start-up recovery waits for a reloaded page's old worker to release its run lock. */
  lockReleaseWaitMs?: number;
}

const fail = (kind: string, message: string, extra: Partial<ApiError> = {}) => ({ ok: false as const, error: { kind, message, ...extra } });

function randomId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(8));
  return `run-${[...bytes].map((b) => b.toString(16).padStart(2, '0')).join('')}`;
}

function endpointConfig(e: StoredEndpoint, apiKey: string, concurrency: number, role: 'target' | 'optimizer' | 'judge'): EndpointConfig {
  return {
    ...e,
    apiKey,
    concurrency,
    maxRetries: e.maxRetries ?? (role === 'target' ? 5 : 3),
    timeoutMs: e.timeoutMs ?? (role === 'target' ? 120_000 : 300_000),
  };
}

export function createApi(deps: ApiDeps): WorkerApi {
  const dbp = Promise.resolve(deps.db);
  const locks = deps.locks ?? defaultLocks();
  const now = deps.now ?? (() => Date.now());
  const newId = deps.newId ?? randomId;
  const active = new Map<string, AbortController>();
  let keys: Secrets = {};
  let keysLoaded = false;

  const loadKeys = async () => {
    if (keysLoaded) return;
    keysLoaded = true;
    keys = { ...(await getRememberedKeys(await dbp)), ...keys };
  };

  const lockedElsewhere = async (runId: string) => {
    if (active.has(runId)) return false;
    const q = await locks.query?.();
    return Boolean(q?.held?.some((l) => l.name === runLockName(runId)));
  };

  const api: WorkerApi = {
    async testConnection(input) {
      const roles = [
        checkEndpoint('target', endpointConfig(input.target, input.target.apiKey, 1, 'target'), deps.fetch),
        checkEndpoint('optimizer', endpointConfig(input.optimizer, input.optimizer.apiKey, 1, 'optimizer'), deps.fetch),
        ...(input.judge ? [checkEndpoint('judge', endpointConfig(input.judge, input.judge.apiKey, 1, 'judge'), deps.fetch)] : []),
      ];
      return Promise.all(roles);
    },

    async listModels(endpoint) {
      const r = await listModels(endpoint, deps.fetch);
      return r.ok ? { ok: true, models: r.models } : { ok: false, error: r.error };
    },

    async inspectDataset(text, options) {
      const r = importDatasetText(text, options);
      if (!r.ok) {
        return {
          ok: false,
          fieldNames: r.fieldNames,
          mapping: r.mapping,
          format: r.format,
          problems: r.problems,
          truncated: r.truncated,
          error: { kind: 'invalid_dataset', message: `The file has ${r.problems.length}${r.truncated ? '+' : ''} problem${r.problems.length === 1 ? '' : 's'}.`, problems: r.problems, truncated: r.truncated },
        };
      }
      const d = r.dataset;
      return {
        ok: true,
        format: d.format,
        fieldNames: r.fieldNames,
        mapping: d.mapping,
        counts: { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length },
        preview: d.items.slice(0, 200),
        warnings: d.warnings,
      };
    },

    async importDataset(text, options) {
      const { name, ...opts } = options;
      const r = importDatasetText(text, opts as ImportOptions);
      if (!r.ok) return fail('invalid_dataset', `The file has ${r.problems.length}${r.truncated ? '+' : ''} problems; nothing was stored.`, { problems: r.problems, truncated: r.truncated });
      const record = { ...r.dataset, id: `ds-${newId().replace(/^run-/, '')}`, name: name || 'Dataset', createdAt: now(), fieldNames: r.fieldNames };
      await putDataset(await dbp, record);
      return { ok: true, dataset: toDatasetItem(record) };
    },

    async listDatasets() {
      return listDatasets(await dbp);
    },

    async getDatasetItems(id, split, offset, limit) {
      const d = await getDataset(await dbp, id);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const ids = split === 'all' ? null : new Set(d.splits[split]);
      const items = ids ? d.items.filter((i) => ids.has(i.id)) : d.items;
      return { ok: true, items: items.slice(offset, offset + limit), total: items.length };
    },

    async deleteDataset(id) {
      await deleteDataset(await dbp, id);
    },

    async evaluateSkill(input, secrets, onEvent) {
      const d = await getDataset(await dbp, input.datasetId);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      await loadKeys();
      const k = withKeys(keys, secrets);
      const t = keyFor(k, 'target', input.endpoints.target.baseURL);
      if (!t.ok) return fail(t.kind, t.message);
      // Only a judge scorer calls the optimizer here; otherwise its client is built but never used.
      const o = input.config.scorer.kind === 'judge' ? keyFor(k, 'optimizer', input.endpoints.optimizer.baseURL, 'target') : null;
      if (o && !o.ok) return fail(o.kind, o.message);
      const llm = createLlmPort(
        {
          target: endpointConfig(input.endpoints.target, t.key, input.config.targetConcurrency, 'target'),
          optimizer: endpointConfig(input.endpoints.optimizer, o?.ok ? o.key : 'unused-no-judge', input.config.optimizerConcurrency, 'optimizer'),
        },
        { ...deps.clientOptions, ...(deps.fetch ? { fetch: deps.fetch } : {}) },
      );
      const events = new EventCoalescer((e: RunEvent) => onEvent?.(e), deps.progressIntervalMs ?? 100);
      const r = await evaluateSkill(
        { skill: input.skill, split: input.split, limit: input.limit, config: input.config, data: { items: d.items, splits: d.splits }, prices: input.prices },
        { llm, store: new MemoryRunStore(), prompts: buildPromptSet(deps.promptFiles, input.config.promptOverrides), onEvent: (e) => events.push(e), now },
      );
      await events.close();
      if (!r.ok) return fail(r.kind, r.reason);
      return { ok: true, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, rows: r.rows, costUsd: r.costUsd };
    },

    async estimateCost(input) {
      const d = await getDataset(await dbp, input.datasetId);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const prompts = buildPromptSet(deps.promptFiles, input.config.promptOverrides);
      const estimate = estimateCost({
        config: input.config,
        items: d.items,
        splits: { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length },
        skill: input.skill,
        template: rolloutTemplateOf(input.config, prompts),
        prompts,
        prices: input.prices,
      });
      return { ok: true, estimate };
    },

    async createRun(input: CreateRunInput) {
      const db = await dbp;
      const d = await getDataset(db, input.datasetId);
      if (!d) return fail('not_found', 'That dataset is not in this browser.');
      const problems = [...validateRunConfig(input.config), ...validateAgainstSplits(input.config, { train: d.splits.train.length, val: d.splits.val.length, test: d.splits.test.length })];
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
      };
      await putRun(db, run);
      return { ok: true, runId: id };
    },

    async startRun(runId, secrets, onEvent, patch) {
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      if (active.has(runId)) return fail('already_running', 'This run is already running.');
      if (run.status === 'completed' || run.status === 'cancelled') return fail('finished', `This run is ${run.status}; start a new run from one of its skill versions instead.`);
      if (run.needsBinding) {
        return fail('needs_binding', 'This run was imported from a file: it is read-only until you bind it to your own connection (Runs → "Use my connection"). Its endpoints came with the file, and your keys are never sent to them.');
      }
      await loadKeys();
      const k = withKeys(keys, secrets);
      if (secrets) keys = k;
      const t = keyFor(k, 'target', run.endpoints.target.baseURL);
      const o = keyFor(k, 'optimizer', run.endpoints.optimizer.baseURL);
      const j = run.endpoints.judge ? keyFor(k, 'judge', run.endpoints.judge.baseURL, 'optimizer') : null;
      for (const r of [t, o, j]) if (r && !r.ok) return fail(r.kind, r.message);
      const key = (r: KeyFor | null) => (r?.ok ? r.key : '');
      const d = await getDataset(db, run.datasetId);
      if (!d) return fail('not_found', 'The dataset of this run is no longer in this browser.');
      const config = patch?.budget ? { ...run.config, budget: patch.budget } : run.config;
      if (patch?.budget) await putRun(db, { ...run, config, state: run.state && { ...run.state, config } });

      const outcome = await locks.request(runLockName(runId), { ifAvailable: true }, async (lock) => {
        if (!lock) return null;
        const controller = new AbortController();
        active.set(runId, controller);
        const events = new EventCoalescer((e: RunEvent) => onEvent?.(e), deps.progressIntervalMs ?? 100);
        try {
          const llm = createLlmPort(
            {
              target: endpointConfig(run.endpoints.target, key(t), config.targetConcurrency, 'target'),
              optimizer: endpointConfig(run.endpoints.optimizer, key(o), config.optimizerConcurrency, 'optimizer'),
              ...(run.endpoints.judge ? { judge: endpointConfig(run.endpoints.judge, key(j), config.optimizerConcurrency, 'judge') } : {}),
            },
            { ...deps.clientOptions, ...(deps.fetch ? { fetch: deps.fetch } : {}) },
          );
          const result = await runTraining(
            { runId, config, data: { items: d.items, splits: d.splits }, initialSkill: run.initialSkill, prices: run.prices },
            { llm, store: new IdbRunStore(db, deps.estimate), prompts: buildPromptSet(deps.promptFiles, config.promptOverrides), signal: controller.signal, onEvent: (e) => events.push(e), now },
          );
          await events.close();
          return result;
        } finally {
          active.delete(runId);
        }
      });
      if (!outcome) return fail('locked', 'This run is open in another tab, which is running it. It is read-only here.');
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
      if (!run || run.status === 'completed' || run.status === 'cancelled' || (await lockedElsewhere(runId))) return false;
      const reason = 'Cancelled by you.';
      await putRun(db, { ...run, status: 'cancelled', updatedAt: now(), state: run.state && { ...run.state, status: 'cancelled', reason, reasonKind: 'user' } });
      return true;
    },

    async listRuns() {
      return listRuns(await dbp);
    },

    async getRun(runId) {
      const run = await getRun(await dbp, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      const d = await getDataset(await dbp, run.datasetId);
      const s = run.state;
      return {
        ok: true,
        detail: {
          run: toListItem(run),
          config: run.config,
          initialSkill: run.initialSkill,
          endpoints: run.endpoints,
          prices: run.prices,
          currentSkill: s?.gate.currentSkill ?? run.initialSkill,
          bestSkill: s?.gate.bestSkill ?? run.initialSkill,
          currentScore: s?.gate.currentScore ?? 0,
          baselineScore: s?.baselineScore,
          bestScore: s?.gate.bestScore ?? 0,
          bestStep: s?.gate.bestStep ?? 0,
          nextStep: s?.nextStep ?? 1,
          totalSteps: d ? deriveSteps(run.config, d.splits.train.length).totalSteps : 0,
          metaSkill: s?.metaSkill ?? '',
          epochStats: s?.epochStats ?? [],
          summary: s?.summary,
          reason: s?.reason,
          reasonKind: s?.reasonKind,
          lockedElsewhere: await lockedElsewhere(runId),
        },
      };
    },

    async getSteps(runId, offset, limit) {
      const db = await dbp;
      const total = await db.countFromIndex('steps', 'by-run', runId);
      const steps = await db.getAll('steps', IDBKeyRange.bound([runId, offset + 1], [runId, offset + limit]));
      return { steps, total };
    },

    async getStepDetail(runId, step) {
      const r = await readStepRecords(await dbp, runId, step);
      if (!r) return fail('not_found', `Step ${step} of this run has not run yet.`);
      const artifacts = readStepArtifacts(step, r.artifacts);
      const stored = r.step.candidateHash ? r.versions.get(r.step.candidateHash) : undefined;
      const candidate = stored ?? (r.skillBefore !== null ? rebuildCandidate(r.skillBefore, artifacts) : null);
      const { step: record, rollouts, gateRollouts, currentRollouts, calls, skillBefore } = r;
      return { ok: true, detail: { step: record, rollouts, gateRollouts, currentRollouts, calls, artifacts, currentSkillBefore: skillBefore, candidateSkill: candidate } };
    },

    async getRollouts(runId, phase) {
      return (await dbp).getAllFromIndex('rollouts', 'by-run-phase', [runId, phase]);
    },

    async getSkillVersions(runId) {
      return new IdbRunStore(await dbp).getSkillVersions(runId);
    },

    async renameRun(runId, name) {
      return renameRun(await dbp, runId, name);
    },

    async deleteRun(runId) {
      if (active.has(runId) || (await lockedElsewhere(runId))) return fail('running', 'Pause or cancel the run before deleting it.');
      await deleteRun(await dbp, runId);
      return { ok: true };
    },

    async exportRun(runId) {
      const file = await exportRunFile(await dbp, runId);
      if (!file) return fail('not_found', 'That run is not in this browser.');
      return { ok: true, file, bytes: file.size };
    },

    async importRun(file) {
      // The file crosses as a Blob and is read here, once; a too-big file is refused unread.
      if (file.size > MAX_BUNDLE_CHARS) return fail('invalid_bundle', `The file is larger than ${MAX_BUNDLE_CHARS / 1024 / 1024} MB.`);
      const parsed = parseBundle(await file.text());
      if (!parsed.ok) return fail('invalid_bundle', parsed.error);
      const r = await importBundle(await dbp, parsed.bundle, newId);
      return r.ok ? { ok: true, runId: r.runId, renamed: r.renamed } : fail('invalid_bundle', r.error);
    },

    async storageUsage() {
      const db = await dbp;
      let usage: number | undefined;
      let quota: number | undefined;
      try {
        const e = await (deps.estimate ?? (() => (typeof navigator !== 'undefined' && navigator.storage ? navigator.storage.estimate() : Promise.resolve({} as { usage?: number; quota?: number }))))();
        usage = e.usage;
        quota = e.quota;
      } catch {
        // no estimate in this environment
      }
      return { usage, quota, runs: await db.count('runs'), datasets: await db.count('datasets') };
    },

    async setKeys(newKeys, remember) {
      await loadKeys();
      keys = withKeys(keys, newKeys);
      if (remember) await rememberKeys(await dbp, keys);
    },

    async bindRun(runId, endpoints) {
      const db = await dbp;
      const run = await getRun(db, runId);
      if (!run) return fail('not_found', 'That run is not in this browser.');
      if (active.has(runId)) return fail('already_running', 'This run is running.');
      await putRun(db, { ...run, endpoints, needsBinding: false, updatedAt: now() });
      const hosts = [...new Set([endpoints.target, endpoints.optimizer, endpoints.judge].filter((e) => e !== undefined).map((e) => originOf(e.baseURL)))];
      return { ok: true, hosts };
    },

    async keyStatus() {
      await loadKeys();
      const remembered = await getRememberedKeys(await dbp);
      return { target: Boolean(keys.target), optimizer: Boolean(keys.optimizer), judge: Boolean(keys.judge), remembered: Boolean(remembered.target || remembered.optimizer) };
    },

    async forgetKeys(opts) {
      await loadKeys();
      if (!opts?.keepSession) keys = {};
      await forgetKeys(await dbp);
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
  return api;
}
