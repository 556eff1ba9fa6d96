// Steering (issue #11): with "Review edits before the gate", each candidate pauses the run; the
// person's approval (stored, so it survives a reload) decides which edits meet the gate. Over the
// worker API, the SDK and the test server.
import 'fake-indexeddb/auto';
import { describe, expect, it } from 'vitest';
import * as Comlink from 'comlink';
import type { RunEvent } from '../../src/engine/events';
import { sharedLlmServer } from '../support/shared-server';
import { newRun, openTab } from '../support/api-harness';
import { applyPatch, type Edit } from '../../src/core/skill/edits';
import { INITIAL_SKILL } from '../support/harness';

const server = sharedLlmServer();

describe('review edits before the gate', () => {
  it('pauses at each candidate, gates only the approved edits, survives a reload, and a veto wins nothing', async () => {
    server().set({ harmfulRate: 0 });
    const url = server().url;
    const keys = { target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } };
    const dbName = `review-${Date.now()}`;
    let tab = await openTab({ dbName });
    const runId = await newRun(tab.remote, url, { epochs: 1, reviewEdits: true, trainCheck: false });
    await tab.remote.setKeys(keys, false);
    // The page opens the review as the pause is announced, before the run has let go of it.
    let early: Promise<unknown> | undefined;
    const first = await tab.remote.startRun(
      runId,
      Comlink.proxy((e: RunEvent) => {
        if (e.type === 'status' && e.status === 'paused') early = tab.remote.getReview(runId);
      }),
    );
    expect(await early).toMatchObject({ ok: true, step: 1 });
    expect(first).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    expect(first.ok && first.reason).toMatch(/^Review step 1: \d+ proposed changes? wait for your approval/);
    // A reload: a new tab on the same database finds the same proposal.
    tab.close();
    tab = await openTab({ dbName });
    await tab.remote.setKeys(keys, false);
    const r1 = await tab.remote.getReview(runId);
    if (!r1.ok) throw new Error(r1.error.message);
    expect(r1.step).toBe(1);
    expect(r1.request.items.length).toBeGreaterThan(1);
    expect(r1.request.skillBefore).toBe(INITIAL_SKILL);
    expect(await tab.remote.submitReview(runId, 2, [0], r1.request.proposal ?? null)).toMatchObject({ ok: false });
    // Approve only the first edit: the gate sees that edit alone.
    expect(await tab.remote.submitReview(runId, 1, [0, 0, 99], r1.request.proposal ?? null)).toMatchObject({
      ok: true,
      approved: 1,
      of: r1.request.items.length,
    });
    const second = await tab.remote.startRun(runId);
    expect(second).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    const step1 = await tab.remote.getStepDetail(runId, 1);
    if (!step1.ok) throw new Error(step1.error.message);
    const approved = step1.detail.artifacts.candidate_edits as Edit[];
    expect(approved).toHaveLength(1);
    expect(step1.detail.candidateSkill).toBe(applyPatch(INITIAL_SKILL, approved).skill);
    // The gate scored that candidate (one rule alone fixes no item here: it is refused).
    expect(step1.detail.step.candidateGateScore).not.toBeNull();
    expect(step1.detail.step.action).toBe('reject');
    // Step 2: veto everything — the candidate is the current skill, which cannot beat itself.
    const r2 = await tab.remote.getReview(runId);
    if (!r2.ok) throw new Error(r2.error.message);
    expect(r2.step).toBe(2);
    await tab.remote.submitReview(runId, 2, [], r2.request.proposal ?? null);
    const third = await tab.remote.startRun(runId);
    expect(third.ok && third.status).not.toBe('failed');
    const step2 = await tab.remote.getStepDetail(runId, 2);
    if (!step2.ok) throw new Error(step2.error.message);
    expect(step2.detail.step.action).toBe('reject');
    // The current skill cannot beat itself: refused without a validation call (issue #40).
    expect(step2.detail.step).toMatchObject({ selectionCacheHit: false, candidateGateScore: null });
    tab.close();
  });

  it('a decision answers the proposal it was made for: a resumed step that proposes something else asks again (issue #20 item 1)', async () => {
    // The first analyst call fails for good on the first pass: the proposal lacks its edits. On
    // resume the call succeeds and the rebuilt proposal differs — approving "edit 0" of the old
    // list must not gate edit 0 of the new one.
    server().set({ harmfulRate: 0, faults: [{ kind: '500', stage: 'reflect_failure', times: 4 }] });
    const url = server().url;
    const tab = await openTab();
    const runId = await newRun(tab.remote, url, {
      epochs: 1,
      reviewEdits: true,
      trainCheck: false,
      maxErrorRate: 1,
      optimizerConcurrency: 1,
    });
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } }, false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    const before = await tab.remote.getReview(runId);
    if (!before.ok) throw new Error(before.error.message);
    expect(await tab.remote.submitReview(runId, 1, [0], before.request.proposal ?? null)).toMatchObject({
      ok: true,
      approved: 1,
    });
    server().set({ faults: [] });
    const again = await tab.remote.startRun(runId);
    expect(again).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    expect(again.ok && again.reason).toMatch(/The proposal changed since your decision/);
    // A panel still showing the old proposal cannot decide the new one (issue #28 LOW).
    const stale = await tab.remote.submitReview(runId, 1, [0], before.request.proposal ?? null);
    expect(stale).toMatchObject({ ok: false });
    expect(!stale.ok && stale.error.message).toMatch(
      /Step 1's proposal changed since it was shown: review the new one/,
    );
    const after = await tab.remote.getReview(runId);
    if (!after.ok) throw new Error(after.error.message);
    expect(after.step).toBe(1);
    expect(after.request.proposal).not.toBe(before.request.proposal);
    expect(after.request.edits).not.toEqual(before.request.edits);
    // Nothing was gated on the old decision: step 1 is still the next step.
    const run = await tab.remote.getRun(runId);
    expect(run.ok && run.detail.nextStep).toBe(1);
    // A decision on the new proposal is applied as made.
    await tab.remote.submitReview(runId, 1, [0], after.request.proposal ?? null);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    const step1 = await tab.remote.getStepDetail(runId, 1);
    if (!step1.ok) throw new Error(step1.error.message);
    expect(step1.detail.artifacts.candidate_edits).toEqual([after.request.edits![0]]);
    tab.close();
  });

  it('in rewrite mode the whole rewrite is one change to approve or veto', async () => {
    server().set({ harmfulRate: 0 });
    const url = server().url;
    const tab = await openTab();
    const runId = await newRun(tab.remote, url, {
      epochs: 1,
      reviewEdits: true,
      updateMode: 'rewrite',
      trainCheck: false,
    });
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } }, false);
    expect(await tab.remote.startRun(runId)).toMatchObject({ ok: true, status: 'paused', reasonKind: 'review' });
    const r = await tab.remote.getReview(runId);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.request.items).toHaveLength(1);
    expect(r.request.items[0].label).toBe('Rewrite of the whole skill');
    expect(r.request.items[0].detail).toMatch(/^added - For /);
    expect(r.request.edits).toBeUndefined();
    expect(r.request.candidate).not.toBe(r.request.skillBefore);
    await tab.remote.submitReview(runId, 1, [], r.request.proposal ?? null);
    await tab.remote.startRun(runId);
    const step1 = await tab.remote.getStepDetail(runId, 1);
    if (!step1.ok) throw new Error(step1.error.message);
    // Nothing approved leaves the current skill: refused without a validation call (issue #40).
    expect(step1.detail.step).toMatchObject({ action: 'reject', selectionCacheHit: false, candidateGateScore: null });
    // The inspector shows what was gated: the skill the step started from, not the vetoed rewrite.
    expect(step1.detail.candidateSkill).toBe(r.request.skillBefore);
    tab.close();
  });

  it('a full veto gates nothing, keeps no check or repair of the vetoed bundle, and is diagnosed as a veto (issue #20 item 7)', async () => {
    server().set({ harmfulRate: 0 });
    const url = server().url;
    const tab = await openTab();
    const runId = await newRun(tab.remote, url, { epochs: 1, reviewEdits: true, trainCheck: true, repairEdits: true });
    await tab.remote.setKeys({ target: 'k', optimizer: 'k', hosts: { target: url, optimizer: url } }, false);
    let outcome = await tab.remote.startRun(runId);
    const vetoed: number[] = [];
    while (outcome.ok && outcome.status === 'paused' && outcome.reasonKind === 'review') {
      const r = await tab.remote.getReview(runId);
      if (!r.ok) throw new Error(r.error.message);
      await tab.remote.submitReview(runId, r.step, [], r.request.proposal ?? null);
      vetoed.push(r.step);
      outcome = await tab.remote.startRun(runId);
    }
    expect(outcome).toMatchObject({ ok: true, status: 'completed' });
    expect(vetoed.length).toBeGreaterThan(0);
    for (const step of vetoed) {
      const d = await tab.remote.getStepDetail(runId, step);
      if (!d.ok) throw new Error(d.error.message);
      expect(d.detail.step.action).toBe('reject');
      expect(d.detail.artifacts.check).toBeUndefined();
      expect(d.detail.artifacts.repair).toBeUndefined();
    }
    const run = await tab.remote.getRun(runId);
    if (!run.ok) throw new Error(run.error.message);
    const diagnosis = run.detail.summary?.diagnosis;
    expect(diagnosis?.causes.map((c) => c.cause)).toContain('vetoed');
    expect(diagnosis?.causes.some((c) => c.cause === 'ties')).toBe(false);
    tab.close();
  });
});
