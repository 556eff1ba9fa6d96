// Models move (issue #44): an agent's training against the test server playing each documented
// behaviour of today's models ends with the same best skill as on a plain endpoint. Refusals met
// mid-run (the connection was never tested) are adapted once each, said in the run's log, never
// an error row and never a pause; the Responses API, as the probe chooses it, carries the
// reasoning items of each turn back with its calls.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer, type ServerOptions } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import { DOUBLE, LOOKUP, UNITS_REFERENCE, toolWorldFile, toolWorldOptimizer, toolWorldPolicy } from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { bundlePackage } from '../../src/core/skill/skill-package';
import { checkEndpoint } from '../../src/service/connection-check';
import type { RunDataset } from '../../src/engine/types';
import type { EndpointConfig } from '../../src/llm/endpoint';
import { testEndpoint } from '../support/endpoints';

function toolData(): RunDataset {
  const r = importDatasetText(toolWorldFile(48));
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  return { items: r.dataset.items, splits: r.dataset.splits, tools: r.dataset.tools };
}

const START = bundlePackage(`# Parts\n\nAnswer with the part's name or weight.\n\n${LOOKUP}\n${DOUBLE}\n`, [
  { path: 'references/units.md', text: UNITS_REFERENCE },
]);
const CONFIG = { epochs: 2, batchSize: 12, minibatchSize: 4, referencesOnDemand: true, maxTurns: 4, seed: 3 };
// What a person sets on Connect: a temperature, output limits, an effort per role.
const TARGET: Partial<EndpointConfig> = { temperature: 0, maxOutputTokens: 600, reasoningEffort: 'low' };
const OPTIMIZER: Partial<EndpointConfig> = { temperature: 0, maxOutputTokens: 6000, reasoningEffort: 'medium' };
/** The target's calls in flight at once (the harness's default). */
const CONFIG_CONCURRENCY = 4;
const OPENAI_EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh', 'max'];
/** OpenAI's GPT-6 Astra: no none; on Chat Completions, function tools with none of its efforts. */
const ASTRA_EFFORTS = ['low', 'medium', 'high', 'xhigh', 'max'];

const servers: LlmTestServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

async function train(behaviour: Partial<ServerOptions>, o: { probe?: boolean } = {}) {
  const srv = await startLlmServer({ agentPolicy: toolWorldPolicy, optimizerHook: toolWorldOptimizer, ...behaviour });
  servers.push(srv);
  // The page's flow: Test connection first, its findings kept with the connection.
  const found = async (role: 'target' | 'optimizer', model: string, e: Partial<EndpointConfig>) =>
    (await checkEndpoint(role, testEndpoint(srv.url, model, e))).capabilities;
  const target = o.probe ? { ...TARGET, capabilities: await found('target', 'sim-target', TARGET) } : TARGET;
  const optimizer = o.probe
    ? { ...OPTIMIZER, capabilities: await found('optimizer', 'sim-optimizer', OPTIMIZER) }
    : OPTIMIZER;
  const probeCalls = srv.log.length;
  const logs: string[] = [];
  const { outcome, store, runId } = await trainOnce({
    url: srv.url,
    data: toolData(),
    initialSkill: START,
    config: CONFIG,
    target,
    optimizer,
    onEvent: (e) => {
      if (e.type === 'log') logs.push(e.message);
    },
  });
  const state = (await store.loadState(runId))!;
  const rows = await store.listRollouts(runId);
  // The run's own requests (the probe's come before).
  const requests = srv.log.slice(probeCalls);
  return { outcome, state, srv, requests, logs, target, errorRows: rows.filter((r) => r.status === 'error').length };
}

let plain: Awaited<ReturnType<typeof train>>;
let runs: Record<string, Awaited<ReturnType<typeof train>>>;
beforeAll(async () => {
  const [p, temperature, completionTokens, toolsNone, jsonSchema, responses, astra] = await Promise.all([
    train({}),
    train({ rejectsTemperature: true }),
    train({ wantsMaxCompletionTokens: true }),
    train({ efforts: OPENAI_EFFORTS, toolsOnlyWithEffortNone: true }),
    train({ jsonSchema: false }),
    train({ responsesOnly: true, reasoningItems: true, efforts: OPENAI_EFFORTS }, { probe: true }),
    train({ efforts: ASTRA_EFFORTS, toolsOnlyWithEffortNone: true, reasoningItems: true }),
  ]);
  plain = p;
  runs = { temperature, completionTokens, toolsNone, jsonSchema, responses, astra };
}, 180_000);

const adaptations = (logs: string[]) => logs.filter((l) => /^The (target|optimizer) model /.test(l));

describe('training on today’s models (issue #44)', () => {
  it('the plain endpoint learns: a skill better than the start', () => {
    expect(plain.outcome.status).toBe('completed');
    expect(plain.state.gate.bestScore).toBeGreaterThan(plain.state.baselineScore ?? 1);
    expect(adaptations(plain.logs)).toEqual([]);
  });

  it.each([
    ['rejects temperature', 'temperature', ['The target model sim-target refused temperature', 'The optimizer model sim-optimizer refused temperature']],
    ['wants max_completion_tokens', 'completionTokens', ['The target model sim-target wants max_completion_tokens', 'The optimizer model sim-optimizer wants max_completion_tokens']],
    ['takes tools only with effort none', 'toolsNone', ['The target model sim-target takes function tools only with reasoning effort none']],
    ['rejects json_schema', 'jsonSchema', ['The optimizer model sim-optimizer refused json_schema output']],
    [
      'takes tools on Chat Completions with no effort it accepts (GPT-6 Astra)',
      'astra',
      [
        'The target model sim-target takes function tools only with reasoning effort none',
        'The target model sim-target takes function tools on Chat Completions with no reasoning effort it accepts: its calls go to the Responses API',
      ],
    ],
  ])('a model that %s: the same best skill; each refusal adapted once and logged, no error row', (_name, key, said) => {
    const run = runs[key];
    expect(run.outcome.status).toBe('completed');
    expect(run.state.gate.bestSkill).toBe(plain.state.gate.bestSkill);
    expect(run.state.gate.bestScore).toBe(plain.state.gate.bestScore);
    expect(run.errorRows).toBe(0);
    const logged = adaptations(run.logs);
    expect(logged).toHaveLength(said.length);
    for (const s of said) expect(logged.some((l) => l.startsWith(s)), s).toBe(true);
  });

  it('tools only with effort none: the agent’s turns go with none, its one-shot calls keep low', () => {
    const log = runs.toolsNone.srv.log.filter((e) => e.stage === 'target' && e.status === 200);
    expect(log.some((e) => e.effort === 'none')).toBe(true);
    expect(log.every((e) => e.effort === 'none')).toBe(true); // every rollout of this world is an agent's
    // Refused only while the first answer was on its way: the calls then in flight, at most.
    const refused = runs.toolsNone.srv.log.filter((e) => e.status === 400).length;
    expect(refused).toBeGreaterThanOrEqual(1);
    expect(refused).toBeLessThanOrEqual(CONFIG_CONCURRENCY);
  });

  it('GPT-6 Astra, never tested: once moved to the Responses API, every target call goes there at the role’s effort', () => {
    const log = runs.astra.srv.log.filter((e) => e.stage === 'target');
    const moved = log.findIndex((e) => e.wire === 'responses');
    expect(moved).toBeGreaterThan(0);
    expect(log.slice(moved).filter((e) => e.wire !== 'responses' && e.status === 200)).toEqual([]);
    expect(log.filter((e) => e.wire === 'responses').every((e) => e.status === 200 && e.effort === 'low')).toBe(true);
    // Refused only while the first answers were on their way: the calls then in flight, twice at most.
    expect(log.filter((e) => e.status === 400).length).toBeLessThanOrEqual(2 * CONFIG_CONCURRENCY);
    expect(runs.astra.srv.reasoningCarried()).toBeGreaterThan(0);
  });

  it('the Responses API, chosen by the probe: reasoning items go back between turns; the same best skill', () => {
    const run = runs.responses;
    expect(run.target.capabilities?.api).toBe('responses');
    expect(run.outcome.status).toBe('completed');
    expect(run.state.gate.bestSkill).toBe(plain.state.gate.bestSkill);
    expect(run.errorRows).toBe(0);
    expect(adaptations(run.logs)).toEqual([]);
    const targetCalls = run.requests.filter((e) => e.stage === 'target' && e.status === 200);
    expect(targetCalls.every((e) => e.wire === 'responses')).toBe(true);
    // Every call sent back with a later turn came with the reasoning item that led to it.
    expect(run.srv.reasoningCarried()).toBeGreaterThan(0);
    expect(run.requests.filter((e) => e.status !== 200)).toEqual([]);
  });
});
