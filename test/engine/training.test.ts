import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';
import { HARMFUL_KEY, ruleText } from '../support/rule-world';
import { mergeCalls, rankCalls, reflectCalls } from '../../src/core/config/call-count';
import type { RunStore } from '../../src/engine/ports';
import type { Patch } from '../../src/core/skill/edits';

const server = sharedLlmServer();

// The default two-epoch run, made once and read by several tests of this file (issue #20 item 27).
let defaultRun: Promise<Awaited<ReturnType<typeof trainOnce>> & { events: string[] }> | undefined;
function theDefaultRun() {
  const events: string[] = [];
  // The settled stop off: these tests read every step and the meta skill the last boundary writes.
  defaultRun ??= trainOnce({ url: server().url, runId: 'default', config: { settledStop: 0 }, onEvent: (e) => events.push(e.type) }).then((r) => ({ ...r, events }));
  return defaultRun;
}

async function fingerprint(store: RunStore, runId: string) {
  const state = (await store.loadState(runId))!;
  const steps = await store.getSteps(runId);
  return {
    current: state.gate.currentSkill,
    best: state.gate.bestSkill,
    bestScore: state.gate.bestScore,
    actions: steps.map((s) => s.action),
    candidates: steps.map((s) => s.candidateHash),
    tests: state.summary?.tests.map((t) => [t.skill, t.hard]),
  };
}

describe('a full training run through the SDK and the test server', () => {
  it('raises test accuracy well above the initial skill in two epochs', async () => {
    const { outcome, store, runId, events } = await theDefaultRun();
    expect(outcome.status).toBe('completed');
    const s = outcome.summary!;
    const initial = s.tests.find((t) => t.skill === 'initial')!;
    const best = s.tests.find((t) => t.skill === 'best')!;
    expect(initial.hard).toBeLessThan(0.1);
    expect(best.hard).toBeGreaterThan(initial.hard + 0.5);
    expect(s.accepts).toBeGreaterThan(0);
    const steps = await store.getSteps(runId);
    expect(steps.map((x) => x.epoch)).toEqual([1, 1, 2, 2]);
    const state = (await store.loadState(runId))!;
    expect(state.gate.bestSkill).not.toContain(HARMFUL_KEY);
    expect(state.status).toBe('completed');
    expect(events).toEqual(expect.arrayContaining(['status', 'baseline', 'stage', 'progress', 'step', 'epoch', 'usage']));
    expect(s.epochs.map((e) => e.slowUpdate?.action)).toEqual(['inject_placeholder', expect.any(String)]);
    expect(s.epochs[1].metaSkill?.action).toBe('write_meta_skill');
    const versions = await store.getSkillVersions(runId);
    expect(versions[0].origin).toBe('initial_skill');
    expect(versions.map((v) => v.text)).toContain(state.gate.bestSkill);
  });

  it('rejects a harmful edit at the gate', async () => {
    server().set({ harmfulRate: 1 }); // every failure analyst slips in the harmful rule
    // The gate alone: the train check would reject or repair these candidates before it.
    const { outcome, store, runId } = await trainOnce({ url: server().url, config: { epochs: 1, trainCheck: false } });
    expect(outcome.status).toBe('completed');
    const steps = await store.getSteps(runId);
    let harmfulCandidates = 0;
    for (const s of steps) {
      const ranked = (await store.getArtifact(runId, `s${String(s.step).padStart(4, '0')}/ranked`))?.value as Patch | undefined;
      if (ranked?.edits.some((e) => String(e.content).includes(HARMFUL_KEY))) {
        harmfulCandidates++;
        expect(s.action).toBe('reject');
      }
    }
    expect(harmfulCandidates).toBeGreaterThan(0);
    const state = (await store.loadState(runId))!;
    expect(state.gate.bestSkill).not.toContain(HARMFUL_KEY);
    expect(state.gate.currentSkill).not.toContain(HARMFUL_KEY);
    // The rejected edits reach the next step's analysts through the step buffer.
    const calls = await store.listCalls(runId);
    expect(calls.some((c) => c.requestPreview.includes('Previous Steps in This Epoch'))).toBe(true);
  });

  it('stops the gate early with the same decisions and fewer calls', async () => {
    server().set({ harmfulRate: 1 });
    // A good starting skill: candidates carrying the harmful rule fall behind within a few waves.
    const initialSkill = `# Specimen codes\n\n${['amber', 'basalt', 'cobalt', 'dune', 'ember', 'fjord'].map(ruleText).join('\n')}\n`;
    // The mean gate's early stop (gate confidence 0): a posterior verdict stops on its own (weigh.ts).
    const full = await trainOnce({ url: server().url, runId: 'full', initialSkill, config: { earlyStopGate: false, trainCheck: false, gateConfidence: 0 } });
    const fullGate = server().log.length;
    server().log.length = 0;
    const early = await trainOnce({ url: server().url, runId: 'early', initialSkill, config: { earlyStopGate: true, trainCheck: false, gateConfidence: 0 } });
    const earlyGate = server().log.length;
    const a = await fingerprint(full.store, full.runId);
    const b = await fingerprint(early.store, early.runId);
    expect(b).toEqual(a);
    const stopped = (await early.store.getSteps(early.runId)).filter((s) => s.selectionComplete === false);
    expect(stopped.length).toBeGreaterThan(0);
    expect(earlyGate).toBeLessThan(fullGate);
  });

  it('gives the same run whatever the concurrency', async () => {
    const one = await trainOnce({ url: server().url, runId: 'c1', config: { targetConcurrency: 1, optimizerConcurrency: 1 } });
    const four = await theDefaultRun(); // concurrency 4
    expect(await fingerprint(four.store, four.runId)).toEqual(await fingerprint(one.store, one.runId));
  });

  it('rides out a 429 storm: slower, but the same result', async () => {
    const calm = await trainOnce({ url: server().url, runId: 'calm', config: { epochs: 1 } });
    server().set({ faults: [{ kind: '429', times: 40, retryAfter: 0 }], latencyMs: 2 });
    server().log.length = 0;
    const stormy = await trainOnce({ url: server().url, runId: 'storm', config: { epochs: 1 } });
    expect(stormy.outcome.status).toBe('completed');
    expect(server().log.filter((l) => l.status === 429)).toHaveLength(40);
    expect(await fingerprint(stormy.store, stormy.runId)).toEqual(await fingerprint(calm.store, calm.runId));
  });

  it('stops on a rejected key with a clear message and nothing scored', async () => {
    server().set({ apiKey: 'a-different-key' });
    const { outcome, store, runId } = await trainOnce({ url: server().url });
    expect(outcome.status).toBe('paused');
    expect(outcome.reasonKind).toBe('llm_fatal');
    expect(outcome.reason).toMatch(/API key was rejected \(401\)/);
    expect(outcome.reason).not.toContain('sk-test-key');
    const rows = await store.listRollouts(runId);
    expect(rows.filter((r) => r.status === 'ok')).toHaveLength(0);
    const state = (await store.loadState(runId))!;
    expect(state.baselineDone).toBe(false);
    expect(state.reason).toBe(outcome.reason);
  });

  it('handles malformed optimizer JSON with the fallbacks of §2.10', async () => {
    server().set({ faults: [{ kind: 'malformed', stage: 'merge_failure' }, { kind: 'malformed', stage: 'rank_edits' }, { kind: 'malformed', stage: 'reflect_success' }] });
    const { outcome, store, runId } = await trainOnce({ url: server().url, config: { epochs: 1, mergeBatchSize: 2, editBudget: 2, minEditBudget: 1 } });
    expect(outcome.status).toBe('completed');
    const merged = (await store.getArtifact(runId, 's0001/merged'))!.value as Patch;
    expect(merged.reasoning).toMatch(/^fallback: concatenated/);
    const ranked = (await store.getArtifact(runId, 's0001/ranked'))!.value as Patch;
    expect(ranked.reasoning).toMatch(/fallback: first 2 edits/);
    expect(ranked.edits).toEqual(merged.edits.slice(0, 2));
    const step1 = (await store.getSteps(runId))[0];
    expect(step1.nSuccessPatches).toBe(0); // unusable analyst replies contribute nothing
    expect(outcome.summary!.tests.find((t) => t.skill === 'best')!.hard).toBeGreaterThan(0);
  });

  it('never counts an errored row as a wrong answer', async () => {
    // The baseline makes 20 target calls and its noise probe 16 more; the next 3 (in step 1's rollout) fail for good.
    server().set({ faults: [{ kind: '500', stage: 'target', after: 36, times: 3 }] });
    const { outcome, store, runId } = await trainOnce({ url: server().url, config: { epochs: 1 }, target: { maxRetries: 0 } });
    expect(outcome.status).toBe('completed');
    const rows = await store.listRollouts(runId);
    const errored = rows.filter((r) => r.status === 'error');
    expect(errored).toHaveLength(3);
    expect(errored.every((r) => r.phase === 's0001/rollout')).toBe(true);
    expect(errored[0].error?.kind).toBe('server');
    for (const s of await store.getSteps(runId)) {
      const phaseRows = rows.filter((r) => r.phase === `s${String(s.step).padStart(4, '0')}/rollout`);
      const ok = phaseRows.filter((r) => r.status === 'ok');
      expect(s.rolloutN).toBe(ok.length);
      expect(s.rolloutErrors).toBe(phaseRows.length - ok.length);
      expect(s.rolloutHard).toBeCloseTo(ok.length ? ok.reduce((a, r) => a + r.hard, 0) / ok.length : 0, 12);
    }
    // Errored rows never reach the analysts.
    const calls = await store.listCalls(runId);
    for (const r of errored.filter((x) => x.phase.endsWith('/rollout'))) {
      expect(calls.some((c) => c.requestPreview.includes(`(id=${r.itemId})`) && c.key.startsWith(r.phase.slice(0, 5)))).toBe(false);
    }
  });

  it('pauses instead of scoring when most target calls fail', async () => {
    server().set({ faults: [{ kind: '500', stage: 'target' }] });
    const { outcome, store, runId } = await trainOnce({ url: server().url, target: { maxRetries: 1 } });
    expect(outcome.status).toBe('paused');
    expect(outcome.reasonKind).toBe('error_rate');
    expect(outcome.reason).toMatch(/failed after retries.*not scored as wrong answers/);
    expect((await store.loadState(runId))!.baselineDone).toBe(false);
  });

  it('makes exactly the optimizer calls the core formulas predict', async () => {
    const { store, runId } = await trainOnce({ url: server().url, config: { epochs: 1, mergeBatchSize: 2 } });
    const counts = server().counts();
    const rows = await store.listRollouts(runId);
    let reflect = 0;
    let merge = 0;
    let rank = 0;
    for (const s of await store.getSteps(runId)) {
      const phase = rows.filter((r) => r.phase === `s${String(s.step).padStart(4, '0')}/rollout` && r.status === 'ok');
      const failures = phase.filter((r) => r.hard < 1e-9).length;
      reflect += reflectCalls(failures, phase.length - failures, 5);
      merge += mergeCalls(s.nFailurePatches, s.nSuccessPatches, 2);
      rank += s.editBudget === null ? 0 : rankCalls(s.nEditsMerged, s.editBudget);
    }
    expect((counts.reflect_failure ?? 0) + (counts.reflect_success ?? 0)).toBe(reflect);
    expect((counts.merge_failure ?? 0) + (counts.merge_success ?? 0) + (counts.merge_final ?? 0)).toBe(merge);
    expect(counts.rank_edits ?? 0).toBe(rank);
    const targetCalls = rows.filter((r) => !r.cached).length;
    expect(counts.target).toBe(targetCalls);
  });
});
