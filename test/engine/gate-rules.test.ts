// Gate rules in the engine (issue #11): the same candidate — three new rules plus a harmful one
// that breaks items the current skill passed — is let in by the mean gate and refused by the
// no-regression and significance rules, which name the items and the figures, at no extra call.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce, INITIAL_SKILL } from '../support/harness';
import { ruleText, TOPICS, HARMFUL_RULE } from '../support/rule-world';
import { isPass } from '../../src/core/verdict/credit';
import type { GateArtifact } from '../../src/engine/artifacts';
import type { RunConfig } from '../../src/core/config/run-config';

const server = sharedLlmServer();
const START = `${INITIAL_SKILL}\n${ruleText(TOPICS[0])}\n${ruleText(TOPICS[1])}\n`;

async function firstStep(config: Partial<RunConfig>) {
  server().set({ harmfulRate: 1 }); // every failure analyst slips the harmful rule in
  const run = await trainOnce({ url: server().url, initialSkill: START, config: { epochs: 1, seed: 4, trainCheck: false, tieBreak: false, ...config } });
  const gate = (await run.store.getArtifact(run.runId, 's0001/gate'))!.value as GateArtifact;
  const rows = await run.store.listRollouts(run.runId);
  const versions = await run.store.getSkillVersions(run.runId);
  return { gate, rows, versions };
}

// The mean-gate run is the reference of two tests: trained once.
let meanRun: ReturnType<typeof firstStep> | undefined;
const underMean = () => (meanRun ??= firstStep({ gateRule: 'mean' }));

describe('gate rules in the engine', () => {
  it('the mean gate lets in a candidate that breaks validation items it fixes others for', async () => {
    const { gate, rows, versions } = await underMean();
    expect(gate.action).toBe('accept_new_best');
    expect(gate.rule ?? null).toBeNull();
    const before = new Map(rows.filter((r) => r.phase === 'baseline').map((r) => [r.itemId, r.hard]));
    const broken = rows.filter((r) => r.phase === 's0001/gate' && isPass(before.get(r.itemId) ?? 0) && !isPass(r.hard)).map((r) => r.itemId);
    expect(broken.length).toBeGreaterThan(0);
    expect(versions.find((v) => v.step === 1)?.text).toContain(HARMFUL_RULE);
  });

  it('the no-regression rule refuses it, naming the items that would fail, without new calls', async () => {
    const mean = await underMean();
    const { gate, rows, versions } = await firstStep({ gateRule: 'no_regression' });
    expect(gate.action).toBe('reject');
    expect(gate.gateScore).toBe(mean.gate.gateScore); // the same candidate, the same mean
    const before = new Map(rows.filter((r) => r.phase === 'baseline').map((r) => [r.itemId, r.hard]));
    const broken = rows.filter((r) => r.phase === 's0001/gate' && isPass(before.get(r.itemId) ?? 0) && !isPass(r.hard)).map((r) => r.itemId);
    expect(gate.rule).toMatchObject({ rule: 'no_regression', allowed: false });
    expect([...gate.rule!.regressed].sort()).toEqual(broken.sort());
    expect(gate.rule!.reason).toMatch(/items? that passed would fail/);
    expect(versions.some((v) => v.step === 1)).toBe(false);
    // The current skill's rows came from the rollout cache: the rule cost no target call.
    expect(rows.filter((r) => r.phase === 's0001/gate-current' && !r.cached)).toEqual([]);
  });

  it('the significance rule refuses a gain within k standard errors, with the figures', async () => {
    const { gate } = await firstStep({ gateRule: 'significance', gateSignificanceK: 3 });
    expect(gate.action).toBe('reject');
    expect(gate.rule).toMatchObject({ rule: 'significance', allowed: false });
    expect(gate.rule!.gain).toBeGreaterThan(0);
    expect(gate.rule!.gain).toBeLessThanOrEqual(3 * gate.rule!.se);
    expect(gate.rule!.reason).toMatch(/not above 3 × its standard error/);
  });
});
