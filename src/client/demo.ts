/**
 * "Try without a key" (issue #11): connect to the simulated endpoint inside the worker, store
 * the specimen-codes example, and set up a small run — a full training anyone can watch, with
 * no key, no network and no cost. The app labels it a simulation wherever it shows.
 * Nothing the user wrote is lost (issue #20 item 2): their connection, skill, dataset choice and
 * settings are parked and put back on leaving the demo; the worker supplies the demo's key for the
 * demo address only, so no held key is touched; the demo dataset is stored once.
 */
import { trainer } from './trainer-client';
import { DEFAULT_CONNECTION, setApp, useApp, type ParkedDrafts } from '../store/app-store';
import { DEFAULT_RUN_CONFIG } from '../core/config/run-config';
import { DEMO_BASE_URL, DEMO_INITIAL_SKILL, DEMO_MODELS, makeWorldItems } from '../core/simulators/demo-world';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../core/simulators/demo-trigger-world';

export const DEMO_DATASET_NAME = 'Demo: specimen codes (simulated)';

export function isDemoEndpoint(baseURL: string): boolean {
  return baseURL.startsWith(DEMO_BASE_URL);
}

function draftsOf(s: ParkedDrafts): ParkedDrafts {
  const { connection, datasetId, datasetName, skill, skillSource, skillMeta, skillPackage, skillParent } = s;
  const { triggerQueries, environmentModule, config } = s;
  return {
    connection,
    datasetId,
    datasetName,
    skill,
    skillSource,
    skillMeta,
    skillPackage,
    skillParent,
    triggerQueries,
    environmentModule,
    config,
  };
}

/** The stored demo dataset's id, storing it the first time. */
async function demoDataset(): Promise<{ id: string; name: string } | string> {
  const existing = (await trainer().listDatasets()).find((d) => d.name === DEMO_DATASET_NAME);
  if (existing) return { id: existing.id, name: existing.name };
  const ratio: [number, number, number] = [2, 1, 2];
  const staged = await trainer().stageDataset(
    new Blob([JSON.stringify(makeWorldItems(100))], { type: 'application/json' }),
    { fileName: 'demo-specimens.json', ratio, splitSeed: 7 },
  );
  if (!staged.ok || !staged.draftId) return 'The demo dataset could not be prepared.';
  const stored = await trainer().commitStaged(staged.draftId, { name: DEMO_DATASET_NAME, ratio, splitSeed: 7 });
  return stored.ok ? { id: stored.dataset.id, name: stored.dataset.name } : stored.error.message;
}

/** Set everything up for the demo; returns a problem to show, or null. */
export async function startDemo(): Promise<string | null> {
  const s = useApp.getState();
  const ds = await demoDataset();
  if (typeof ds === 'string') return ds;
  setApp({
    // Parked once: a second click keeps the user's drafts, not the demo's.
    parked: s.parked ?? draftsOf(s),
    connection: {
      ...DEFAULT_CONNECTION,
      presetId: 'demo',
      target: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.target, temperature: 0, maxOutputTokens: 256 },
      optimizer: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.optimizer, maxOutputTokens: 4096 },
      sameEndpoint: true,
      remember: false,
    },
    datasetId: ds.id,
    datasetName: ds.name,
    skill: DEMO_INITIAL_SKILL,
    skillSource: 'the demo (simulated)',
    // The activation track trains this description on the trigger world's queries.
    skillMeta: { name: 'specimen-codes', description: TRIGGER_START_DESCRIPTION },
    skillPackage: null,
    skillParent: null,
    triggerQueries: { queries: triggerWorldQueries(), source: 'the demo (simulated)' },
    environmentModule: null,
    config: {
      ...DEFAULT_RUN_CONFIG,
      epochs: 2,
      batchSize: 20,
      minibatchSize: 5,
      mergeBatchSize: 3,
      slowUpdateSamples: 10,
      targetConcurrency: 4,
      optimizerConcurrency: 4,
      scorer: { kind: 'exact' },
      activationTrack: true,
    },
    problem: null,
  });
  return null;
}

/** Leave the demo: the user's own connection, skill, dataset and settings come back. */
export function leaveDemo(): void {
  const parked = useApp.getState().parked;
  setApp(parked ? { ...parked, parked: null } : { connection: DEFAULT_CONNECTION, parked: null });
}
