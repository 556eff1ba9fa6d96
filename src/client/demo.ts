/**
 * "Try without a key" (issue #11): connect to the simulated endpoint inside the worker, store
 * the specimen-codes example, and set up a small run — a full training anyone can watch, with
 * no key, no network and no cost. The app labels it a simulation wherever it shows.
 */
import { trainer } from './trainer-client';
import { handOverKeys } from './keys';
import { DEFAULT_CONNECTION, setApp } from '../store/app-store';
import { DEFAULT_RUN_CONFIG } from '../core/run-config';
import { DEMO_BASE_URL, DEMO_INITIAL_SKILL, DEMO_KEY, DEMO_MODELS, makeWorldItems } from '../core/demo-world';

export const DEMO_DATASET_NAME = 'Demo: specimen codes (simulated)';

export function isDemoEndpoint(baseURL: string): boolean {
  return baseURL.startsWith(DEMO_BASE_URL);
}

/** Set everything up for the demo; returns a problem to show, or null. */
export async function startDemo(): Promise<string | null> {
  setApp({
    connection: {
      ...DEFAULT_CONNECTION,
      presetId: 'demo',
      target: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.target, temperature: 0, maxOutputTokens: 256 },
      optimizer: { baseURL: DEMO_BASE_URL, model: DEMO_MODELS.optimizer, maxOutputTokens: 4096 },
      sameEndpoint: true,
      remember: false,
    },
    keys: { target: DEMO_KEY, optimizer: '' },
  });
  await handOverKeys();
  const ratio: [number, number, number] = [2, 1, 2];
  const staged = await trainer().stageDataset(new Blob([JSON.stringify(makeWorldItems(100))], { type: 'application/json' }), { fileName: 'demo-specimens.json', ratio, splitSeed: 7 });
  if (!staged.ok || !staged.draftId) return 'The demo dataset could not be prepared.';
  const stored = await trainer().commitStaged(staged.draftId, { name: DEMO_DATASET_NAME, ratio, splitSeed: 7 });
  if (!stored.ok) return stored.error.message;
  setApp({
    datasetId: stored.dataset.id,
    datasetName: stored.dataset.name,
    skill: DEMO_INITIAL_SKILL,
    skillSource: 'the demo (simulated)',
    skillMeta: null,
    skillParent: null,
    config: { ...DEFAULT_RUN_CONFIG, epochs: 2, batchSize: 20, minibatchSize: 5, mergeBatchSize: 3, slowUpdateSamples: 10, targetConcurrency: 4, optimizerConcurrency: 4, scorer: { kind: 'exact' } },
    problem: null,
  });
  return null;
}
