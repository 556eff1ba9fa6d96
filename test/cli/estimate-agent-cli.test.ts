// `skillwright estimate` with an agent CLI as the optimizer (issue #42 item 3): its calls run on the
// CLI's own login, so no API list price is claimed for them — the cost is unknown, said so, and the
// priced calls (the target's) are still summed. A price the person gives counts them.
import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { estimate } from '../../src/cli/commands/estimate';
import { makeWorldItems } from '../support/rule-world';

function run(config: Record<string, unknown>) {
  const dir = mkdtempSync(join(tmpdir(), 'sw-estimate-agent-'));
  const items = makeWorldItems(30).map((w) => ({ id: w.id, question: w.question, answer: w.answers[0] }));
  writeFileSync(join(dir, 'data.json'), JSON.stringify(items));
  writeFileSync(join(dir, 'skill.md'), '# Skill\n');
  writeFileSync(join(dir, 'skillwright.json'), JSON.stringify({ data: 'data.json', skill: 'skill.md', run: { epochs: 1 }, ...config }));
  let out = '';
  const err: string[] = [];
  const io = { env: {}, err: (t: string) => err.push(t), out: (t: string) => (out += t), rawErr: null, interrupted: new Promise<void>(() => {}), promptsDir: new URL('../../prompts/', import.meta.url).pathname, now: () => 0 };
  estimate({ config: join(dir, 'skillwright.json'), json: true } as never, io);
  return { err: err.join('\n'), json: JSON.parse(out) as { costUsd: number | null; stages: Record<string, { calls?: number; costUsd?: number | null }> } };
}

const target = { baseURL: 'https://api.openai.com/v1', model: 'gpt-4o-mini' };

describe('skillwright estimate with an agent CLI as the optimizer', () => {
  it('claims no API price for its calls: unknown, said why, the target’s calls still priced', () => {
    const api = run({ target, optimizer: { baseURL: target.baseURL, model: 'gpt-4o' } });
    expect(api.json.stages.reflect.costUsd).toBeGreaterThan(0); // the list price of the same model as an endpoint
    const agent = run({ target, optimizer: { agent: 'codex', model: 'gpt-4o' } });
    expect(agent.json.costUsd).toBeNull();
    expect(agent.json.stages.reflect).toMatchObject({ calls: api.json.stages.reflect.calls, costUsd: null });
    expect(agent.json.stages.baseline.costUsd).toBe(api.json.stages.baseline.costUsd);
    expect(agent.err).toMatch(/cost unknown — the optimizer's calls run through the agent CLI codex gpt-4o on its own login, at a price Skillwright does not know \(set "prices\.optimizer" to count it\); the other calls \$\d+\.\d\d\./);
  });
  it('counts them at the price the person gives', () => {
    const priced = run({ target, optimizer: { agent: 'pi' }, prices: { optimizer: { input: 1, output: 2 } } });
    expect(priced.json.costUsd).toBeGreaterThan(0);
    expect(priced.json.stages.reflect.costUsd).toBeGreaterThan(0);
  });
});
