/**
 * The retail world (issue #43 item 2; test/support/retail-*.ts) through the engine: its store is
 * an environment module served by the engine's module host, its agent the test server's policy,
 * its customers the server's user simulator. An item is scored by the store's final state: an
 * irreversible wrong action fails it even when the answer text is right, and the skill's rule is
 * what changes the outcome. The bench's held-out replay agrees with the engine, and the rule a
 * failure needs is in the conversation, not in the final answer the ablation shows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RUN_CONFIG } from '../../src/core/config/run-config';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import { renderTrajectory } from '../../src/engine/trajectory';
import type { RolloutRow, RunDataset } from '../../src/engine/types';
import { RETAIL_KNOBS, retailDataset, retailEnvironment } from '../support/bench-retail';
import { testEndpoint } from '../support/endpoints';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { loadPrompts } from '../support/prompts';
import { retailPolicy } from '../support/retail-agent';
import { retailEpisode } from '../support/retail-episode';
import { diagnose, evidenceIn, fixesFor, guess } from '../support/retail-optimizer';
import { DECOYS, RULES, SOLVED_SKILL, START_SKILL, makeRetailItems, type Kind } from '../support/retail-world';

let server: LlmTestServer;
beforeAll(async () => {
  server = await startLlmServer({ agentPolicy: retailPolicy() });
});
afterAll(() => server.close());

const data = retailDataset();
const kindOf = new Map(makeRetailItems().map((i) => [i.id, i.kind]));
const prompts = loadPrompts();
/** The solved skill without one rule. */
const without = (id: keyof typeof RULES) => SOLVED_SKILL.replace(`${RULES[id].text}\n`, '');

/** The test split's items of one kind, evaluated by the engine with this skill. */
async function evaluate(skill: string, kind: Kind): Promise<{ rows: RolloutRow[]; subset: RunDataset }> {
  const ids = data.splits.test.filter((id) => kindOf.get(id) === kind);
  const subset: RunDataset = { ...data, splits: { train: [], val: [], test: ids } };
  const llm = createLlmPort(
    { target: testEndpoint(server.url, 'sim-target'), optimizer: testEndpoint(server.url, 'sim-optimizer') },
    { backoffBaseMs: 5 },
  );
  const config = { ...DEFAULT_RUN_CONFIG, ...RETAIL_KNOBS, targetConcurrency: 3 };
  const out = await evaluateSkill(
    { skill, split: 'test', limit: 0, config, data: subset },
    { llm, store: new MemoryRunStore(), prompts, environment: retailEnvironment() },
  );
  if (!out.ok) throw new Error(out.reason);
  expect(out.rows).toHaveLength(ids.length);
  return { rows: out.rows, subset };
}

const itemOf = (id: string) => data.items.find((i) => i.id === id)!;

describe('the retail world through the engine (issue #43 item 2)', () => {
  it('fails a second refund after a timeout by final state, "refunded" right as text; the rule fixes it', async () => {
    const lacking = await evaluate(without('timeout'), 'timeout');
    for (const r of lacking.rows) {
      expect(r.predicted).toBe('refunded');
      expect(r.hard).toBe(0);
      expect(r.failReason).toMatch(/final state: refund (W\d+) ([\d.]+), refund \1 \2; expected: refund \1 \2$/);
      // The timeout shows in a middle tool result: the refund call that failed, then the second one.
      const refunds = r.trajectory!.filter((e) => e.kind === 'tool' && e.name === 'refund');
      expect(refunds.map((e) => e.kind === 'tool' && Boolean(e.error))).toEqual([true, false]);
    }
    const ruled = await evaluate(SOLVED_SKILL, 'timeout');
    expect(ruled.rows.map((r) => r.hard)).toEqual(ruled.rows.map(() => 1));
  });

  it('fails a refund to the other customer of the same name; asking for the email passes it', async () => {
    const lacking = await evaluate(without('email'), 'refund');
    const twins = lacking.rows.filter((r) =>
      r.trajectory!.some((e) => e.kind === 'tool' && /^2 customers named/.test(e.result)),
    );
    expect(twins.length).toBeGreaterThan(0);
    for (const r of twins) {
      expect(r.predicted).toBe('refunded');
      expect(r.hard).toBe(0);
    }
    // Customers with a name of their own are refunded right without it.
    expect(lacking.rows.filter((r) => !twins.includes(r)).every((r) => r.hard === 1)).toBe(true);
    const ruled = await evaluate(SOLVED_SKILL, 'refund');
    expect(ruled.rows.every((r) => r.hard === 1)).toBe(true);
    // The email came from the simulated customer, asked for it.
    expect(ruled.rows[0].trajectory!.some((e) => e.kind === 'user' && /My email is/.test(e.content))).toBe(true);
  });

  it('replays offline as the engine scored it (the bench’s held-out)', async () => {
    for (const [skill, kind] of [
      [without('finalSale'), 'final'],
      [SOLVED_SKILL, 'final'],
      [without('shipped'), 'shipped'],
    ] as const) {
      const { rows } = await evaluate(skill, kind);
      for (const r of rows)
        expect(
          retailEpisode(skill, itemOf(r.itemId), prompts['rollout-qa'], { maxTurns: RETAIL_KNOBS.maxTurns }).hard,
        ).toBe(r.hard);
    }
  });

  it('shows the rule a failure needs in the conversation, not in the final answer', async () => {
    const skill = without('timeout');
    const { rows } = await evaluate(skill, 'timeout');
    const render = (full: boolean) =>
      rows
        .map((r, i) =>
          renderTrajectory(i + 1, r, itemOf(r.itemId), skill, prompts['rollout-qa'], 100_000, {
            full,
            resultChars: 400,
          }),
        )
        .join('\n\n');
    const shown = evidenceIn(render(true));
    expect(shown).toHaveLength(rows.length);
    for (const ev of shown) expect(diagnose(ev, skill).map((e) => e.content)).toEqual([RULES.timeout.text]);
    // Final answers only: right as text, so nothing points at the timeout; a guess finds it at best by chance.
    const blind = evidenceIn(render(false));
    expect(blind.every((ev) => ev.calls === null && ev.predicted === 'refunded')).toBe(true);
    const guessed = blind.map((ev, i) => guess(ev, skill, (k) => ((i * 7 + k * 3) % 10) / 10).map((e) => e.content));
    expect(guessed.some((g) => !g.includes(RULES.timeout.text))).toBe(true);
  });

  it('over-reacts now and then to one conversation: the right rule, and beside it the one read too broadly', () => {
    const order = 'Order W1001 of C100: wool scarf, size S, $45.00, final sale; delivered 12 days ago';
    const ev = {
      request: { kind: 'return' as const, name: 'Dana Reyes', product: 'wool scarf' },
      predicted: 'refunded',
      expected: ['exchanged'],
      calls: [
        { name: 'get_order', args: { order: 'W1001' }, result: order },
        {
          name: 'refund',
          args: { order: 'W1001' },
          result: 'Refund of $45.00 issued for the wool scarf of order W1001.',
        },
      ],
      said: [],
    };
    const runs = Array.from({ length: 40 }, (_, i) => fixesFor([ev], START_SKILL, `prompt ${i}`).map((e) => e.content));
    expect(runs.every((r) => r.includes(RULES.finalSale.text))).toBe(true);
    const over = runs.filter((r) => r.includes(DECOYS.exchangeAll.text)).length;
    expect(over).toBeGreaterThan(0);
    expect(over).toBeLessThan(runs.length / 2);
  });
});
