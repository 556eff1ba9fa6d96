import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { testEndpoint } from '../support/endpoints';
import { loadPrompts } from '../support/prompts';
import { LOOKUP, NUMBER, toolWorldItems, toolWorldPolicy } from '../support/tool-world';
import { importDatasetText } from '../../src/core/dataset/dataset-import';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import { loadEnvironmentModule } from '../../src/cli/module-loader';
import type { ToolEnvironment } from '../../src/engine/environment';

let server: LlmTestServer;
const dir = mkdtempSync(join(tmpdir(), 'skillwright-env-'));
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: toolWorldPolicy });
});
afterAll(() => server.close());

/** A stateful catalogue: each episode counts its lookups; part 103 is locked; the score wants one lookup. */
const SHOP = `
export default {
  name: 'catalogue',
  tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: { code: { type: 'string' } } } } }],
  reset(item) { return { lookups: 0, id: item.id }; },
  call(name, args, state, item) {
    state.lookups++;
    if (args.code === '103') throw new Error('the catalogue is locked for part 103');
    return { entry: 'Part ' + args.code + '; weight 2 kg', lookups: state.lookups, asked: item.question.slice(0, 12) };
  },
  score({ item, messages, answer, state }) {
    const ok = state.lookups === 1 && /Part/.test(answer ?? '');
    return { hard: ok ? 1 : 0, soft: ok ? 1 : 0.5, failReason: ok ? undefined : 'looked up ' + state.lookups + ' times' };
  },
};
`;

function moduleFile(name: string, text: string): string {
  const p = join(dir, name);
  writeFileSync(p, text);
  return p;
}

async function evaluate(environment: ToolEnvironment, skill: string) {
  const items = toolWorldItems(10).map(({ tool_results: _r, expected_tool_calls: _e, answer: _a, ...rest }) => rest);
  const r = importDatasetText(JSON.stringify(items), { answersOptional: true });
  if (!r.ok) throw new Error(JSON.stringify(r.problems));
  const config = { ...DEFAULT_RUN_CONFIG, targetConcurrency: 3 };
  const llm = createLlmPort(
    { target: testEndpoint(server.url, 'sim-target'), optimizer: testEndpoint(server.url, 'sim-optimizer') },
    { backoffBaseMs: 5 },
  );
  return evaluateSkill(
    { skill, split: 'test', limit: 0, config, data: { items: r.dataset.items, splits: r.dataset.splits } },
    { llm, store: new MemoryRunStore(), prompts: loadPrompts(), environment },
  );
}

describe('an environment module (issue #30)', () => {
  it('offers its tools, keeps each episode’s state, answers calls and scores the episode', async () => {
    const m = await loadEnvironmentModule(moduleFile('shop.mjs', SHOP));
    expect(m.name).toBe('catalogue');
    const out = await evaluate(m.environment, `# Parts\n\n${LOOKUP}\n${NUMBER}\n`);
    if (!out.ok) throw new Error(out.reason);
    for (const r of out.rows) {
      const call = r.trajectory!.find((e) => e.kind === 'tool')!;
      if (r.itemId === 't003') {
        // A tool that throws: its message goes back to the model, and the episode is scored as it went.
        expect(call).toMatchObject({ result: 'Error: the catalogue is locked for part 103', error: true });
        continue;
      }
      // Each episode starts fresh: its first lookup is its first.
      expect(JSON.parse(call.kind === 'tool' ? call.result : '{}')).toMatchObject({ lookups: 1 });
    }
    // The module's score decides (the items have no expected answers).
    expect(out.rows.filter((r) => r.hard === 1).length).toBeGreaterThan(0);
  });

  it('names a module that fails to load or breaks the contract', async () => {
    await expect(loadEnvironmentModule(moduleFile('broken.mjs', 'throw new Error("no database here");'))).rejects.toThrow(
      /broken\.mjs failed to load: no database here/,
    );
    await expect(loadEnvironmentModule(moduleFile('nocall.mjs', 'export default { name: "x", tools: [{ name: "a" }] };'))).rejects.toThrow(
      /needs call\(name, args, state, item\)/,
    );
    await expect(loadEnvironmentModule(join(dir, 'missing.mjs'))).rejects.toThrow(/cannot be read/);
  });

  it('pauses, not scores, when a call never answers', async () => {
    const hang = moduleFile(
      'hang.mjs',
      SHOP.replace("state.lookups++;", 'state.lookups++; if (args.code === "108") return new Promise(() => {});'),
    );
    const m = await loadEnvironmentModule(hang, 0.3);
    const out = await evaluate(m.environment, `# Parts\n\n${LOOKUP}\n${NUMBER}\n`);
    expect(out.ok).toBe(false);
    if (out.ok) return;
    expect(out.kind).toBe('environment');
    expect(out.reason).toMatch(/environment module hang\.mjs failed: its call to lookup did not answer within 0.3 s/);
  });
});
