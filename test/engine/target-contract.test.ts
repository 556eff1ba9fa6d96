// The Target contract suite (test/support/target-contract.ts) over every adapter of the port: the
// chat call live and from a batch's answer, the tool loop (the parts desk's declared tools), and
// an agent CLI through its harness (the runner's process part, test/support/fake-agent.mjs).
import { afterAll, beforeAll } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { expectedAnswer, makeWorldItems, parseQuestion, ruleText } from '../support/rule-world';
import { toolWorldPolicy } from '../support/tool-world';
import { DESK_SKILL, declaredDesk } from '../support/tool-environment-contract';
import { targetContract, type TargetCase } from '../support/target-contract';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { createLlmPort } from '../../src/llm/openai-client';
import { LlmError } from '../../src/engine/ports';
import { modelTarget } from '../../src/engine/target/model-target';
import { harnessTarget } from '../../src/engine/target/harness';
import { agentCliTarget } from '../../src/cli/agent-cli-target';

let srv: LlmTestServer;
let desk: LlmTestServer;
beforeAll(async () => {
  [srv, desk] = await Promise.all([startLlmServer({}), startLlmServer({ agentPolicy: toolWorldPolicy })]);
});
afterAll(async () => {
  await Promise.all([srv.close(), desk.close()]);
});

const port = (url: string) =>
  createLlmPort(
    { target: testEndpoint(url, 'sim-target', { maxRetries: 0 }), optimizer: testEndpoint(url, 'sim-optimizer') },
    { backoffBaseMs: 1 },
  );
/** A port to an endpoint where nothing listens. */
const nowhere = () => port('http://127.0.0.1:9/v1');

/** A rule-world item, with the skill that states its rule and its right answer. */
function specimen() {
  const w = makeWorldItems(1)[0];
  const r = importDatasetText(JSON.stringify([{ id: w.id, question: w.question, answer: w.answers[0] }]));
  if (!r.ok) throw new Error('the rule world is invalid');
  const q = parseQuestion(w.question)!;
  return { item: r.dataset.items[0], skill: `# Skill\n\n${q.topics.map(ruleText).join('\n')}\n`, right: expectedAnswer(q.topics, q.specimen) };
}

targetContract('the chat call', {
  ready: async () => ({ target: modelTarget, llm: port(srv.url), ...specimen() }),
  failing: async () => ({ target: modelTarget, llm: nowhere(), ...specimen() }),
  cancellable: true,
});

targetContract('a batch’s answer', {
  ready: async () => {
    const s = specimen();
    const usage = { promptTokens: 20, completionTokens: 5, reasoningTokens: 0 };
    return { target: modelTarget, llm: port(srv.url), ...s, job: { batched: { text: `<answer>${s.right}</answer>`, usage, latencyMs: 0, attempts: 1 } } };
  },
  failing: async () => ({ target: modelTarget, llm: port(srv.url), ...specimen(), job: { batched: new LlmError('server', 'the batch did not run this line') } }),
  cancellable: false,
});

function deskCase(llmUrl: () => string): () => Promise<TargetCase> {
  return async () => {
    const data = declaredDesk();
    const item = data.items[0];
    return { target: modelTarget, llm: port(llmUrl()), item, skill: DESK_SKILL, right: item.answers[0], datasetTools: data.tools };
  };
}
targetContract('the tool loop', { ready: deskCase(() => desk.url), failing: deskCase(() => 'http://127.0.0.1:9/v1'), cancellable: true });

const FAKE_AGENT = new URL('../support/fake-agent.mjs', import.meta.url).pathname;
const agent = (program: string[]) =>
  harnessTarget(
    agentCliTarget(
      { command: program, skillFile: 'AGENTS.md', task: 'stdin', transcriptFile: '.agent/transcript.jsonl' },
      { timeoutMs: 30_000, maxRetries: 0 },
    ),
  );
targetContract('an agent CLI (the harness)', {
  ready: async () => ({ target: agent([process.execPath, FAKE_AGENT]), llm: port(srv.url), ...specimen() }),
  failing: async () => ({ target: agent(['/nonexistent/agent-cli']), llm: port(srv.url), ...specimen() }),
  cancellable: true,
});
