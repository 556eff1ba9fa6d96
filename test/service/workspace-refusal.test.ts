// Workspace tasks off the runner (issue #42 item 4): a page (no agent CLI host) or a model
// endpoint as the target cannot copy a workspace or run a check, so a run or an evaluation over
// such items is refused saying so — never rolled out and scored as unanswered.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { IdbRunRecords } from '../../src/storage/idb-run-records';
import { createRunService } from '../../src/service/run-service';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { promptFiles } from '../support/prompts';

const rows = [
  { id: 'w1', question: 'Fix it.', workspace: 'task', check: 'node check.mjs', split: 'train' },
  { id: 'w2', question: 'Fix it.', workspace: 'task', check: 'node check.mjs', split: 'val' },
  { id: 'w3', question: 'Fix it.', check: 'node check.mjs', split: 'test' },
];

describe('workspace items where no program can be started', () => {
  it('the page refuses to train or evaluate them, naming why, and calls nothing', async () => {
    const imported = importDatasetText(JSON.stringify(rows));
    if (!imported.ok) throw new Error('the dataset did not import');
    expect(imported.dataset.warnings.join(' ')).toMatch(/3 item\(s\) carry a workspace or a check command/);
    const s = createRunService({
      records: new IdbRunRecords(await openSkillwrightDb('workspace-refusal')),
      promptFiles: promptFiles(),
      keys: { keyFor: async () => ({ ok: true, key: 'k' }) },
      now: () => 1000,
      newId: () => 'run-1',
      place: 'this browser',
    });
    const { dataset } = await s.createDataset(imported.dataset, { name: 'tasks.json', fieldNames: [] });
    // Nothing listens on port 9: a call made would be a connection error, not this refusal.
    const endpoints = { target: { baseURL: 'http://127.0.0.1:9/v1', model: 't' }, optimizer: { baseURL: 'http://127.0.0.1:9/v1', model: 'o' } };
    const config = { ...DEFAULT_RUN_CONFIG, batchSize: 1, minibatchSize: 1 };
    const made = await s.createRun({ datasetId: dataset.id, config, initialSkill: '# S', endpoints });
    if (!made.ok) throw new Error(made.error.message);
    const refusal = /^3 item\(s\) of this dataset \(first: "w1"\) carry a workspace or a check command, which only an agent CLI target in the headless runner \(skillwright\) can run/;
    const started = await s.startRun(made.runId, { signal: new AbortController().signal });
    expect(started).toMatchObject({ ok: false, error: { kind: 'invalid_config', message: expect.stringMatching(refusal) } });
    const evaluated = await s.evaluateSkill({ skill: '# S', split: 'val', limit: 0, config, endpoints, data: dataset });
    expect(evaluated).toMatchObject({ ok: false, error: { kind: 'invalid_config', message: expect.stringMatching(refusal) } });
  });
});
