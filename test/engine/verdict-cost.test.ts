// What verdicts no longer buy (issue #40: the noisy world's training calls ≤ 300), through the real
// SDK against the test server: a gate sure of its gain settles no loss a tie would have needed; a
// train check that looks for regressions settles only the losses its repair could read; and a step
// whose edits applied to nothing is not gated on validation at all.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { idsOfTopic, stepContext } from '../support/step-context';
import { INITIAL_SKILL, SMALL_CONFIG, trainOnce, worldDataset } from '../support/harness';
import { rolloutPhase } from '../../src/engine/rollout';
import { compareOnSelection } from '../../src/engine/validation-score';
import { checkOnTrain } from '../../src/engine/step/credit-check';
import { noisePolicy } from '../../src/core/verdict/noise';
import { ruleText, TOPICS } from '../../src/core/simulators/demo-world';
import type { GateArtifact } from '../../src/engine/artifacts';
import type { RunDataset } from '../../src/engine/types';

const server = sharedLlmServer();
/** A target seen to flip one answer in ten: every first answer leaves some doubt. */
const POLICY = noisePolicy({ units: 20, minority: 4, samples: 40 }, 3);
const data = worldDataset(200);
const ofTopic = (t: number, n: number) => idsOfTopic(data, t, n);

const context = (runId: string, dataset: RunDataset = data) => stepContext(server().url, runId, dataset);

/** Samples each item got in a phase and its repeats (`phase`, `phase/rN`). */
async function samplesOf(ctx: Awaited<ReturnType<typeof context>>, phase: string) {
  const rows = await ctx.store.listRollouts(ctx.runId);
  const n = new Map<string, number>();
  for (const r of rows)
    if (r.phase === phase || r.phase.startsWith(`${phase}/r`)) n.set(r.itemId, (n.get(r.itemId) ?? 0) + 1);
  return n;
}

describe('verdicts that stop buying samples once decided (issue #40)', () => {
  it('a gate sure of its gain does not settle the loss a tie would have needed', async () => {
    // Validation: sixteen items the candidate's rule gains, one it loses (it drops the start's other rule):
    // sure of the gain on the first answers.
    const gained = ofTopic(0, 16);
    const [lost] = ofTopic(1, 1);
    const val = [...gained, lost];
    const dataset: RunDataset = { items: data.items, splits: { train: [], val, test: [] } };
    const ctx = await context('gate-sure', dataset);
    const ref = `${INITIAL_SKILL}\n${ruleText(TOPICS[1])}\n`;
    const cand = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n`;
    const gate = { currentSkill: ref, currentScore: 0, currentOrigin: 'initial' };
    const s = {
      gate: { ...gate, bestSkill: ref, bestScore: 0, bestStep: 0, bestOrigin: 'initial' },
      selectionCache: {},
    };
    await rolloutPhase(ctx, { phase: 'gate-current', skill: ref, itemIds: val });
    // allowTie: the tie-break could take this candidate, so losses were settled whatever the verdict.
    const cmp = await compareOnSelection(ctx, s, dataset, 'gate', ref, cand, { policy: POLICY, allowTie: true });
    expect(cmp.cmp.verdict.posterior!.pBetter).toBeGreaterThanOrEqual(SMALL_CONFIG.gateConfidence);
    const candSamples = await samplesOf(ctx, 'gate');
    const refSamples = await samplesOf(ctx, 'gate-current');
    // The loss changes nothing a sure gain decides: neither side is asked again (it was, to three each).
    expect([candSamples.get(lost), refSamples.get(lost)]).toEqual([1, 1]);
  }, 60_000);

  it('a train check settles the losses its repair reads, not the items both skills passed', async () => {
    // Train: eight items the candidate gains, eight both pass (a loss there reads 0.06 likely), one it loses.
    const gained = ofTopic(0, 8);
    const kept = ofTopic(2, 8);
    const [lost] = ofTopic(1, 1);
    const ids = [...gained, ...kept, lost];
    const ctx = await context('check-losses');
    const ref = `${INITIAL_SKILL}\n${ruleText(TOPICS[1])}\n${ruleText(TOPICS[2])}\n`;
    const cand = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n${ruleText(TOPICS[2])}\n`;
    const base = await rolloutPhase(ctx, { phase: 'rollout', skill: ref, itemIds: ids });
    const check = await checkOnTrain(ctx, 'check', base.rows, ref, cand, { policy: POLICY, findRegressions: true });
    expect(check.improved).toBe(true);
    // The loss is settled and read by the repair…
    expect(check.delta.regressed).toEqual([lost]);
    const cand2 = await samplesOf(ctx, 'check');
    const ref2 = await samplesOf(ctx, 'check-current');
    expect(cand2.get(lost)).toBeGreaterThan(1);
    // …the items both skills passed, whose loss was barely plausible, are asked no more (they were, to three).
    for (const id of kept) expect([id, (cand2.get(id) ?? 0) + (ref2.get(id) ?? 0)]).toEqual([id, 1]);
  }, 60_000);

  it('a step whose edits applied to nothing is rejected without a validation call', async () => {
    // The step-size controller asks for no edit: every candidate is the current skill.
    server().set({
      optimizerHook: (stage: string) =>
        stage === 'lr_decision'
          ? { learning_rate: 0, reasoning: 'hold', confidence: 'low', risk_notes: [] }
          : undefined,
    });
    try {
      const { store, runId, outcome } = await trainOnce({
        url: server().url,
        config: { lrControlMode: 'autonomous', epochs: 2 },
        data: worldDataset(60),
      });
      expect(outcome.status).toBe('completed');
      const steps = await store.getSteps(runId);
      expect(steps.length).toBeGreaterThan(2);
      const rows = await store.listRollouts(runId);
      for (const st of steps) {
        const key = `s${String(st.step).padStart(4, '0')}`;
        const gate = (await store.getArtifact(runId, `${key}/gate`))?.value as GateArtifact | undefined;
        if (!gate) continue;
        // (It scored the current skill against itself on validation: 24 target calls at the first step.)
        expect(rows.filter((r) => r.phase.startsWith(`${key}/gate`))).toEqual([]);
        expect([key, gate.unchanged, gate.action]).toEqual([key, true, 'reject']);
      }
    } finally {
      server().set({ optimizerHook: undefined });
    }
  }, 120_000);
});
