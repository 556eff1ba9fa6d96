// Skill-aware reflection's appendix in the engine (issue #11, algorithm doc §3.8), through the
// SDK and the test server: analysts asked for reminders write them, they join the protected
// appendix outside the gate, the changed current skill is scored again, a long list is
// compacted by one call, and success analysts write reminders only when allowed.
import { describe, expect, it } from 'vitest';
import { sharedLlmServer } from '../support/shared-server';
import { trainOnce } from '../support/harness';
import { APPENDIX_START, getAppendixNotes } from '../../src/core/skill/protected-regions';
import type { AppendixFlush } from '../../src/engine/artifacts';

const server = sharedLlmServer();

describe('skill-aware appendix in the engine', () => {
  it('off by default: no analyst is asked for reminders and the skill has no appendix', async () => {
    server().set({ harmfulRate: 0 });
    const run = await trainOnce({ url: server().url, config: { epochs: 1 } });
    const steps = await run.store.getSteps(run.runId);
    for (const st of steps) expect(await run.store.getArtifact(run.runId, `s${String(st.step).padStart(4, '0')}/appendix`)).toBeUndefined();
    const state = await run.store.loadState(run.runId);
    expect(state!.gate.bestSkill).not.toContain(APPENDIX_START);
    expect((await run.store.listRollouts(run.runId)).some((r) => r.phase.endsWith('/appendix'))).toBe(false);
  });

  it('merges failure reminders into the appendix, scores the changed skill again, and compacts a long list', async () => {
    server().set({ harmfulRate: 0 });
    const run = await trainOnce({ url: server().url, config: { epochs: 1, skillAwareReflection: true, appendixConsolidateThreshold: 3 } });
    const flushes = (await Promise.all([1, 2].map((s) => run.store.getArtifact(run.runId, `s000${s}/appendix`)))).map((a) => a?.value as AppendixFlush | undefined);
    const first = flushes[0]!;
    expect(first.added.length).toBeGreaterThan(0);
    expect(first.added.every((n) => /^Check the \w+ rule before answering/.test(n))).toBe(true);
    // More than three notes: one consolidation call, whose shorter list was kept.
    expect(first.consolidated).toMatchObject({ used: true });
    expect(first.notesAfter).toBe(first.consolidated!.to);
    expect(server().counts().appendix_consolidate).toBeGreaterThan(0);
    // The current skill the target now sees was measured on validation, not carried over.
    const rows = await run.store.listRollouts(run.runId);
    const rescored = rows.filter((r) => r.phase === 's0001/appendix');
    expect(rescored.length).toBeGreaterThan(0);
    const ok = rescored.filter((r) => r.status === 'ok');
    expect(first.scoreAfter).toBeCloseTo(ok.reduce((a, r) => a + r.hard, 0) / ok.length, 9);
    const steps = await run.store.getSteps(run.runId);
    expect(steps[0].currentScore).toBeCloseTo(first.scoreAfter!, 9);
    // The notes sit in the protected block of the current skill, and success analysts wrote none.
    const state = await run.store.loadState(run.runId);
    const notes = getAppendixNotes(state!.gate.currentSkill);
    expect(notes.length).toBeGreaterThan(0);
    expect(notes).not.toContain('Keep answers to the bare code.');
    expect(state!.gate.currentOrigin.startsWith('appendix_') || state!.gate.currentOrigin.startsWith('slow_update')).toBe(true);
  });

  it('success analysts add reminders when the source is both', async () => {
    server().set({ harmfulRate: 0 });
    const run = await trainOnce({ url: server().url, config: { epochs: 1, skillAwareReflection: true, appendixSource: 'both', appendixConsolidateThreshold: 0 } });
    const steps = await run.store.getSteps(run.runId);
    const stored = await Promise.all(steps.map((st) => run.store.getArtifact(run.runId, `s${String(st.step).padStart(4, '0')}/appendix`)));
    const flushes = stored.filter((a) => a !== undefined).map((a) => a.value as AppendixFlush);
    expect(flushes.flatMap((f) => f.added)).toContain('Keep answers to the bare code.');
    expect(flushes.every((f) => f.consolidated === null)).toBe(true);
    const state = await run.store.loadState(run.runId);
    expect(getAppendixNotes(state!.gate.currentSkill)).toContain('Keep answers to the bare code.');
  });
});
