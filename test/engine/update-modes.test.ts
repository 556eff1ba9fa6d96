// Update modes in the engine (issue #11, algorithm doc §3.5), through the real SDK and the test
// server: rewrite mode ranks revise suggestions and rewrites the skill in one call; full-rewrite
// mode takes the merged whole skill without ranking; both keep the protected blocks and meet
// the same gate; a rewrite that writes nothing is skip_no_rewrite, with no gate run.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';
import { SLOW_UPDATE_START } from '../../src/core/skill/protected-regions';
import type { RewriteArtifact } from '../../src/engine/artifacts';
import type { StepRecord } from '../../src/engine/types';

const server = sharedLlmServer();

function stagesCalled(): Set<string> {
  return new Set(server().log.filter((e) => e.status === 200).map((e) => e.stage));
}

describe('update modes in the engine', () => {
  it('rewrite mode: suggestions are merged, ranked to the budget and written into a whole new skill that the gate accepts', async () => {
    server().set({ harmfulRate: 0 });
    const run = await trainOnce({ url: server().url, config: { updateMode: 'rewrite', editBudget: 2, minEditBudget: 1 } });
    const stages = stagesCalled();
    for (const s of ['reflect_suggestions', 'merge_suggestions', 'rank_suggestions', 'rewrite_skill']) expect(stages).toContain(s);
    for (const s of ['reflect_failure', 'merge_failure', 'rank_edits']) expect(stages).not.toContain(s);
    const steps = await run.store.getSteps(run.runId);
    const accepted = steps.filter((s) => s.action.startsWith('accept'));
    expect(accepted.length).toBeGreaterThan(0);
    const first = accepted[0];
    const art = (await run.store.getArtifact(run.runId, `s${String(first.step).padStart(4, '0')}/rewrite`))!.value as RewriteArtifact;
    expect(art.mode).toBe('rewrite');
    // The rank kept at most the step's budget of the merged suggestions, and the rewrite says what it changed.
    expect(art.selected.length).toBeLessThanOrEqual(first.editBudget!);
    expect(art.merged.length).toBeGreaterThanOrEqual(art.selected.length);
    expect(art.changeSummary.length).toBeGreaterThan(0);
    expect(first.rewriteChangeSummary).toEqual(art.changeSummary);
    expect(run.outcome.summary!.bestSelection).toBeGreaterThan(run.outcome.summary!.baselineSelection);
    // Epoch 2's rewrites keep the slow-update block that epoch 1's boundary wrote, exactly once.
    const versions = await run.store.getSkillVersions(run.runId);
    const afterBoundary = versions.filter((v) => v.text.includes(SLOW_UPDATE_START) && /^step_/.test(v.origin));
    expect(afterBoundary.length).toBeGreaterThan(0);
    for (const v of afterBoundary) expect(v.text.split(SLOW_UPDATE_START)).toHaveLength(2);
    // Bills the rewrite under its own call stage.
    expect(run.outcome.summary!.usage.rewrite?.calls).toBeGreaterThan(0);
  });

  it('full-rewrite mode: analysts write whole skills, merges combine them, and no ranking or step size is asked', async () => {
    server().set({ harmfulRate: 0 });
    const run = await trainOnce({ url: server().url, config: { updateMode: 'full_rewrite', lrControlMode: 'autonomous', epochs: 1 } });
    const stages = stagesCalled();
    expect(stages).toContain('reflect_full_rewrite');
    expect(stages).toContain('merge_full_rewrite');
    for (const s of ['rank_edits', 'rank_suggestions', 'lr_decision', 'rewrite_skill']) expect(stages).not.toContain(s);
    const steps = await run.store.getSteps(run.runId);
    expect(steps.some((s) => s.action.startsWith('accept'))).toBe(true);
    expect(steps.every((s) => s.editBudget === null)).toBe(true);
    expect(run.outcome.summary!.bestSelection).toBeGreaterThan(run.outcome.summary!.baselineSelection);
  });

  it('a rewrite that returns no usable skill is skip_no_rewrite: no gate, no version, and the run goes on', async () => {
    server().set({ harmfulRate: 0, faults: [{ kind: 'malformed', stage: 'rewrite_skill' }] });
    const run = await trainOnce({ url: server().url, config: { updateMode: 'rewrite', epochs: 1 } });
    const steps: StepRecord[] = await run.store.getSteps(run.runId);
    const skipped = steps.filter((s) => s.action === 'skip_no_rewrite');
    expect(skipped.length).toBeGreaterThan(0);
    for (const s of skipped) expect(s.candidateGateScore).toBeNull();
    const rows = await run.store.listRollouts(run.runId);
    for (const s of skipped) expect(rows.some((r) => r.phase.startsWith(`s${String(s.step).padStart(4, '0')}/gate`))).toBe(false);
    expect(run.outcome.status).toBe('completed');
    expect(run.outcome.summary!.diagnosis?.causes.map((c) => c.cause)).toContain('no_rewrite');
  });
});
