/** A worker API over a real MessageChannel with Comlink, on fake-indexeddb, for Node tests. */
import * as Comlink from 'comlink';
import { createApi, type ApiDeps } from '../../src/worker/create-api';
import type { WorkerApi } from '../../src/worker/api-types';
import { openSkillwrightDb, type SkillwrightDb } from '../../src/storage/open-db';
import { DEFAULT_RUN_CONFIG, type RunConfig } from '../../src/core/config/run-config';
import { makeWorldItems } from './rule-world';
import { promptFiles } from './prompts';
import { INITIAL_SKILL, SMALL_CONFIG } from './harness';

let dbCounter = 0;

export interface Tab {
  api: WorkerApi;
  remote: Comlink.Remote<WorkerApi>;
  db: SkillwrightDb;
  close(): void;
}

/** One "tab": an API instance exposed on a MessageChannel, wrapped on the other end. */
export async function openTab(deps: Partial<ApiDeps> & { dbName?: string } = {}): Promise<Tab> {
  const db = await openSkillwrightDb(deps.dbName ?? `api-test-${++dbCounter}-${Date.now()}`);
  let ids = 0;
  const api = createApi({ db, promptFiles: promptFiles(), clientOptions: { backoffBaseMs: 5, maxBackoffMs: 50 }, lockReleaseWaitMs: 200, newId: () => `run-${++ids}-${Math.random().toString(36).slice(2, 8)}`, ...deps });
  const { port1, port2 } = new MessageChannel();
  Comlink.expose(api, port1);
  const remote = Comlink.wrap<WorkerApi>(port2);
  return {
    api,
    remote,
    db,
    close() {
      remote[Comlink.releaseProxy]();
      port1.close();
      port2.close();
    },
  };
}

export const WORLD_TEXT = JSON.stringify(makeWorldItems(100));

export async function newRun(api: WorkerApi | Comlink.Remote<WorkerApi>, url: string, config: Partial<RunConfig> = {}): Promise<string> {
  const ds = await api.importDataset(WORLD_TEXT, { name: 'World', ratio: [2, 1, 2], splitSeed: 7 });
  if (!ds.ok) throw new Error(ds.error.message);
  const created = await api.createRun({
    datasetId: ds.dataset.id,
    config: { ...DEFAULT_RUN_CONFIG, ...SMALL_CONFIG, ...config },
    initialSkill: INITIAL_SKILL,
    endpoints: { target: { baseURL: url, model: 'sim-target', maxRetries: 3, timeoutMs: 5000 }, optimizer: { baseURL: url, model: 'sim-optimizer', maxRetries: 3, timeoutMs: 5000 } },
  });
  if (!created.ok) throw new Error(created.error.message);
  return created.runId;
}
