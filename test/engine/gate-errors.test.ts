// Issue #9 item 6: errored rows never skew the gate. A candidate whose failing items error out
// has a higher mean over the items it did score; compared item by item on the items both skills
// scored (the gate's paired verdict, issue #19) it is no better, and it is rejected.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { INITIAL_SKILL, SMALL_CONFIG, worldDataset } from '../support/harness';
import { testEndpoint } from '../support/endpoints';
import { stepContext } from '../support/step-context';
import { ruleText } from '../support/rule-world';
import { createLlmPort } from '../../src/llm/openai-client';
import { initialRunState } from '../../src/engine/run/trainer';
import { gateCandidate } from '../../src/engine/gate';
import { scoreOnSelection } from '../../src/engine/validation-score';
import { applyPatch } from '../../src/core/skill/edits';
import { noisePolicy, NO_FLIPS } from '../../src/core/verdict/noise';

// A target known to be deterministic: one answer settles an item.
const policy = { ...noisePolicy(NO_FLIPS, 1), margin: 1 };

const server = sharedLlmServer();

async function setup() {
  const config = { ...SMALL_CONFIG, earlyStopGate: false };
  const data = worldDataset(100);
  const llm = createLlmPort({ target: testEndpoint(server().url, 'sim-target', { maxRetries: 0 }), optimizer: testEndpoint(server().url, 'sim-optimizer') }, { backoffBaseMs: 1 });
  const ctx = await stepContext(server().url, 'gate-errors', data, config, llm);
  const current = `${INITIAL_SKILL}\n${ruleText('amber')}\n${ruleText('basalt')}\n`;
  const state = initialRunState({ runId: 'gate-errors', config, data, initialSkill: current }, 0);
  const base = await scoreOnSelection(ctx, state, data, 'baseline', current);
  state.gate = { ...state.gate, currentScore: base.gate, bestScore: base.gate };
  // The candidate adds a line that changes nothing: it fails exactly what the current skill fails.
  const edits = [{ op: 'append' as const, content: '- Give only the code, with no extra words.' }];
  const applied = applyPatch(current, edits);
  const cand = { kind: 'patch' as const, ranked: { reasoning: '', edits }, edits, applied, skill: applied.skill, check: null, repair: null, carried: 0 };
  return { ctx, state, data, cand };
}

describe('gate with errored rows', () => {
  it('rejects a candidate whose failing items time out, comparing on the items both skills scored', async () => {
    // Every cobalt item fails for the candidate — and its calls fail too.
    server().set({ faults: [{ kind: '500', stage: 'target', match: /no extra words[\s\S]*What is the cobalt code/ }] });
    const { ctx, state, data, cand } = await setup();
    const g = await gateCandidate(ctx, state, data, { phase: 's0001/gate', against: 'current', candidate: cand.skill, origin: 'step_0001', step: 1, check: cand.check, policy });
    expect(g.selection!.score.errors).toBeGreaterThan(0);
    // Over the items it scored, the candidate looks strictly better than the current skill …
    expect(g.selection!.gate).toBeGreaterThan(state.gate.currentScore);
    // … but on the items both scored the two are equal, so the gate rejects it.
    expect(g.compared!.candidate).toBeCloseTo(g.compared!.current, 12);
    // (a posterior verdict's gain is an expectation: a hair above 0 where nothing moved)
    expect(g.compared!.gain).toBeCloseTo(0, 2);
    expect(g.verdict!.n).toBe(g.selection!.score.n);
    expect(g.verdict!).toMatchObject({ improved: [], regressed: [] });
    expect(g.decision.action).toBe('reject');
  });

  it('without errors decides on the plain means, as before', async () => {
    const { ctx, state, data, cand } = await setup();
    const g = await gateCandidate(ctx, state, data, { phase: 's0001/gate', against: 'current', candidate: cand.skill, origin: 'step_0001', step: 1, check: cand.check, policy });
    expect(g.selection!.score.errors).toBeUndefined();
    expect(g.verdict!.n).toBe(data.splits.val.length);
    expect(g.decision.action).toBe('reject');
    expect(g.selection!.gate).toBeCloseTo(state.gate.currentScore, 12);
    expect(g.compared!.candidate).toBeCloseTo(state.gate.currentScore, 12);
  });
});
