/**
 * A short training in the agentic world (issue #30) through the SDK and the test server: the
 * tool-using agent's skill package learns — rules in SKILL.md and a fixed line in
 * references/units.md, read on demand — from analysts that read whole trajectories; with
 * `reflectOnTrajectories` off the same loop's analysts see final answers only, and learn less.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { trainOnce } from '../support/harness';
import { AGENTIC_KNOBS, agenticDataset, agenticHeldOut } from '../support/bench-agentic';
import { AGENTIC_INITIAL_SKILL, RULES, UNITS_PATH } from '../support/agentic-world';
import { splitBundle } from '../../src/core/skill/skill-package';

const data = agenticDataset();

/** Two epochs on their own server (to read its analysts' prompts); the best skill and its held-out. */
async function train(reflectOnTrajectories: boolean) {
  const srv: LlmTestServer = await startLlmServer({ world: 'agentic', keepPrompts: true });
  try {
    const config = { ...AGENTIC_KNOBS, reflectOnTrajectories, epochs: 2, seed: 1 };
    const { outcome, store, runId } = await trainOnce({ url: srv.url, data, initialSkill: AGENTIC_INITIAL_SKILL, config });
    const best = (await store.loadState(runId))!.gate.bestSkill;
    return {
      status: outcome.status,
      best,
      heldOut: agenticHeldOut(best, data).accuracy,
      rows: (await store.listRollouts(runId)).filter((r) => !r.cached),
      analystPrompts: srv.log.filter((e) => e.stage === 'reflect_failure').map((e) => e.user ?? ''),
    };
  } finally {
    await srv.close();
  }
}

let full: Awaited<ReturnType<typeof train>>;
let ablation: Awaited<ReturnType<typeof train>>;
beforeAll(async () => {
  [full, ablation] = await Promise.all([train(true), train(false)]);
}, 120_000);

describe('training in the agentic world', () => {
  it('learns the tool rules and the reference fix from trajectories', () => {
    expect(full.status).toBe('completed');
    expect(agenticHeldOut(AGENTIC_INITIAL_SKILL, data).accuracy).toBe(0.125);
    expect(full.heldOut).toBeGreaterThanOrEqual(0.9);
    for (const r of [RULES.lookup, RULES.units, RULES.stop, RULES.search]) expect(full.best).toContain(r.text);
    const units = splitBundle(full.best).files.find((f) => f.path === UNITS_PATH)!.text;
    expect(units).toMatch(/^- (pounds: lb|ounces: oz|miles: mi)$/m);
    // The analysts read each call, its arguments and its result; an agent's turns are target calls.
    expect(full.analystPrompts.some((p) => /\[tool call turn 1\] (lookup|read_file|search_orders|refund|convert)\(/.test(p))).toBe(true);
    expect(full.rows.some((r) => (r.turns ?? 0) >= 3)).toBe(true);
  });

  it('shows the analysts final answers only with reflectOnTrajectories off, and learns less', () => {
    expect(ablation.status).toBe('completed');
    expect(ablation.analystPrompts.length).toBeGreaterThan(0);
    expect(ablation.analystPrompts.every((p) => !p.includes('[tool call turn') && p.includes('[agent] '))).toBe(true);
    // Without the calls it cannot tell which rule of a pair a failure lacks, nor a decoy from a fix.
    expect(ablation.heldOut).toBeLessThan(full.heldOut);
  });
});
