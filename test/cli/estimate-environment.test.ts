// `skillwright estimate` reads the run's own choice of environment (issue #41): an MCP run's
// rollouts are agents' turns, as training will make them. The runner once passed only a module.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimate } from '../../src/cli/commands/estimate';
import { makeWorldItems } from '../support/rule-world';

function run(environment?: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-estimate-'));
  const items = makeWorldItems(30).map((w) => ({ id: w.id, question: w.question, answer: w.answers[0] }));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(items));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n');
  const endpoint = { baseURL: 'http://127.0.0.1:1/v1', model: 'm', batchApi: 'openai' };
  writeFileSync(
    join(dir, 'skillwright.json'),
    JSON.stringify({ target: endpoint, optimizer: { baseURL: endpoint.baseURL, model: 'o' }, data: 'data.json', skill: 'skill.md', run: { epochs: 1, maxTurns: 4 }, ...(environment ? { environment } : {}) }),
  );
  let out = '';
  const io = { env: {}, err: () => {}, out: (t: string) => (out += t), rawErr: null, interrupted: new Promise<void>(() => {}), promptsDir: new URL('../../prompts/', import.meta.url).pathname, now: () => 0 };
  estimate({ config: join(dir, 'skillwright.json'), json: true } as never, io);
  return JSON.parse(out) as { stages: Record<string, { calls?: number; costUsd?: number | null }> };
}

describe('skillwright estimate', () => {
  it('counts an MCP run’s rollouts as an agent’s turns, not single calls', () => {
    const plain = run();
    const mcp = run({ mcp: [{ url: 'http://127.0.0.1:3/mcp', name: 'desk' }] });
    expect(mcp.stages.baseline.calls).toBe(4 * plain.stages.baseline.calls!);
  });
});
