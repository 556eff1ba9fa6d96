import { beforeEach, describe, expect, it, vi } from 'vitest';
import {
  applyRunEvents,
  EVENT_FLUSH_MS,
  flushRunEvents,
  queueRunEvent,
  startLive,
} from '../../src/store/run-events';
import type { RunEvent } from '../../src/worker/api-types';
import { setApp, useApp } from '../../src/store/app-store';

const live = () => useApp.getState().live!;
/** Events of run "r", the run these tests show. */
const applyRunEvent = (e: RunEvent, runId = 'r') => applyRunEvents([{ ...e, runId }]);
const step = (n: number, action = 'accept') =>
  applyRunEvent({ type: 'step', step: n, epoch: 1, action, candidateScore: 0.5, scoreBefore: 0.25, currentScore: 0.5, bestScore: 0.5, trainHard: 0.4, editBudget: 4 });

describe('run events fold into the live view', () => {
  beforeEach(() => setApp({ live: null }));

  it('ignores events when no run is shown', () => {
    applyRunEvent({ type: 'status', status: 'running' });
    expect(useApp.getState().live).toBeNull();
  });

  it('changes the status only on a status event, which also ends "starting"', () => {
    startLive('r', 'paused', 10, { starting: true, reason: 'Paused by you.' });
    applyRunEvent({ type: 'stage', stage: 'rollout', step: 3, epoch: 1, totalSteps: 10 });
    applyRunEvent({ type: 'progress', phase: 's0003/rollout', done: 2, total: 20 });
    expect(live()).toMatchObject({ status: 'paused', starting: true, stage: 'rollout', step: 3, progress: { done: 2, total: 20 } });
    applyRunEvent({ type: 'status', status: 'running' });
    expect(live()).toMatchObject({ status: 'running', reason: undefined });
    expect(live().starting).toBeUndefined();
  });

  it('keeps one chart point per step (a replayed step replaces its point) and a bounded log', () => {
    startLive('r', 'running', 10);
    step(1);
    expect(live().points[0]).toMatchObject({ candidate: 0.5, faced: 0.25, current: 0.5 }); // the score it had to beat
    step(2, 'reject');
    step(2, 'accept');
    expect(live().points.map((p) => [p.step, p.action])).toEqual([
      [1, 'accept'],
      [2, 'accept'],
    ]);
    expect(live().firstPointAt).toBeTypeOf('number');
    for (let i = 0; i < 450; i++) applyRunEvent({ type: 'log', level: 'info', message: `line ${i}` });
    expect(live().log).toHaveLength(400);
    expect(live().log[399].message).toBe('line 449');
    applyRunEvent({ type: 'usage', usage: {}, totalCostUsd: 0.25 });
    expect(live().costUsd).toBe(0.25);
  });

  it("another run's events never land on this run's dashboard (issue #20 item 3)", () => {
    startLive('r', 'running', 10);
    applyRunEvent({ type: 'status', status: 'completed' }, 'other');
    applyRunEvent({ type: 'step', step: 1, epoch: 1, action: 'accept', candidateScore: 1, scoreBefore: 0, currentScore: 1, bestScore: 1, trainHard: 1, editBudget: 4 }, 'other');
    expect(live()).toMatchObject({ runId: 'r', status: 'running', points: [] });
    applyRunEvent({ type: 'status', status: 'paused' });
    expect(live().status).toBe('paused');
  });

  it('folds a burst of events into one store update, in order, so the dashboard renders once per burst', () => {
    vi.useFakeTimers();
    try {
      startLive('r', 'running', 10);
      let updates = 0;
      const stop = useApp.subscribe(() => updates++);
      for (let i = 1; i <= 30; i++) queueRunEvent({ runId: 'r', type: 'progress', phase: 'rollout', done: i, total: 30 });
      queueRunEvent({ runId: 'r', type: 'status', status: 'paused' });
      expect(updates).toBe(0);
      vi.advanceTimersByTime(EVENT_FLUSH_MS);
      expect(updates).toBe(1);
      expect(live()).toMatchObject({ status: 'paused', progress: { done: 30, total: 30 } });
      // A flush asked for early (a run's answer arrived) folds what is queued and cancels the timer.
      queueRunEvent({ runId: 'r', type: 'status', status: 'running' });
      flushRunEvents();
      expect(live().status).toBe('running');
      vi.advanceTimersByTime(EVENT_FLUSH_MS);
      expect(updates).toBe(2);
      stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
