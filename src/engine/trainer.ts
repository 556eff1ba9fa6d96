/**
 * The SkillOpt training loop (algorithm doc §2): baseline → steps of rollout, reflect,
 * aggregate, select, update, gate → an epoch boundary of slow update and meta skill → final
 * validation, promotion and test evaluation. Every LLM call and stage result is checkpointed,
 * so a stopped run resumes where it was without repeating finished calls and ends exactly as
 * an uninterrupted run would. Results are always combined in a fixed order, never in order of
 * completion, so the outcome does not depend on concurrency or timing.
 */
import { epochKey, putStepArtifact, stepKey } from './step-artifacts';
import { batchesForStep, planEpochBatches } from '../core/batching';
import { evaluateGate, gateScore, isAccept } from '../core/gate';
import { skillHash } from '../core/hash';
import { getSlowUpdateContent, injectEmptySlowUpdate, replaceSlowUpdateBlock } from '../core/protected-regions';
import { deriveSteps, type RunConfig } from '../core/run-config';
import { createSchedule, stepSchedule } from '../core/schedules';
import { aggregate } from './aggregate';
import { comparePrevCurr, renderComparison, type ComparisonPair } from './comparison';
import { createContext, StageTimer, type EngineContext } from './context';
import type { EngineStage, EventSink } from './events';
import { emptyUsage, Meter, outputLimits, usageStageOfPhase, usageStageOfPrompt, type Prices } from './meter';
import { callOptimizer, checkErrorRate } from './optimizer-call';
import { isPauseError, PauseError, stopRequestOf } from './pause';
import { isLlmError, type LlmPort, type RunStore } from './ports';
import type { PromptSet } from './prompts';
import { reflect, type AnalystPatch } from './reflect';
import { rolloutPhase, type PhaseResult } from './rollout';
import { describeEdit } from './select';
import { buildCandidate, gateCandidate } from './candidate';
import { nextPending } from '../core/credit';
import { decideLearningRate } from '../core/learning-rate';
import { commonScoresIfErrored, gateOptions, scoreOnSelection } from './selection';
import { boundBuffer, makeBufferEntry, renderBuffer, renderMetaBlock } from './step-buffer';
import type { EpochStats, RolloutRow, RunDataset, RunState, RunStatus, RunSummary, StageUsage, StepRecord, TestReport } from './types';

export interface TrainInput {
  runId: string;
  config: RunConfig;
  data: RunDataset;
  initialSkill: string;
  prices?: Prices;
}

export interface TrainDeps {
  llm: LlmPort;
  store: RunStore;
  prompts: PromptSet;
  onEvent?: EventSink;
  signal?: AbortSignal;
  now?: () => number;
}

export interface TrainOutcome {
  status: RunStatus;
  reason?: string;
  reasonKind?: string;
  summary?: RunSummary;
}


/** A fresh run's state, before the baseline. */
export function initialRunState(input: TrainInput, now: number): RunState {
  const { totalSteps } = deriveSteps(input.config, input.data.splits.train.length);
  return {
    runId: input.runId,
    status: 'idle',
    config: input.config,
    baselineDone: false,
    nextStep: 1,
    boundaryDoneEpoch: 0,
    finalDone: false,
    gate: { currentSkill: input.initialSkill, currentScore: 0, currentOrigin: 'initial_skill', bestSkill: input.initialSkill, bestScore: 0, bestStep: 0, bestOrigin: 'initial_skill' },
    initialSkill: input.initialSkill,
    epochStartSkill: input.initialSkill,
    schedule: createSchedule(input.config.editBudgetSchedule, input.config.editBudget, input.config.minEditBudget, totalSteps),
    stepBuffer: [],
    metaSkill: '',
    selectionCache: {},
    epochStats: [],
    startedAt: now,
    updatedAt: now,
    elapsedMs: 0,
  };
}

/** Usage so far, rebuilt from what the store holds (so a resumed run counts what it spent). */
async function restoreMeter(meter: Meter, store: RunStore, runId: string): Promise<void> {
  for (const r of await store.listRollouts(runId)) if (!r.cached && r.status === 'ok') meter.add(usageStageOfPhase(r.phase), 'target', r.usage);
  for (const c of await store.listCalls(runId)) meter.add(usageStageOfPrompt(c.stage), c.stage === 'judge' ? 'judge' : 'optimizer', c.usage);
}

function diffUsage(after: Record<string, StageUsage>, before: Record<string, StageUsage>): Record<string, StageUsage> {
  const out: Record<string, StageUsage> = {};
  for (const [k, a] of Object.entries(after)) {
    const b = before[k] ?? emptyUsage();
    if (a.calls === b.calls) continue;
    out[k] = {
      calls: a.calls - b.calls,
      promptTokens: a.promptTokens - b.promptTokens,
      completionTokens: a.completionTokens - b.completionTokens,
      reasoningTokens: a.reasoningTokens - b.reasoningTokens,
      costUsd: a.costUsd - b.costUsd,
    };
  }
  return out;
}

export async function runTraining(input: TrainInput, deps: TrainDeps): Promise<TrainOutcome> {
  const now = deps.now ?? (() => Date.now());
  const emit: EventSink = deps.onEvent ?? (() => {});
  const outer = deps.signal ?? new AbortController().signal;
  // Our own signal: a pause decided inside the run (budget, errors) also stops the calls in flight.
  const inner = new AbortController();
  if (outer.aborted) inner.abort(outer.reason);
  else outer.addEventListener('abort', () => inner.abort(outer.reason), { once: true });
  const signal = inner.signal;
  const config = input.config;
  const meter = new Meter(input.prices ?? {}, config.budget, outputLimits(deps.llm));
  const ctx = await createContext({ runId: input.runId, config, llm: deps.llm, store: deps.store, prompts: deps.prompts, items: input.data.items, meter, signal, emit, now });
  const data = input.data;
  const { stepsPerEpoch, totalSteps } = deriveSteps(config, data.splits.train.length);
  let state = (await deps.store.loadState(input.runId)) ?? initialRunState(input, now());
  await restoreMeter(meter, deps.store, input.runId);
  const sessionStart = now();

  const save = async (s: RunState) => {
    s.updatedAt = now();
    s.elapsedMs += now() - lastSave;
    lastSave = now();
    await deps.store.saveState(s);
  };
  let lastSave = sessionStart;
  const setStatus = async (status: RunStatus, reason?: string, reasonKind?: string) => {
    state.status = status;
    state.reason = reason;
    state.reasonKind = reasonKind;
    await save(state);
    emit({ type: 'status', status, reason, reasonKind });
  };
  const stage = (s: EngineStage, step: number, epoch: number) => emit({ type: 'stage', stage: s, step, epoch, totalSteps });
  const usageEvent = () => emit({ type: 'usage', usage: structuredClone(meter.byStage), totalCostUsd: meter.totalCostUsd });
  const saveVersion = async (text: string, origin: string, step: number) =>
    deps.store.putSkillVersion({ runId: input.runId, hash: await skillHash(text), text, origin, step, createdAt: now() });

  await setStatus('running');
  try {
    if (!state.baselineDone) {
      stage('baseline', 0, 0);
      const sel = await scoreOnSelection(ctx, state, data, 'baseline', state.initialSkill);
      state.gate = { ...state.gate, currentScore: sel.gate, bestScore: sel.gate };
      state.baselineDone = true;
      state.baselineScore = sel.gate;
      emit({ type: 'baseline', score: sel.gate, n: sel.score.n });
      await saveVersion(state.initialSkill, 'initial_skill', 0);
      await save(state);
      emit({ type: 'log', level: 'info', message: `Baseline: ${sel.gate.toFixed(4)} on ${sel.score.n} validation items.` });
      usageEvent();
    }

    for (let epoch = 1; epoch <= config.epochs; epoch++) {
      if (state.boundaryDoneEpoch >= epoch) continue;
      const plan = planEpochBatches(data.splits.train, { epoch, seed: config.seed, batchSize: config.batchSize, accumulation: config.accumulation, stepsPerEpoch });
      for (let s = 0; s < stepsPerEpoch; s++) {
        const step = (epoch - 1) * stepsPerEpoch + s + 1;
        if (step < state.nextStep) continue;
        state = await runStep(ctx, state, data, { step, epoch, stepInEpoch: s, batches: batchesForStep(plan, s, config.accumulation), stage, saveVersion, totalSteps });
        await save(state);
        usageEvent();
      }
      state = await epochBoundary(ctx, state, data, epoch, { stage, saveVersion, lastStep: epoch * stepsPerEpoch });
      await save(state);
      usageEvent();
    }

    if (!state.finalDone) {
      state = await finish(ctx, state, data, { stage, saveVersion, totalSteps, sessionStart });
      await save(state);
      usageEvent();
    }
    await setStatus('completed');
    return { status: 'completed', summary: state.summary };
  } catch (e) {
    const stop = stopRequestOf(outer);
    if (!inner.signal.aborted) inner.abort('stopped');
    if (stop || (isLlmError(e) && e.kind === 'aborted')) {
      const status: RunStatus = stop === 'cancel' ? 'cancelled' : 'paused';
      await setStatus(status, status === 'paused' ? 'Paused by you.' : 'Cancelled by you.', 'user');
      return { status, reason: state.reason, reasonKind: 'user' };
    }
    if (isPauseError(e)) {
      emit({ type: 'log', level: 'warn', message: e.message });
      await setStatus('paused', e.message, e.kind);
      return { status: 'paused', reason: e.message, reasonKind: e.kind };
    }
    const message = e instanceof Error ? e.message : String(e);
    emit({ type: 'log', level: 'error', message });
    await setStatus('failed', `Internal error: ${message}`, 'internal');
    return { status: 'failed', reason: state.reason, reasonKind: 'internal' };
  }
}

interface StepArgs {
  step: number;
  epoch: number;
  stepInEpoch: number;
  batches: { index: number; items: string[]; seed: number }[];
  stage: (s: EngineStage, step: number, epoch: number) => void;
  saveVersion: (text: string, origin: string, step: number) => Promise<void>;
  totalSteps: number;
}

/** One optimisation step (§2.4). Returns the new state; the caller saves it. */
async function runStep(ctx: EngineContext, prev: RunState, data: RunDataset, a: StepArgs): Promise<RunState> {
  const state = structuredClone(prev);
  const c = ctx.config;
  const started = ctx.now();
  const usageBefore = structuredClone(ctx.meter.byStage);
  const timer = new StageTimer(ctx.now);
  const key = stepKey(a.step);
  const current = state.gate.currentSkill;
  const bufferText = renderBuffer(state.stepBuffer, ctx.prompts);
  const metaText = renderMetaBlock(state.metaSkill, ctx.prompts);

  const rows: RolloutRow[] = [];
  const failure: AnalystPatch[] = [];
  const success: AnalystPatch[] = [];
  const summaries: string[] = [];
  const batchStats: StepRecord['batches'] = [];
  for (const [i, batch] of a.batches.entries()) {
    const suffix = a.batches.length > 1 ? `/b${i}` : '';
    a.stage('rollout', a.step, a.epoch);
    const r: PhaseResult = await timer.time('rollout', () => rolloutPhase(ctx, { phase: `${key}/rollout${suffix}`, skill: current, itemIds: batch.items }));
    a.stage('reflect', a.step, a.epoch);
    const refl = await timer.time('reflect', () =>
      reflect(ctx, { keyPrefix: `${key}${suffix}`, rows: r.rows, skill: current, batchSeed: batch.seed, bufferText, metaText }),
    );
    rows.push(...r.rows);
    failure.push(...refl.failure);
    success.push(...refl.success);
    summaries.push(...refl.summaries);
    batchStats.push({ batchIndex: batch.index, batchSeed: batch.seed, nItems: r.rows.length, hard: r.hard, soft: r.soft, failurePatches: refl.failure.length, successPatches: refl.success.length });
  }
  const ok = rows.filter((r) => r.status === 'ok');
  const trainHard = ok.length ? ok.reduce((s, r) => s + r.hard, 0) / ok.length : 0;
  const trainSoft = ok.length ? ok.reduce((s, r) => s + r.soft, 0) / ok.length : 0;

  const record: StepRecord = {
    runId: ctx.runId,
    step: a.step,
    epoch: a.epoch,
    stepInEpoch: a.stepInEpoch,
    rolloutHard: trainHard,
    rolloutSoft: trainSoft,
    rolloutN: ok.length,
    rolloutErrors: rows.length - ok.length,
    batches: batchStats,
    nFailurePatches: failure.length,
    nSuccessPatches: success.length,
    nEditsMerged: 0,
    nEditsRanked: 0,
    editBudget: null,
    candidateHash: null,
    candidateSkillLen: null,
    editApplySummary: null,
    selectionHard: null,
    selectionSoft: null,
    selectionN: null,
    selectionComplete: null,
    selectionCacheHit: false,
    gateMetric: c.gateMetric,
    candidateGateScore: null,
    action: 'skip_no_patches',
    currentScore: state.gate.currentScore,
    bestScore: state.gate.bestScore,
    bestStep: state.gate.bestStep,
    currentOrigin: state.gate.currentOrigin,
    bestOrigin: state.gate.bestOrigin,
    skillLen: current.length,
    timing: timer.timing,
    usage: {},
    wallTimeMs: 0,
  };

  if (failure.length + success.length > 0) {
    a.stage('aggregate', a.step, a.epoch);
    const agg = await timer.time('aggregate', () => aggregate(ctx, key, failure, success, current, metaText));
    await putStepArtifact(ctx, key, 'merged', agg.merged);

    a.stage('select', a.step, a.epoch);
    let budget: number;
    if (c.lrControlMode === 'autonomous') {
      // The optimizer decides the step size; the schedule is not stepped (§3.4).
      const r = await timer.time('select', () =>
        callOptimizer(ctx, `${key}/lr_decision`, 'lr_decision', {
          meta: metaText,
          skill: current,
          n: String(ok.length),
          hard: trainHard.toFixed(6),
          soft: trainSoft.toFixed(6),
          count: String(agg.merged.edits.length),
          items: agg.merged.edits.map(describeEdit).join('\n'),
          buffer: bufferText,
        }),
      );
      checkErrorRate(ctx, 'lr_decision', [r]);
      const d = decideLearningRate(r.json?.learning_rate, agg.merged.edits.length);
      budget = d.learningRate;
      await putStepArtifact(ctx, key, 'lr_decision', { ...d, reasoning: r.json?.reasoning ?? '', confidence: r.json?.confidence ?? '', risk_notes: r.json?.risk_notes ?? [] });
    } else {
      const next = stepSchedule(state.schedule);
      state.schedule = next.state;
      budget = next.budget;
    }
    const cand = await timer.time('select', () =>
      buildCandidate(ctx, { key, current, merged: agg.merged, pending: state.pendingEdits ?? [], budget, metaText, rows }),
    );
    a.stage('update', a.step, a.epoch);
    const candidate = cand.skill;
    const applied = cand.applied;
    await putStepArtifact(ctx, key, 'apply_report', applied.report);

    a.stage('gate', a.step, a.epoch);
    const origin = `step_${stepKey(a.step).slice(1)}`;
    const gated = await timer.time('gate', () => gateCandidate(ctx, state, data, { key, cand, origin, step: a.step }));
    const decision = gated.decision;
    const g = gated.selection;
    const gateScoreValue = g?.gate ?? null;
    await putStepArtifact(ctx, key, 'gate', {
      phase: `${key}/gate`,
      currentHash: await skillHash(current),
      candidateHash: g?.hash ?? (await skillHash(candidate)),
      cacheHit: g?.cacheHit ?? false,
      score: g?.score ?? null,
      gateScore: gateScoreValue,
      mustBeat: c.useGate ? state.gate.currentScore : null,
      action: decision.action,
      skippedByCheck: g === null,
      commonItems: gated.common,
      carried: cand.carried,
      tieBreak: gated.tieBreak ? { accepted: gated.tieBreak.accepted, regressed: gated.tieBreak.val.regressed, fixed: gated.tieBreak.val.improved } : null,
    });
    state.stepBuffer = boundBuffer([
      ...state.stepBuffer,
      makeBufferEntry({ step: a.step, action: decision.action, rows, analystSummaries: summaries, scoreBefore: state.gate.currentScore, scoreAfter: gateScoreValue ?? state.gate.currentScore, edits: cand.edits }),
    ]);
    if (c.carryEdits) {
      const promising = cand.check ? cand.check.improved : g !== null && g.score.complete && g.score.soft > (state.selectionCache[await skillHash(current)]?.soft ?? Infinity);
      state.pendingEdits = nextPending({ accepted: isAccept(decision.action), promising, edits: cand.edits, cap: c.editBudget });
    }
    state.gate = decision.state;
    if (isAccept(decision.action)) await a.saveVersion(candidate, origin, a.step);
    Object.assign(record, {
      nEditsMerged: agg.merged.edits.length,
      nEditsRanked: cand.edits.length,
      editBudget: budget,
      candidateHash: g?.hash ?? null,
      candidateSkillLen: candidate.length,
      editApplySummary: applied.summary,
      selectionHard: g?.score.hard ?? null,
      selectionSoft: g?.score.soft ?? null,
      selectionN: g?.score.n ?? null,
      selectionComplete: g?.score.complete ?? null,
      selectionCacheHit: g?.cacheHit ?? false,
      candidateGateScore: gateScoreValue,
      action: decision.action,
    });
  }
  state.nextStep = a.step + 1;
  Object.assign(record, {
    currentScore: state.gate.currentScore,
    bestScore: state.gate.bestScore,
    bestStep: state.gate.bestStep,
    currentOrigin: state.gate.currentOrigin,
    bestOrigin: state.gate.bestOrigin,
    skillLen: state.gate.currentSkill.length,
    usage: diffUsage(ctx.meter.byStage, usageBefore),
    wallTimeMs: ctx.now() - started,
  });
  await ctx.store.putStep(record);
  ctx.emit({
    type: 'step',
    step: a.step,
    epoch: a.epoch,
    action: record.action,
    candidateScore: record.candidateGateScore,
    currentScore: record.currentScore,
    bestScore: record.bestScore,
    trainHard,
    editBudget: record.editBudget,
  });
  ctx.emit({ type: 'log', level: 'info', message: `Step ${a.step}/${a.totalSteps}: ${record.action}${record.candidateGateScore !== null ? ` (candidate ${record.candidateGateScore.toFixed(4)}${record.selectionComplete === false ? ', stopped early' : ''}, current ${record.currentScore.toFixed(4)})` : ''}.` });
  return state;
}

interface BoundaryArgs {
  stage: (s: EngineStage, step: number, epoch: number) => void;
  saveVersion: (text: string, origin: string, step: number) => Promise<void>;
  lastStep: number;
}

/** The epoch boundary (§2.8): slow update, then meta skill; then a fresh step buffer. */
async function epochBoundary(ctx: EngineContext, prev: RunState, data: RunDataset, epoch: number, a: BoundaryArgs): Promise<RunState> {
  const state = structuredClone(prev);
  const c = ctx.config;
  const tag = epochKey(epoch);
  const steps = (await ctx.store.getSteps(ctx.runId)).filter((s) => s.epoch === epoch);
  const stats: EpochStats = {
    epoch,
    steps: steps.length,
    accepts: steps.filter((s) => isAccept(s.action)).length,
    rejects: steps.filter((s) => s.action === 'reject').length,
    skips: steps.filter((s) => s.action === 'skip_no_patches').length,
    bestScoreAtEnd: 0,
    currentScoreAtEnd: 0,
  };
  const currBefore = state.gate.currentSkill;
  let pairs: ComparisonPair[] | null = null;
  const needPairs = epoch >= 2 && (c.useSlowUpdate || c.useMetaSkill);
  if (needPairs) {
    a.stage('slow_update', a.lastStep, epoch);
    pairs = await comparePrevCurr(ctx, data, epoch, state.epochStartSkill, currBefore);
  }
  const comparison = pairs ? renderComparison(pairs, ctx) : '';
  const [slow, meta] = await Promise.all([
    c.useSlowUpdate && epoch >= 2
      ? callOptimizer(ctx, `${tag}/slow_update`, 'slow_update', {
          prev_skill: state.epochStartSkill,
          curr_skill: currBefore,
          prev_guidance: getSlowUpdateContent(currBefore) || 'There is no previous guidance: this is the first slow update.',
          comparison,
        })
      : null,
    c.useMetaSkill && epoch >= 2
      ? callOptimizer(ctx, `${tag}/meta_skill`, 'meta_skill', {
          prev_skill: state.epochStartSkill,
          curr_skill: currBefore,
          prev_meta: state.metaSkill || 'There is no previous optimizer advice.',
          comparison,
        })
      : null,
  ]);
  if (slow?.error || meta?.error) {
    // A transport failure here is not "no content": stop and retry on resume.
    throw new PauseError('error_rate', `The ${slow?.error ? 'slow update' : 'meta skill'} call failed after retries: ${(slow?.error ?? meta?.error)!.message}`);
  }

  if (c.useSlowUpdate) {
    const origin = epoch === 1 ? 'slow_update_placeholder_epoch_01' : `slow_update_epoch_${epochKey(epoch).slice(1)}`;
    if (epoch === 1) {
      const placed = injectEmptySlowUpdate(currBefore);
      if (placed !== currBefore) {
        // The body is unchanged: carry the score over (marked), so an identical candidate is a cache hit.
        const from = state.selectionCache[await skillHash(currBefore)];
        if (from) state.selectionCache[await skillHash(placed)] = { ...from, carried: true };
        state.gate = { ...state.gate, currentSkill: placed, currentOrigin: origin };
        await a.saveVersion(placed, origin, a.lastStep);
      }
      stats.slowUpdate = { action: 'inject_placeholder' };
    } else {
      const content = typeof slow?.json?.slow_update_content === 'string' ? slow.json.slow_update_content.trim() : '';
      const reasoning = typeof slow?.json?.reasoning === 'string' ? slow.json.reasoning : undefined;
      if (!content) stats.slowUpdate = { action: 'no_content', reasoning };
      else {
        const candidate = replaceSlowUpdateBlock(currBefore, content);
        if (c.slowUpdateGated) {
          a.stage('gate', a.lastStep, epoch);
          const g = await scoreOnSelection(ctx, state, data, `${tag}/gate`, candidate, { mustBeat: c.useGate ? state.gate.currentScore : undefined });
          const common = await commonScoresIfErrored(ctx, state, data, `${tag}/gate`, g, candidate);
          const decision = g.score.complete
            ? evaluateGate(state.gate, { skill: candidate, score: g.gate, origin, step: a.lastStep }, c.useGate, common ?? undefined)
            : { action: 'reject' as const, state: state.gate };
          state.gate = decision.state;
          if (isAccept(decision.action)) await a.saveVersion(candidate, origin, a.lastStep);
          stats.slowUpdate = { action: decision.action, reasoning, content, candidateHash: g.hash, gateScore: g.gate, complete: g.score.complete, cacheHit: g.cacheHit };
        } else {
          // Forced in, but measured: its content changed the skill, so the old score says nothing.
          a.stage('gate', a.lastStep, epoch);
          const g = await scoreOnSelection(ctx, state, data, `${tag}/measure`, candidate, { measured: true });
          state.gate = evaluateGate(state.gate, { skill: candidate, score: g.gate, origin, step: a.lastStep }, false).state;
          await a.saveVersion(candidate, origin, a.lastStep);
          stats.slowUpdate = { action: 'force_inject', reasoning, content, candidateHash: g.hash, gateScore: g.gate, complete: g.score.complete, cacheHit: g.cacheHit };
        }
      }
    }
  }
  if (c.useMetaSkill) {
    if (epoch === 1) stats.metaSkill = { action: 'skip_first_epoch' };
    else {
      const content = typeof meta?.json?.meta_skill_content === 'string' ? meta.json.meta_skill_content.trim() : '';
      // A failed update keeps the last good memory (the reference empties it).
      if (content) state.metaSkill = content;
      stats.metaSkill = content ? { action: 'write_meta_skill', content } : { action: 'no_content', content: state.metaSkill };
    }
  }
  if (pairs) await ctx.store.putArtifact({ runId: ctx.runId, key: `${tag}/pairs`, value: pairs.map((p) => ({ id: p.id, task: p.task, category: p.category, prevHard: p.prev.hard, currHard: p.curr.hard })) });
  stats.bestScoreAtEnd = state.gate.bestScore;
  stats.currentScoreAtEnd = state.gate.currentScore;
  state.epochStats = [...state.epochStats.filter((s) => s.epoch !== epoch), stats];
  state.stepBuffer = [];
  state.epochStartSkill = state.gate.currentSkill;
  state.boundaryDoneEpoch = epoch;
  ctx.emit({ type: 'epoch', epoch, slowUpdate: stats.slowUpdate?.action, metaSkill: stats.metaSkill?.action });
  return state;
}

function testReport(skill: TestReport['skill'], r: PhaseResult, data: RunDataset, items: EngineContext['items']): TestReport {
  const byTaskType: TestReport['byTaskType'] = {};
  for (const row of r.rows) {
    if (row.status !== 'ok') continue;
    const t = items.get(row.itemId)?.taskType ?? 'overall';
    byTaskType[t] ??= { total: 0, hard: 0 };
    byTaskType[t].total++;
    byTaskType[t].hard += row.hard;
  }
  for (const v of Object.values(byTaskType)) v.hard = v.total ? v.hard / v.total : 0;
  void data;
  return { skill, hash: r.skillHash, hard: r.hard, soft: r.soft, n: r.n, errors: r.errors, byTaskType };
}

interface FinishArgs {
  stage: (s: EngineStage, step: number, epoch: number) => void;
  saveVersion: (text: string, origin: string, step: number) => Promise<void>;
  totalSteps: number;
  sessionStart: number;
}

/** End of training (§2.9): final validation and promotion, test evaluation, summary. */
async function finish(ctx: EngineContext, prev: RunState, data: RunDataset, a: FinishArgs): Promise<RunState> {
  const state = structuredClone(prev);
  const c = ctx.config;
  a.stage('final', a.totalSteps, c.epochs);
  let finalSelection: number | null = state.gate.bestScore;
  // The final skill is the best one with an empty slow-update block added: same body, nothing to measure.
  const onlyPlaceholder = injectEmptySlowUpdate(state.gate.bestSkill) === state.gate.currentSkill;
  if (state.gate.currentSkill !== state.gate.bestSkill && !onlyPlaceholder) {
    // Always done (the reference promotes only when evaluating on test), and measured: a score
    // carried over from another skill is never taken as this one's.
    const g = await scoreOnSelection(ctx, state, data, 'final', state.gate.currentSkill, { measured: true });
    finalSelection = g.gate;
    if (g.gate > state.gate.bestScore) {
      state.gate = { ...state.gate, bestSkill: state.gate.currentSkill, bestScore: g.gate, bestStep: a.totalSteps, bestOrigin: state.gate.currentOrigin };
      ctx.emit({ type: 'log', level: 'info', message: `The final skill scores ${g.gate.toFixed(4)} on validation and becomes the best skill.` });
    }
  }
  const tests: TestReport[] = [];
  const testIds = c.testLimit > 0 ? data.splits.test.slice(0, c.testLimit) : data.splits.test;
  if (c.evalTest && testIds.length) {
    a.stage('test', a.totalSteps, c.epochs);
    // One scoring per distinct skill: phases scored side by side would race the rollout cache and
    // score the same skill twice when best is the initial or the final skill.
    const roles = [
      ['best', state.gate.bestSkill],
      ['initial', state.initialSkill],
      ['final', state.gate.currentSkill],
    ] as const;
    const distinct = roles.filter(([, skill], i) => roles.findIndex(([, other]) => other === skill) === i);
    const results = await Promise.all(distinct.map(([role, skill]) => rolloutPhase(ctx, { phase: `test/${role}`, skill, itemIds: testIds })));
    const resultOf = (skill: string) => results[distinct.findIndex(([, other]) => other === skill)];
    for (const role of ['initial', 'best', 'final'] as const) {
      const skill = roles.find(([r]) => r === role)![1];
      tests.push(testReport(role, resultOf(skill), data, ctx.items));
    }
  }
  const steps = await ctx.store.getSteps(ctx.runId);
  const baseline = state.selectionCache[await skillHash(state.initialSkill)];
  const tInit = tests.find((t) => t.skill === 'initial');
  const summary: RunSummary = {
    baselineSelection: baseline ? gateScore(baseline.hard, baseline.soft, gateOptions(c), state.initialSkill) : 0,
    bestSelection: state.gate.bestScore,
    finalSelection,
    bestStep: state.gate.bestStep,
    bestOrigin: state.gate.bestOrigin,
    currentOrigin: state.gate.currentOrigin,
    totalSteps: steps.length,
    accepts: steps.filter((s) => isAccept(s.action)).length,
    rejects: steps.filter((s) => s.action === 'reject').length,
    skips: steps.filter((s) => s.action === 'skip_no_patches').length,
    epochs: state.epochStats,
    tests,
    testDelta: tInit ? tests.find((t) => t.skill === 'best')!.hard - tInit.hard : null,
    finalTestDelta: tInit ? tests.find((t) => t.skill === 'final')!.hard - tInit.hard : null,
    usage: structuredClone(ctx.meter.byStage),
    totalCostUsd: ctx.meter.totalCostUsd,
    wallTimeMs: state.elapsedMs,
  };
  state.summary = summary;
  state.finalDone = true;
  return state;
}
