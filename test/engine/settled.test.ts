// The settled stop (issue #40, `settledStop`), through the real SDK against the test servers: a noisy
// run whose skill is at the top skips its remaining steps' rollouts and its last boundary, and keeps
// what it learned; a failure that fails again on a second answer — a family validation never sees —
// keeps a run going.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { idsOfTopic, stepContext } from '../support/step-context';
import { INITIAL_SKILL, worldDataset } from '../support/harness';
import { trainSeed, trainSetup } from '../support/bench-quality';
import { generatedSetup } from '../support/bench-generated';
import { generateWorld } from '../support/generated-world';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { rolloutPhase } from '../../src/engine/rollout';
import { settledAfter } from '../../src/engine/settled';
import { initialRunState } from '../../src/engine/run/trainer';
import { noisePolicy } from '../../src/core/verdict/noise';
import { ruleText, TOPICS } from '../../src/core/simulators/demo-world';
import type { RunDataset } from '../../src/engine/types';

const server = sharedLlmServer();
/** A target seen to flip some answers: a failure may be a slip. */
const NOISY = noisePolicy({ units: 20, minority: 4, samples: 40 }, 3);
const data = worldDataset(200);
const ofTopic = (t: number, n: number) => idsOfTopic(data, t, n);

const context = (runId: string, dataset: RunDataset) => stepContext(server().url, runId, dataset, { settledStop: 1 });

describe('the settled stop (issue #40)', () => {
  it('skips the remaining steps of a noisy run whose skill is at the top, and keeps what it learned', async () => {
    // The noisy world, seed 3: the skill is right on every family from step 2 on (held-out 1.00); step 3's
    // batch passes whole and validation's failures pass on a second answer. Without the stop, steps 4–6
    // roll out 54 more items and check a candidate drawn from slips.
    const store = new MemoryRunStore();
    const off = await trainSeed('noisy', 3, { settledStop: 0 });
    const on = await trainSeed('noisy', 3, { settledStop: 1 }, { store });
    const steps = await store.getSteps('noisy-3');
    expect(steps.map((s) => s.action).slice(3)).toEqual(['skip_settled', 'skip_settled', 'skip_settled']);
    const rows = await store.listRollouts('noisy-3');
    expect(rows.filter((r) => /^(s000[456]|e02)\//.test(r.phase))).toEqual([]);
    // The last boundary writes no guidance for it either: no comparison, no slow update, no meta skill.
    const boundary = (await store.loadState('noisy-3'))!.epochStats.find((e) => e.epoch === 2)!;
    expect([boundary.slowUpdate?.action, boundary.metaSkill?.action]).toEqual(['skip_settled', 'skip_settled']);
    expect(on.heldOut).toBe(1);
    expect(off.heldOut).toBe(1);
    expect(on.trainingTargetCalls).toBeLessThan(off.trainingTargetCalls - 40);
  }, 240_000);

  it('proposes nothing from a batch whose every failure passes on a second answer: the analysts read slips', async () => {
    // The noisy world, seed 101 (edit budget 6): the skill is right on every family after step 2. Step 3's batch
    // fails two items, each passes when asked again; before, the step checked the edits drawn from those slips
    // on its 14 items (22 calls) and rejected them.
    const store = new MemoryRunStore();
    const r = await trainSeed('noisy', 101, { settledStop: 1, editBudget: 6 }, { store });
    const step3 = (await store.getSteps('noisy-101')).find((s) => s.step === 3)!;
    expect(step3.action).toBe('skip_settled');
    expect(step3.rolloutN).toBeGreaterThan(0);
    expect(step3.rolloutHard).toBeLessThan(1);
    const rows = (await store.listRollouts('noisy-101')).filter((x) => x.phase.startsWith('s0003/'));
    expect(rows.filter((x) => /^s0003\/(check|gate)/.test(x.phase))).toEqual([]);
    const again = rows.filter((x) => /^s0003\/settle\/r\d+$/.test(x.phase));
    expect(again.length).toBeGreaterThan(0);
    expect(again.every((x) => x.hard === 1)).toBe(true);
    expect(r.heldOut).toBe(1);
  }, 240_000);

  it('keeps a run going when a failure fails again on a second answer, in a family validation never sees', async () => {
    // The skill knows topics 0–3; the batch holds a topic-4 item it cannot answer, and validation has none of
    // topic 4. The steady target fails it again: not a slip. Without that item the same skill is settled.
    const known = [0, 1, 2, 3].flatMap((t) => ofTopic(t, 6));
    const [blind] = ofTopic(4, 1);
    const val = [0, 1, 2, 3].flatMap((t) => ofTopic(t, 8).slice(6));
    const dataset: RunDataset = { items: data.items, splits: { train: [...known, blind], val, test: [] } };
    const skill = `${INITIAL_SKILL}\n${[0, 1, 2, 3].map((t) => ruleText(TOPICS[t])).join('\n')}\n`;
    for (const [runId, train, settled] of [
      ['blind', [...known, blind], 0],
      ['top', known, 1],
    ] as const) {
      const ctx = await context(runId, dataset);
      const state = initialRunState({ runId, config: ctx.config, data: dataset, initialSkill: skill }, Date.now());
      await rolloutPhase(ctx, { phase: 'baseline', skill, itemIds: val });
      const batch = await rolloutPhase(ctx, { phase: 's0001/rollout', skill, itemIds: train });
      const after = await settledAfter(ctx, state, {
        key: 's0001',
        current: skill,
        rows: batch.rows,
        data: dataset,
        policy: NOISY,
      });
      expect(after?.steps).toBe(settled);
      const again = (await ctx.store.listRollouts(runId)).filter((r) => r.phase.startsWith('s0001/settle'));
      expect(again.map((r) => r.itemId)).toEqual(settled ? [] : [blind]);
    }
  }, 60_000);

  it('answers the known gaps first: a steady run whose blind family failed in the first epoch is not stopped', async () => {
    // A generated world (a fresh set's 39th, seed 16784491): a steady target, 8 families, one that validation
    // never sees. Its skill passes step 4's batch and all of validation, but that family's train items failed
    // in the first epoch and are not in the batch. Stopped there, the run kept 0.875 held-out; asked first,
    // they fail again, the run goes on and learns the family.
    const store = new MemoryRunStore();
    const w = generateWorld(16784491, 'gaps');
    expect(w.targetNoise).toBeNull();
    const { result } = await trainSetup(w.name, generatedSetup(w), w.seed, { settledStop: 1 }, { store });
    expect(result.heldOut).toBe(1);
    const rows = await store.listRollouts(`${w.name}-${w.seed}`);
    expect(rows.filter((r) => /\/settle$/.test(r.phase)).length).toBeGreaterThan(0);
  }, 120_000);
});
