// Rules the hosts used to write themselves, now the service's alone (issue #41 item 3): a
// dataset's record (its id, name and tools), the activation track's precondition, and when a run
// has ended. Both hosts reach them through the service, so they cannot drift apart.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import { openSkillwrightDb } from '../../src/storage/open-db';
import { IdbRunRecords } from '../../src/storage/idb-run-records';
import { createRunService } from '../../src/service/run-service';
import { hasEnded } from '../../src/service/runs';
import { estimateCost } from '../../src/service/evaluation';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import type { Dataset } from '../../src/core/dataset/dataset-types';
import { promptFiles } from '../support/prompts';

let n = 0;
async function service() {
  const db = await openSkillwrightDb(`use-cases-${++n}`);
  let id = 0;
  return createRunService({
    records: new IdbRunRecords(db),
    promptFiles: promptFiles(),
    keys: { keyFor: async () => ({ ok: true, key: 'k' }) },
    now: () => 1000,
    newId: () => `run-${++id}`,
    place: 'this test',
  });
}

const items = Array.from({ length: 6 }, (_, i) => ({ id: `q${i}`, question: `Q${i}?`, answers: ['a'], fields: {} }));
const dataset = {
  format: 'json',
  items,
  splits: { train: ['q0', 'q1', 'q2'], val: ['q3', 'q4'], test: ['q5'] },
  mapping: {},
  warnings: [],
  tools: [{ name: 'lookup' }],
} as unknown as Dataset;

describe('the service’s own rules', () => {
  it('makes a dataset’s record: a fresh ds- id, its name, the dataset’s tools and the config’s merged', async () => {
    const s = await service();
    const r = await s.createDataset(dataset, { name: 'shop.json', fieldNames: ['q'], tools: [{ name: 'lookup' }, { name: 'refund' }] });
    expect(r.dataset).toMatchObject({ id: 'ds-1', name: 'shop.json', createdAt: 1000, fieldNames: ['q'] });
    expect(r.dataset.tools?.map((t) => t.name)).toEqual(['lookup', 'refund']);
    const other = await s.createDataset(dataset, { name: '', fieldNames: [] });
    expect(other.dataset).toMatchObject({ id: 'ds-2', name: 'Dataset' });
  });

  it('refuses an activation track without trigger queries, on either host', async () => {
    const s = await service();
    const { dataset: d } = await s.createDataset(dataset, { name: 'd', fieldNames: [] });
    const endpoints = { target: { baseURL: 'http://x/v1', model: 't' }, optimizer: { baseURL: 'http://x/v1', model: 'o' } };
    const input = { datasetId: d.id, config: { ...DEFAULT_RUN_CONFIG, activationTrack: true, batchSize: 3 }, initialSkill: '# S', endpoints };
    const refused = await s.createRun(input);
    expect(refused).toMatchObject({ ok: false, error: { kind: 'invalid_config' } });
    if (!refused.ok) expect(refused.error.message).toMatch(/activation track trains the description on trigger queries/);
    const made = await s.createRun({ ...input, triggerQueries: [{ id: 't1', query: 'q', shouldTrigger: true }] });
    expect(made.ok).toBe(true);
  });

  it('says a run has ended when it completed or was cancelled, and only then', () => {
    expect(['completed', 'cancelled'].every((x) => hasEnded(x as never))).toBe(true);
    expect(['idle', 'running', 'paused', 'interrupted', 'failed'].some((x) => hasEnded(x as never))).toBe(false);
  });
});

describe('the estimate reads the run’s own choice of target and environment', () => {
  const config = { ...DEFAULT_RUN_CONFIG, epochs: 1, batchSize: 3, maxTurns: 5 };
  const base = { config, items, splits: { train: 3, val: 2, test: 1 }, skill: '# S', prices: { target: { input: 1, output: 1 } } };
  const rollouts = (e: ReturnType<typeof estimateCost>) => e.stages.baseline?.calls ?? 0;
  it('counts an MCP run’s rollouts as an agent’s turns, never as a batch (both hosts once forgot MCP servers)', () => {
    const plain = estimateCost({ promptFiles: promptFiles() }, { ...base, target: { batchApi: 'openai' } });
    const mcp = estimateCost(
      { promptFiles: promptFiles() },
      { ...base, target: { batchApi: 'openai' }, environment: { mcp: { servers: [{ url: 'http://127.0.0.1:1/mcp' }], toolConcurrency: 2, timeoutSeconds: 30 } } },
    );
    expect(rollouts(mcp)).toBe(5 * rollouts(plain));
    expect(plain.assumptions.join(' ')).toMatch(/batch API/);
    expect(mcp.assumptions.join(' ')).not.toMatch(/go through the target’s batch API/);
  });
  it('counts an agent CLI target’s rollout as one run of the agent, never sent as a batch', () => {
    const cli = estimateCost(
      { promptFiles: promptFiles() },
      { ...base, target: { batchApi: 'openai', agentCommand: { command: ['agent'], skillFile: 'AGENTS.md', task: 'stdin' } as never } },
    );
    const plain = estimateCost({ promptFiles: promptFiles() }, { ...base, target: {} });
    expect(rollouts(cli)).toBe(rollouts(plain));
    expect(cli.assumptions.join(' ')).not.toMatch(/go through the target’s batch API/);
  });
});
