/**
 * The test server's stochastic target (issue #19), through the real SDK: it misses a share of the
 * answers it knows and guesses a share of those it does not; the same prompt asked again is a
 * fresh sample, a changed skill re-draws, and a noise seed makes a server's draws reproducible.
 */
import { describe, expect, it } from 'vitest';
import { startLlmServer } from '../support/llm-server';
import { RoleClient } from '../../src/llm/openai-client';
import { testEndpoint } from '../support/endpoints';
import { ruleText } from '../support/rule-world';

const ask = (c: RoleClient, system: string, question: string) =>
  c.complete({ role: 'target', stage: 'rollout', messages: [{ role: 'system', content: system }, { role: 'user', content: question }] }).then((r) => /<answer>(.*)<\/answer>/.exec(r.text)?.[1]);

async function answers(seed: number, system: string, question: string, n: number): Promise<string[]> {
  const srv = await startLlmServer({ world: 'easy', targetNoise: { miss: 0.2, guess: 0.1 }, noiseSeed: seed });
  try {
    const c = new RoleClient('target', testEndpoint(srv.url, 'sim-target'));
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push((await ask(c, system, question)) ?? '');
    return out;
  } finally {
    await srv.close();
  }
}

describe('the stochastic target of the test server', () => {
  const question = 'What is the amber code for specimen 104?';
  const knows = `Rules:\n${ruleText('amber')}`;

  it('misses about its miss rate of the answers it knows, a repeated prompt being a fresh sample', async () => {
    const got = await answers(1, knows, question, 120);
    const misses = got.filter((a) => a !== 'AMB9-104').length;
    expect(misses).toBeGreaterThan(10);
    expect(misses).toBeLessThan(40);
  });

  it('guesses about its guess rate of the answers it does not know', async () => {
    const got = await answers(1, 'No rules.', question, 120);
    const guesses = got.filter((a) => a === 'AMB9-104').length;
    expect(guesses).toBeGreaterThan(3);
    expect(guesses).toBeLessThan(25);
  });

  it('draws the same sequence for the same seed, another for another seed or another skill', async () => {
    const a = await answers(3, knows, question, 40);
    expect(await answers(3, knows, question, 40)).toEqual(a);
    expect(await answers(4, knows, question, 40)).not.toEqual(a);
    const changed = await answers(3, `${knows}\nAnswer briefly.`, question, 40);
    expect(changed.map((x) => x === 'AMB9-104')).not.toEqual(a.map((x) => x === 'AMB9-104'));
  });

  it('never slips without noise', async () => {
    const srv = await startLlmServer({ world: 'easy' });
    try {
      const c = new RoleClient('target', testEndpoint(srv.url, 'sim-target'));
      for (let i = 0; i < 30; i++) expect(await ask(c, knows, question)).toBe('AMB9-104');
    } finally {
      await srv.close();
    }
  });
});
