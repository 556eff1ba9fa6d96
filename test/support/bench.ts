/**
 * `npm run bench` (DESIGN §7): the engine in Node against the test server, run in a separate
 * process with a fixed latency. Prints calls per stage against the core formulas, each step's
 * wall time against its critical-path bound (the train check's and the verdicts' ask-again rounds
 * counted in their own columns), each stage's wall beside ⌈calls / concurrency⌉ × latency (issue #45,
 * bench-stages.ts), the calls saved by early stop and the caches,
 * and the engine's CPU time per 1 000 rollouts — as a table, then as JSON on the last line.
 * Then (issue #22) a 5 000-item evaluation and a training run at concurrency 8, 32 and 128: wall time
 * against calls × latency / concurrency. Options: --json (JSON only), --latency=MS (default 200),
 * --quick (no concurrency or batch table), --items=N (evaluation size, default 5 000). Last, an
 * evaluation sent live and as one batch in each wire shape: answers, HTTP requests, wall, cost.
 */
import '../setup'; // lifts Node's abort-listener warning, as in the tests
import { spawn, type ChildProcess } from 'node:child_process';
import { mergeTreeCalls, reflectCalls, rankCalls } from '../../src/core/config/call-count';
import { createLlmPort } from '../../src/llm/openai-client';
import { MemoryRunStore } from '../../src/storage/memory-store';
import { runTraining } from '../../src/engine/run/trainer';
import { evaluateSkill } from '../../src/engine/run/evaluate';
import { loadPrompts } from './prompts';
import { testEndpoint } from './endpoints';
import { INITIAL_SKILL, SMALL_CONFIG, worldDataset } from './harness';
import { presetPrice } from '../../src/core/config/pricing';
import { STEP_STAGES, TimedStore, stepStages, type StageFigure } from './bench-stages';

export async function startServerProcess(latencyMs: number, harmfulRate = 0.5, batchDelayMs = BATCH_DELAY_MS): Promise<{ url: string; child: ChildProcess }> {
  const child = spawn(process.execPath, ['scripts/run-ts.mjs', 'test/support/dev-mock.ts'], {
    // Half the analysts slip in a harmful rule, so the gate has candidates to stop early on.
    env: { ...process.env, PORT: '0', LATENCY_MS: String(latencyMs), HARMFUL_RATE: String(harmfulRate), BATCH_DELAY_MS: String(batchDelayMs) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d) => {
      out += d;
      const m = /(http:\/\/127\.0\.0\.1:\d+\/v1)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`test server exited with ${code}`)));
  });
  return { url, child };
}

const pad = (n: number) => String(n).padStart(4, '0');

/** The test server's stand-in for a provider's batch turnaround (real ones: minutes to 24 h). */
const BATCH_DELAY_MS = 3_000;

async function trainBench(url: string) {
  const config = { ...SMALL_CONFIG, epochs: 2, batchSize: 24, minibatchSize: 6, mergeBatchSize: 3, targetConcurrency: 8, optimizerConcurrency: 8, slowUpdateSamples: 12 };
  const data = worldDataset(120);
  const store = new TimedStore();
  const llm = createLlmPort(
    { target: testEndpoint(url, 'sim-target', { concurrency: 8 }), optimizer: testEndpoint(url, 'sim-optimizer', { concurrency: 8 }) },
    { backoffBaseMs: 50 },
  );
  const ac = new AbortController();
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcome = await runTraining({ runId: 'bench', config, data, initialSkill: INITIAL_SKILL }, { llm, store, prompts: loadPrompts(), signal: ac.signal });
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  if (outcome.status !== 'completed') throw new Error(`bench run ended ${outcome.status}: ${outcome.reason}`);
  return { config, data, store, outcome, wallMs, cpu };
}

async function measure(url: string, latencyMs: number) {
  // The first run also loads and compiles modules; CPU is measured on an identical second run.
  const { config, data, store, outcome, wallMs } = await trainBench(url);
  const { cpu, store: store2 } = await trainBench(url);
  const rollouts2 = (await store2.listRollouts('bench')).length;

  const rows = await store.listRollouts('bench');
  const calls = await store.listCalls('bench');
  const steps = await store.getSteps('bench');
  const state = (await store.loadState('bench'))!;
  const N = data.splits.val.length;
  const T = data.splits.test.length;
  const real = (phase: (p: string) => boolean) => rows.filter((r) => phase(r.phase) && !r.cached).length;
  const cachedIn = (phase: (p: string) => boolean) => rows.filter((r) => phase(r.phase) && r.cached).length;
  const callsOf = (stage: (s: string) => boolean) => calls.filter((c) => stage(c.stage)).length;

  // Observed calls per stage.
  const observed = {
    baseline: real((p) => p === 'baseline'),
    rollout: real((p) => /^s\d+\/rollout(\/b\d+)?$/.test(p)),
    reflect: callsOf((s) => s.startsWith('reflect_')),
    merge: callsOf((s) => s.startsWith('merge_')),
    rank: callsOf((s) => s === 'rank_edits'),
    gate: real((p) => /^s\d+\/gate$/.test(p)),
    slowUpdateRollout: real((p) => /^e\d+\/(prev|curr)/.test(p)),
    slowUpdate: callsOf((s) => s === 'slow_update'),
    metaSkill: callsOf((s) => s === 'meta_skill'),
    slowUpdateGate: real((p) => /^e\d+\/gate$/.test(p)),
    finalValidation: real((p) => p === 'final'),
    test: real((p) => p.startsWith('test/')),
  };

  // Expected from the core formulas, before any cache hit or early stop.
  const expected = { ...observed };
  const earlyStopSaved: Record<string, number> = { gate: 0, slowUpdateGate: 0 };
  expected.baseline = N;
  expected.rollout = steps.reduce((a, s) => a + s.batches.reduce((b, x) => b + x.nItems, 0) + s.rolloutErrors, 0);
  expected.reflect = 0;
  expected.merge = 0;
  expected.rank = 0;
  expected.gate = 0;
  for (const s of steps) {
    const phase = rows.filter((r) => r.phase === `s${pad(s.step)}/rollout` && r.status === 'ok');
    const f = phase.filter((r) => r.hard < 1e-9).length;
    expected.reflect += reflectCalls(f, phase.length - f, config.minibatchSize);
    expected.merge += mergeTreeCalls(s.nFailurePatches, config.mergeBatchSize) + mergeTreeCalls(s.nSuccessPatches, config.mergeBatchSize) + (s.nFailurePatches && s.nSuccessPatches ? 1 : 0);
    expected.rank += s.editBudget === null ? 0 : rankCalls(s.nEditsMerged, s.editBudget);
    if (s.candidateHash && !s.selectionCacheHit) {
      expected.gate += N;
      if (s.selectionComplete === false) earlyStopSaved.gate += N - rows.filter((r) => r.phase === `s${pad(s.step)}/gate`).length;
    }
  }
  const boundaries = state.epochStats.filter((e) => e.epoch >= 2).length;
  expected.slowUpdateRollout = boundaries * 2 * Math.min(config.slowUpdateSamples, data.splits.train.length);
  expected.slowUpdate = boundaries;
  expected.metaSkill = boundaries;
  expected.slowUpdateGate = 0;
  for (const e of state.epochStats) {
    const su = e.slowUpdate;
    if (!su || su.gateScore === undefined || su.cacheHit) continue;
    expected.slowUpdateGate += N;
    if (su.complete === false) earlyStopSaved.slowUpdateGate += N - rows.filter((r) => r.phase === `e${String(e.epoch).padStart(2, '0')}/gate`).length;
  }
  expected.finalValidation = rows.some((r) => r.phase === 'final') ? N : 0;
  expected.test = T * new Set(rows.filter((r) => r.phase.startsWith('test/')).map((r) => r.phase)).size;

  // Issue #19's repeats, outside the formulas: the noise probe, spot checks and settled verdicts.
  const repeats = { probe: real((p) => p === 'baseline/r1'), spotChecks: real((p) => /^s\d+\/rollout(\/b\d+)?\/r\d+$/.test(p)), verdicts: real((p) => /\/(gate|check)[^/]*\/r\d+$/.test(p)) };
  const cacheHits = rows.filter((r) => r.cached).length;
  const selectionCacheHits = steps.filter((s) => s.selectionCacheHit).length;
  const savedByCache: Record<string, number> = {
    gate: cachedIn((p) => /^s\d+\/gate$/.test(p)),
    slowUpdateRollout: cachedIn((p) => /^e\d+\/(prev|curr)/.test(p)),
    test: cachedIn((p) => p.startsWith('test/')),
    finalValidation: cachedIn((p) => p === 'final'),
    slowUpdateGate: cachedIn((p) => /^e\d+\/gate$/.test(p)),
  };

  // Critical path of each step: its sequential stages, each ⌈calls ÷ concurrency⌉ round trips.
  const conc = 8;
  const waves = (n: number) => Math.ceil(n / conc);
  const levels = (n: number) => {
    let l = 0;
    for (let m = n; m > 1; m = Math.ceil(m / config.mergeBatchSize)) l++;
    return l;
  };
  const stepRows = steps.map((s) => {
    const key = `s${pad(s.step)}`;
    const rollout = real((p) => p === `${key}/rollout`);
    const gate = real((p) => p === `${key}/gate`);
    const reflect = calls.filter((c) => c.key.startsWith(`${key}/reflect_`)).length;
    const mergeRts = Math.max(levels(s.nFailurePatches), levels(s.nSuccessPatches)) + (s.nFailurePatches && s.nSuccessPatches ? 1 : 0);
    const rank = calls.filter((c) => c.key === `${key}/rank_edits`).length;
    const rts = waves(rollout) + waves(reflect) + mergeRts + rank + waves(gate);
    const boundMs = rts * latencyMs;
    // The train check (issue #8) is a stage of its own: its phases (check, re-checks after a repair
    // or a blame) run one after another on the target's slots, which the rollout and gate saturate.
    const checkPhases = new Set(rows.filter((r) => r.phase.startsWith(`${key}/check`) && !r.cached && !/\/r\d+$/.test(r.phase)).map((r) => r.phase));
    const checkRts = [...checkPhases].reduce((a, p) => a + waves(real((q) => q === p)), 0);
    // The verdicts' ask-again rounds (issue #45): each asks every item in doubt at once, and waits
    // for the round before it, whose answers decide what is asked next — a chain the step must wait.
    const verdictRts = (s.verdictRounds ?? []).reduce((a, calls) => a + waves(calls), 0);
    const withCheckMs = (rts + checkRts + verdictRts) * latencyMs;
    const stageTrips = { rollout: waves(rollout), reflect: waves(reflect), merge: mergeRts, rank, check: checkRts, gate: waves(gate), 'verdict rounds': verdictRts };
    const stages = stepStages(store, s, { latencyMs, concurrency: conc, roundTrips: stageTrips });
    return {
      step: s.step,
      action: s.action,
      roundTrips: rts,
      boundMs,
      wallMs: s.wallTimeMs,
      ratio: s.wallTimeMs / boundMs,
      checkRoundTrips: checkRts,
      verdictRounds: s.verdictRounds?.length ?? 0,
      verdictRoundTrips: verdictRts,
      ratioWithCheck: s.wallTimeMs / withCheckMs,
      stages,
    };
  });
  const totalBound = stepRows.reduce((a, s) => a + s.boundMs, 0);
  const totalWall = stepRows.reduce((a, s) => a + s.wallMs, 0);
  const totalCheckOnly = stepRows.reduce((a, s) => a + s.boundMs + s.checkRoundTrips * latencyMs, 0);
  const totalWithCheck = stepRows.reduce((a, s) => a + s.boundMs + (s.checkRoundTrips + s.verdictRoundTrips) * latencyMs, 0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rollouts = rollouts2;
  return {
    latencyMs,
    concurrency: conc,
    dataset: { train: data.splits.train.length, val: N, test: T },
    calls: observed,
    expectedCalls: expected,
    repeats,
    savedByCache,
    earlyStopSaved,
    earlyStopSavedCalls: earlyStopSaved.gate + earlyStopSaved.slowUpdateGate,
    cacheHits,
    selectionCacheHits,
    steps: stepRows,
    criticalPathRatio: totalBound > 0 ? totalWall / totalBound : null,
    criticalPathRatioWithCheck: totalWithCheck > 0 ? totalWall / totalWithCheck : null,
    // As measured before issue #45: the train check's rounds counted, the verdicts' not.
    criticalPathRatioWithoutVerdictRounds: totalCheckOnly > 0 ? totalWall / totalCheckOnly : null,
    stageTotals: stageTotals(stepRows.map((s) => s.stages)),
    maxStepRatio: Math.max(...stepRows.map((s) => s.ratio)),
    runWallMs: wallMs,
    engineCpuMs: cpuMs,
    rollouts,
    cpuMsPer1000Rollouts: (cpuMs / rollouts) * 1000,
    testAccuracy: Object.fromEntries(outcome.summary!.tests.map((t) => [t.skill, t.hard])),
  };
}

/** Each stage's figures summed over the steps, in the order a step runs them. */
function stageTotals(steps: readonly StageFigure[][]): StageFigure[] {
  return STEP_STAGES.map((stage) => {
    const mine = steps.flatMap((s) => s.filter((f) => f.stage === stage));
    const sum = (f: 'calls' | 'idealMs' | 'trips' | 'boundMs' | 'wallMs') => mine.reduce((a, x) => a + x[f], 0);
    return { stage, calls: sum('calls'), idealMs: sum('idealMs'), trips: sum('trips'), boundMs: sum('boundMs'), wallMs: sum('wallMs') };
  }).filter((f) => f.calls > 0 || f.trips > 0 || f.wallMs >= 1);
}

/** Wall time of a wide evaluation and of a training run at several concurrencies (issue #22). */
async function concurrencyBench(url: string, latencyMs: number, items: number) {
  const prompts = loadPrompts();
  const all = worldDataset(items);
  const evalData = { items: all.items, splits: { train: [], val: [], test: all.items.map((i) => i.id) } };
  const rows: { what: string; concurrency: number; calls: number; wallMs: number; idealMs: number; ratio: number }[] = [];
  for (const concurrency of [8, 32, 128]) {
    const llm = () =>
      createLlmPort(
        { target: testEndpoint(url, 'sim-target', { concurrency, timeoutMs: 120_000 }), optimizer: testEndpoint(url, 'sim-optimizer', { concurrency, timeoutMs: 120_000 }) },
        { backoffBaseMs: 50 },
      );
    const config = { ...SMALL_CONFIG, targetConcurrency: concurrency, optimizerConcurrency: concurrency };
    let t0 = performance.now();
    const ev = await evaluateSkill({ skill: INITIAL_SKILL, split: 'test', limit: 0, config, data: evalData }, { llm: llm(), store: new MemoryRunStore(), prompts });
    if (!ev.ok) throw new Error(ev.reason);
    let wallMs = performance.now() - t0;
    rows.push({ what: `evaluation of ${items} items`, concurrency, calls: ev.n + ev.errors, wallMs, idealMs: ((ev.n + ev.errors) * latencyMs) / concurrency, ratio: 0 });
    const data = worldDataset(240);
    const store = new MemoryRunStore();
    t0 = performance.now();
    const run = await runTraining({ runId: 'wide', config: { ...config, batchSize: 48, epochs: 1 }, data, initialSkill: INITIAL_SKILL }, { llm: llm(), store, prompts });
    wallMs = performance.now() - t0;
    if (run.status !== 'completed') throw new Error(`wide run ended ${run.status}`);
    const calls = (await store.listRollouts('wide')).filter((r) => !r.cached).length + (await store.listCalls('wide')).length;
    rows.push({ what: 'training run (240 items, batch 48)', concurrency, calls, wallMs, idealMs: (calls * latencyMs) / concurrency, ratio: 0 });
  }
  for (const r of rows) r.ratio = r.idealMs > 0 ? r.wallMs / r.idealMs : 0;
  return rows;
}

/**
 * Batch against live calls (issue #22 item 4): an evaluation sent item by item at concurrency 32,
 * and as one batch in each wire shape. Cost at gpt-4o-mini's list price, batch lines at half;
 * requests are every HTTP request the client made (uploads, polls and downloads included).
 */
async function batchBench(url: string, items: number) {
  const prompts = loadPrompts();
  const all = worldDataset(items);
  const data = { items: all.items, splits: { train: [], val: [], test: all.items.map((i) => i.id) } };
  const price = presetPrice('gpt-4o-mini')!;
  const rows: { mode: string; answers: number; requests: number; wallMs: number; costUsd: number }[] = [];
  for (const batchApi of [undefined, 'openai', 'openrouter'] as const) {
    let requests = 0;
    const counting: typeof fetch = (input, init) => {
      requests++;
      return fetch(input, init);
    };
    const target = testEndpoint(url, 'sim-target', { concurrency: 32, timeoutMs: 120_000, ...(batchApi ? { batchApi, batchPollMs: 1_000 } : {}) });
    const llm = createLlmPort({ target, optimizer: testEndpoint(url, 'sim-optimizer') }, { backoffBaseMs: 50, fetch: counting });
    const config = { ...SMALL_CONFIG, targetConcurrency: 32 };
    const t0 = performance.now();
    const ev = await evaluateSkill({ skill: INITIAL_SKILL, split: 'test', limit: 0, config, data, prices: { target: price } }, { llm, store: new MemoryRunStore(), prompts });
    if (!ev.ok) throw new Error(ev.reason);
    const mode = batchApi ? `one batch (${batchApi === 'openai' ? 'OpenAI file upload' : 'OpenRouter inline'})` : 'live calls, concurrency 32';
    rows.push({ mode, answers: ev.n + ev.errors, requests, wallMs: performance.now() - t0, costUsd: ev.costUsd });
  }
  return rows;
}

export async function main(argv: string[]): Promise<number> {
  const jsonOnly = argv.includes('--json');
  const latencyMs = Number(argv.find((a) => a.startsWith('--latency='))?.split('=')[1] ?? 200);
  const { url, child } = await startServerProcess(latencyMs);
  try {
    const quick = argv.includes('--quick');
    const items = Number(argv.find((a) => a.startsWith('--items='))?.split('=')[1] ?? 5_000);
    const r = {
      ...(await measure(url, latencyMs)),
      concurrencyTable: quick ? [] : await concurrencyBench(url, latencyMs, items),
      batchTable: quick ? [] : await batchBench(url, Math.min(items, 2_000)),
    };
    if (!jsonOnly) {
      const log = console.log;
      log(`Skillwright benchmark — test server latency ${latencyMs} ms, concurrency ${r.concurrency}, dataset ${r.dataset.train}/${r.dataset.val}/${r.dataset.test}`);
      log('\nCalls per stage (observed + saved by cache + saved by early stop = formula):');
      log('stage               observed  cache  early   formula  ok');
      for (const stage of Object.keys(r.calls) as (keyof typeof r.calls)[]) {
        const saved = r.savedByCache[stage] ?? 0;
        const early = r.earlyStopSaved[stage] ?? 0;
        const ok = r.calls[stage] + saved + early === r.expectedCalls[stage];
        log(`${stage.padEnd(19)} ${String(r.calls[stage]).padStart(8)} ${String(saved).padStart(6)} ${String(early).padStart(6)} ${String(r.expectedCalls[stage]).padStart(9)}  ${ok ? 'yes' : 'NO'}`);
      }
      log('\nStep wall time against the critical-path bound (verdict trips: the ask-again rounds, ⌈calls / concurrency⌉ each):');
      log('step  action            round trips   bound ms   wall ms   ratio   + check trips   + verdict rounds (trips)   ratio');
      for (const s of r.steps) log(`${String(s.step).padStart(4)}  ${s.action.padEnd(17)} ${String(s.roundTrips).padStart(11)} ${String(s.boundMs).padStart(10)} ${String(Math.round(s.wallMs)).padStart(9)}   ${s.ratio.toFixed(3)}   ${String(s.checkRoundTrips).padStart(13)}   ${`${s.verdictRounds} (${s.verdictRoundTrips})`.padStart(24)}   ${s.ratioWithCheck.toFixed(3)}`);
      if (r.criticalPathRatio !== null) log(`\nCritical-path ratio (all steps): ${r.criticalPathRatio.toFixed(3)} (target ≤ 1.15), worst step ${r.maxStepRatio.toFixed(3)}; counting the train check's and the verdicts' own round trips: ${r.criticalPathRatioWithCheck!.toFixed(3)} (the check's alone: ${r.criticalPathRatioWithoutVerdictRounds!.toFixed(3)})`);
      log(`\nWhere the steps' wall goes (issue #45), summed over the ${r.steps.length} steps: each stretch of a step's wall goes to the stage whose answer ended it`);
      log('(bound: the stage\'s round trips in the bound above — a merge tree\'s levels, each check phase, each verdict round)');
      log('stage             calls   ⌈calls/conc⌉×latency ms   bound ms    wall ms   over bound ms');
      for (const f of r.stageTotals) log(`${f.stage.padEnd(15)} ${String(f.calls).padStart(7)} ${String(f.idealMs).padStart(24)} ${String(f.boundMs).padStart(10)} ${String(Math.round(f.wallMs)).padStart(10)} ${String(Math.round(f.wallMs - f.boundMs)).padStart(15)}`);
      log(`Early stop saved ${r.earlyStopSavedCalls} target calls; rollout cache hits ${r.cacheHits}; selection cache hits ${r.selectionCacheHits}`);
      log(`Repeats (issue #19): noise probe ${r.repeats.probe}, spot checks ${r.repeats.spotChecks}, settled verdicts ${r.repeats.verdicts} target calls`);
      log(`Engine CPU: ${Math.round(r.engineCpuMs)} ms for ${r.rollouts} rollouts = ${r.cpuMsPer1000Rollouts.toFixed(1)} ms per 1 000 rollouts (run wall time ${(r.runWallMs / 1000).toFixed(1)} s)`);
      log(`Test accuracy: ${JSON.stringify(r.testAccuracy)}`);
      if (r.concurrencyTable.length) {
        log('\nWide concurrency (issue #22): wall time against calls × latency / concurrency');
        log('what                                concurrency    calls    wall s   ideal s   ratio');
        for (const c of r.concurrencyTable) log(`${c.what.padEnd(36)} ${String(c.concurrency).padStart(11)} ${String(c.calls).padStart(8)} ${(c.wallMs / 1000).toFixed(1).padStart(9)} ${(c.idealMs / 1000).toFixed(1).padStart(9)}   ${c.ratio.toFixed(2)}`);
      }
      if (r.batchTable.length) {
        log(`\nBatch against live (issue #22): an evaluation of ${r.batchTable[0].answers} items; the server finishes a batch after ${BATCH_DELAY_MS / 1000} s (providers: minutes to 24 h)`);
        log('mode                                   answers  requests    wall s   cost $ (gpt-4o-mini)');
        for (const b of r.batchTable) log(`${b.mode.padEnd(38)} ${String(b.answers).padStart(8)} ${String(b.requests).padStart(9)} ${(b.wallMs / 1000).toFixed(1).padStart(9)}   ${b.costUsd.toFixed(4)}`);
      }
    }
    console.log(JSON.stringify(r));
    const formulasHold = (Object.keys(r.calls) as (keyof typeof r.calls)[]).every(
      (s) => r.calls[s] + (r.savedByCache[s] ?? 0) + (r.earlyStopSaved[s] ?? 0) === r.expectedCalls[s],
    );
    return formulasHold ? 0 : 1;
  } finally {
    child.kill();
  }
}
