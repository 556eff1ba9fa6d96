// The Train screen in Chromium: a whole training from Connect to the exported skill, resume after
// a reload, service tiers and the batch API, the budget cap, one run at a time, staying with a run,
// a newcomer's first view and presets, the in-page simulation, and steering before the gate.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { makeWorldItems } from '../support/rule-world';
import { launchBrowser } from './support/chromium';
import { traceMainThread } from './support/main-thread';
import { connect, knob, readRuns, setKnobs, uploadDataset, useDataset, waitForStatus, waitForStatusQuietly } from './support/app';
import { appSession, appUrl, KNOBS, recordFigures, shootTrain, skip, trainFirstView, WORLD } from './support/session';

describe.skipIf(Boolean(skip))('training in Chromium', () => {
  let srv: LlmTestServer;
  const app = appSession(() => [srv], { quiet: true });
  let page: Page;
  let ctx: BrowserContext;
  beforeAll(() => {
    ({ page, ctx } = app);
  });

  const figures: Record<string, unknown> = {};
  let firstBest = '';
  let firstTests: unknown;
  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 20 });
  });
  afterAll(async () => {
    recordFigures(figures);
    await srv?.close();
  });

  it('happy path: connect, load data, edit the skill, train, inspect, export the best skill', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    // The key went to the worker once; the page keeps no copy and says the key is held.
    expect(await page.getByLabel('Target API key').inputValue()).toBe('');
    expect(await page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    await page.screenshot({ path: 'test-results/connect-light.png', fullPage: true });

    await uploadDataset(page, 'world.json', WORLD);
    await useDataset(page, [2, 1, 2]);
    await page.screenshot({ path: 'test-results/data-light.png', fullPage: true });

    await page.getByRole('link', { name: 'Skill' }).click();
    const editor = page.locator('.monaco-editor textarea');
    await editor.waitFor({ timeout: 20_000 });
    await page.locator('.monaco-editor .view-lines').click();
    await page.keyboard.press('Control+End');
    await page.keyboard.type('\nAnswer with the specimen code only.');
    await page.getByText(/characters · about \d+ tokens/).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill)).toContain('Answer with the specimen code only.');
    await page.getByRole('button', { name: 'Evaluate skill' }).click();
    await page.getByText(/% correct \(.*\) on 20 items/).waitFor({ timeout: 30_000 });
    await page.screenshot({ path: 'test-results/skill-light.png', fullPage: true });
    // Choosing the test split before training ends is warned about; nothing is looked at until asked.
    await page.getByLabel('Evaluation split').selectOption('test');
    const testWarning = page.getByRole('note').filter({ hasText: 'The test split is for the end of training' });
    await testWarning.waitFor();
    expect(await testWarning.innerText()).not.toMatch(/looked at/);
    await page.getByLabel('Evaluation split').selectOption('val');
    expect(await testWarning.count()).toBe(0);

    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('radio', { name: 'Standard' }).check();
    await setKnobs(page, KNOBS);
    await page.getByTestId('estimate-line').waitFor();
    await page.evaluate(() => {
      const w = window as unknown as { __longtasks: unknown[]; __longframes: unknown[] };
      w.__longtasks.length = 0;
      w.__longframes.length = 0;
    });
    const started = Date.now();
    let trace = await traceMainThread(ctx, page);
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('.steps li') !== null, null, { polling: 100, timeout: 60_000 });
    figures.startToFirstChartPointMs = Date.now() - started;
    // A full-page screenshot relayouts the page at another size: its own work is not the app's.
    const tasks = await trace.stop();
    const shotFrom = await page.evaluate(() => performance.now());
    await page.screenshot({ path: 'test-results/train-running-light.png', fullPage: true });
    // The page is laid out again at its own size in the frames after the screenshot: still the screenshot's work.
    const shotTo = await page.evaluate(
      () => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
    );
    trace = await traceMainThread(ctx, page);
    await waitForStatusQuietly(page, 'Completed');
    tasks.push(...(await trace.stop()));
    // Recorded before the checks below: the tests after this one compare their runs with it.
    const [run] = await readRuns(page);
    firstBest = run.state!.gate.bestSkill;
    firstTests = run.state!.summary!.tests.map((t) => [t.skill, t.hard]);
    const outsideShot = (t: { start: number; duration: number }) => t.start + t.duration < shotFrom || t.start > shotTo;
    const longtasks = (await page.evaluate(() => (window as unknown as { __longtasks: { start: number; duration: number }[] }).__longtasks))
      .filter(outsideShot)
      .map((t) => t.duration);
    figures.longFrameScripts = (await page.evaluate(() => (window as unknown as { __longframes: { start: number; duration: number; scripts: string[] }[] }).__longframes))
      .filter((t) => t.duration > 50 && outsideShot(t))
      .map((t) => `${Math.round(t.duration)}ms: ${t.scripts.join('; ') || '(no script: style, layout or paint)'}`);
    figures.longestTaskDuringRunMs = Math.max(0, ...longtasks);
    figures.longTaskDurations = longtasks.map(Math.round);
    figures.longTasksDuringRun = longtasks.length;
    // The main thread stays free while the worker trains: no task of the page's takes 50 ms of CPU. Asserted on
    // the thread's own time: the wall time above also holds waits for a core, which other processes on two
    // cores stretch past 50 ms (75–89 ms seen in CI around an 8 ms script).
    figures.longestTaskCpuDuringRunMs = Math.round(Math.max(0, ...tasks.map((t) => t.cpuMs)));
    figures.longestTaskWallInTraceMs = Math.round(Math.max(0, ...tasks.map((t) => t.wallMs)));
    expect(figures.longestTaskCpuDuringRunMs).toBeLessThanOrEqual(50);
    expect(await page.locator('.chart circle').count()).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/train-done-light.png', fullPage: true });
    await page.screenshot({ path: 'test-results/readme-train.png' });

    expect(firstBest).toContain('Answer with the specimen code only.');

    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    // The lift card: no skill, the starting skill and the best one on the held-out test items.
    const lift = page.locator('section.card', { has: page.getByRole('heading', { name: 'Lift on the test split' }) });
    const pctOf = (skill: string) => `${(((firstTests as [string, number][]).find(([s]) => s === skill)![1]) * 100).toFixed(1)}%`;
    const liftText = await lift.innerText();
    for (const [label, skill] of [['No skill', 'none'], ['Starting skill', 'initial'], ['Best skill (exported)', 'best']]) expect(liftText).toContain(`${label}\n${pctOf(skill)}`);
    // Each lift with its interval (issue #19); a deterministic target: the interval is over which test items were drawn.
    expect(liftText).toMatch(/Over the starting skill \(training\): \+\d+\.\d points, 95% interval [+−]\d+\.\d points to \+\d+\.\d points/);
    expect(liftText).toMatch(/Over no skill \(the skill as a whole\): \+\d+\.\d points, 95% interval/);
    expect(liftText).toMatch(/On \d+ held-out test items\. .*the target gave the same answer whenever it was asked again\./s);
    await lift.screenshot({ path: 'test-results/runs-lift-card.png' });
    await page.getByRole('button', { name: 'Inspect step 1' }).click();
    await page.getByText(/^Step 1 — /).waitFor();
    await page.getByRole('region', { name: 'Rollouts of this step' }).waitFor();
    await page.getByRole('button', { name: /^fail \(\d+\)$/ }).click();
    await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: 'test-results/runs-light.png', fullPage: true });

    // The HTML report: one file that opens in the browser on its own, with no script.
    const reportDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export report' }).click();
    const report = await reportDownload;
    expect(report.suggestedFilename()).toMatch(/-report\.html$/);
    const reportPath = join(process.cwd(), 'test-results', 'run-report.html');
    await report.saveAs(reportPath);
    expect(readFileSync(reportPath, 'utf8')).not.toMatch(/<script/i);
    const reportPage = await ctx.newPage();
    await reportPage.goto(`file://${reportPath}`);
    await reportPage.getByRole('heading', { name: 'Accepted edits' }).waitFor();
    expect(await reportPage.locator('svg circle.accept').count()).toBeGreaterThan(0);
    await reportPage.screenshot({ path: 'test-results/run-report.png', fullPage: true });
    await reportPage.close();

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export best skill' }).click();
    const file = await (await download).path();
    expect(readFileSync(file, 'utf8')).toBe(firstBest);
  }, 180_000);

  it('resumes after a reload in the middle of a run, with the same result as an uninterrupted run', async () => {
    srv.set({ latencyMs: 60 });
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Running[\s\S]*step [1-3]\/4/, 60_000);
    await page.reload();
    await waitForStatus(page, 'Interrupted');
    srv.set({ latencyMs: 20 });
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('button', { name: 'Resume' }).click();
    // After a reload the key is gone (it was not remembered): the app asks for it.
    await page.getByRole('alert').filter({ hasText: 'Enter the API keys again' }).waitFor();
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('button', { name: 'Resume' }).click();
    await waitForStatus(page, 'Completed');
    const runs = await readRuns(page);
    const resumed = runs.find((r) => r.state?.gate.bestSkill && r.state.summary && r.state.gate.bestSkill === firstBest && r.id !== runs[0]?.id) ?? runs.sort((a, b) => (a.id < b.id ? 1 : -1))[0];
    expect(runs).toHaveLength(2);
    for (const r of runs) {
      expect(r.status).toBe('completed');
      expect(r.state!.gate.bestSkill).toBe(firstBest);
      expect(r.state!.summary!.tests.map((t) => [t.skill, t.hard])).toEqual(firstTests);
    }
    void resumed;
  }, 180_000);

  it('a service tier per role and the target’s batch API: flex on the target’s live calls only, one-shot phases as batches, the estimate shows the saving (issue #22)', async () => {
    await page.getByRole('link', { name: 'Connect' }).click();
    // Both roles on the test server at 127.0.0.1: Connect advises a strong optimizer (issue #23).
    await page.getByRole('note').filter({ hasText: 'Both roles run on your own machine' }).waitFor();
    await page.getByText('Options: sampling, limits, prices').click();
    await page.getByLabel('Target service tier').selectOption('flex');
    await page.getByText('About half price, slower').waitFor();
    // One reasoning effort per role (issue #21): choosing the optimizer's leaves the target's.
    await page.getByLabel('Optimizer reasoning effort').selectOption('high');
    const efforts = () => page.evaluate(() => {
      const c = JSON.parse(localStorage.getItem('skillwright-ui')!).state.connection;
      return [c.target.reasoningEffort ?? '', c.optimizer.reasoningEffort ?? ''];
    });
    await expect.poll(efforts).toEqual(['', 'high']);
    await page.getByLabel('Optimizer reasoning effort').selectOption('');
    await page.getByLabel('Target batch API').selectOption('openai');
    await page.getByText(/baseline, final validation and test go out as batches/).waitFor();
    await page.locator('details.options').screenshot({ path: 'test-results/connect-service-tier.png' });
    // At list prices (a model Connect knows), the Train estimate says what flex saves.
    await page.getByLabel('Target model').fill('gpt-4o-mini');
    await page.getByLabel('Optimizer model').fill('gpt-4o');
    await page.getByRole('link', { name: 'Train' }).click();
    const saving = page.getByText(/Service tiers and the batch API \(Connect\) save about \$\d+\.\d\d of \$\d+\.\d\d at list prices/);
    await saving.waitFor();
    await saving.locator('xpath=ancestor::*[contains(@class,"card")][1]').screenshot({ path: 'test-results/train-estimate-flex.png' });
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByLabel('Target model').fill('sim-target');
    await page.getByLabel('Optimizer model').fill('sim-optimizer');
    srv.log.length = 0;
    await page.getByRole('link', { name: 'Train' }).click();
    const before = (await readRuns(page)).length;
    await page.getByRole('button', { name: 'Start training' }).click();
    // The previous run's "Completed" is still shown at first: wait for the new run's record.
    const finished = async () => {
      const runs = await readRuns(page);
      return runs.length > before && runs.every((r) => r.status !== 'running' && r.status !== 'idle');
    };
    await expect.poll(finished, { timeout: 90_000 }).toBe(true);
    const target = srv.log.filter((l) => l.stage === 'target' && !l.viaBatch);
    expect(target.length).toBeGreaterThan(0);
    expect(target.every((l) => l.serviceTier === 'flex')).toBe(true);
    // Baseline, final validation and test went out as batches from the page (OpenAI's file upload).
    expect(srv.batches.length).toBeGreaterThanOrEqual(3);
    expect(srv.log.filter((l) => l.viaBatch).every((l) => l.stage === 'target' && l.serviceTier === undefined)).toBe(true);
    expect(srv.log.filter((l) => l.stage !== 'target').every((l) => l.serviceTier === undefined)).toBe(true);
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByText('Options: sampling, limits, prices').click();
    await page.getByLabel('Target service tier').selectOption('');
    await page.getByLabel('Target batch API').selectOption('');
    await page.getByRole('link', { name: 'Train' }).click(); // leaves Connect with its options closed
  }, 120_000);

  it('pauses at the budget cap and says so', async () => {
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByText('Options: sampling, limits, prices').click();
    await page.getByLabel('Optimizer is a reasoning model').waitFor();
    await page.screenshot({ path: 'test-results/connect-options-light.png', fullPage: true });
    for (const label of ['Target input price (USD / 1M tokens)', 'Target output price (USD / 1M tokens)', 'Optimizer input price (USD / 1M tokens)', 'Optimizer output price (USD / 1M tokens)']) {
      await page.getByLabel(label).fill('1000');
    }
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByLabel('Budget cap (USD)', { exact: true }).fill('5');
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Paused');
    await page.getByRole('alert').filter({ hasText: /budget cap of \$5\.00/ }).first().waitFor();
    await page.getByLabel('Budget cap (USD)', { exact: true }).fill('');
  }, 120_000);

  it('runs one run at a time in a tab: resuming another while one runs is refused, and its dashboard stays (issue #20 item 3)', async () => {
    srv.set({ latencyMs: 150 });
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Running/, 60_000);
    // While a run runs its settings fold to one line and the dashboard takes the screen (issue #33).
    expect(await page.getByTestId('settings-line').innerText()).toMatch(/^Settings: (Standard|Custom \(based on Standard\): Epochs 2 · )/);
    expect(await page.getByRole('radio', { name: 'Standard' }).isVisible()).toBe(false);
    expect(await page.getByLabel('Epochs', { exact: true }).isVisible()).toBe(false);
    await page.getByRole('region', { name: 'Training progress' }).waitFor();
    await shootTrain(page, 'running');
    const running = (await readRuns(page)).find((r) => r.status === 'running')!;
    await page.getByRole('link', { name: 'Runs' }).click();
    const paused = page.locator('tr').filter({ has: page.locator('.badge.status-paused') }).first();
    await paused.getByRole('button').click();
    await page.getByRole('button', { name: /^Resume/ }).click();
    await page.getByRole('alert').filter({ hasText: 'Another run is running in this tab' }).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await waitForStatus(page, /Running/);
    await page.getByRole('button', { name: 'Pause' }).click();
    await waitForStatus(page, 'Paused');
    expect((await readRuns(page)).find((r) => r.id === running.id)!.status).toBe('paused');
    srv.set({ latencyMs: 20 });
  }, 120_000);
});

describe.skipIf(Boolean(skip))('staying with a run in Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  let srv: LlmTestServer;
  beforeAll(async () => {
    srv = await startLlmServer({});
    ctx = await launchBrowser();
    await ctx.grantPermissions(['notifications'], { origin: new URL(appUrl).origin });
    page = await ctx.newPage();
    // Headless Chromium shows nothing: record what the page asks of the browser, and pass it on.
    await page.addInitScript(() => {
      const w = window as unknown as { __notes: string[]; __locks: string[] };
      w.__notes = [];
      w.__locks = [];
      const Real = window.Notification;
      window.Notification = class extends Real {
        constructor(title: string, opts?: NotificationOptions) {
          super(title, opts);
          w.__notes.push(`${title}: ${opts?.body ?? ''}`);
        }
      } as typeof Notification;
      const lock = navigator.wakeLock;
      if (lock) {
        const request = lock.request.bind(lock);
        lock.request = async (type?: 'screen') => {
          w.__locks.push('request');
          const s = await request(type);
          s.addEventListener('release', () => w.__locks.push('release'));
          return s;
        };
      }
    });
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
  });

  it('keeps the screen awake while running and notifies when the run ends', async () => {
    await connect(page, srv.url, 'sk-e2e-key');
    await uploadDataset(page, 'world.json', JSON.stringify(makeWorldItems(60)));
    await useDataset(page, [2, 1, 1]);
    await page.getByRole('link', { name: 'Train' }).click();
    await setKnobs(page, { ...KNOBS, Epochs: '1' });
    expect(await page.getByLabel('Keep the screen awake during a run').isChecked()).toBe(true);
    await page.getByText(/^While a run runs/).click();
    await page.getByLabel('Notify me when a run ends').check();
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    const seen = await page.evaluate(() => {
      const w = window as unknown as { __notes: string[]; __locks: string[] };
      return { __notes: w.__notes, __locks: w.__locks };
    });
    expect(seen.__notes).toEqual([expect.stringMatching(/^Skillwright: The run completed\. Best validation \d+\.\d%\.$/)]);
    // Headless Chromium may refuse a screen lock (no display): then it was asked for once, not on every event;
    // when it grants one, it is given back at the end.
    expect([['request'], ['request', 'release']]).toContainEqual(seen.__locks);
    await page.screenshot({ path: 'test-results/train-run-along-light.png' });
  }, 120_000);
});

describe.skipIf(Boolean(skip))('the Train screen in the zero-key demo', () => {
  const app = appSession(() => []);
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  const requests: string[] = [];
  beforeAll(() => {
    page.on('request', (r) => requests.push(r.url()));
  });

  it('a newcomer’s Train screen: presets by situation, six settings on screen and the rest folded, the estimate in one line, Start training in view (issue #33)', async () => {
    // Opened fresh at 1280×800, before any dataset; then with the demo's dataset and its estimate.
    await page.goto(`${appUrl}#/train`);
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    const fresh = await trainFirstView(page);
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Try without a key' }).click();
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    const estimate = page.getByTestId('estimate-line');
    await estimate.waitFor();
    const demo = await trainFirstView(page);
    writeFileSync('test-results/train-first-view.json', JSON.stringify({ fresh, demo }, null, 2));
    for (const seen of [fresh, demo]) {
      expect(seen.controls).toBeLessThanOrEqual(12);
      expect(seen.startInView).toBe(true);
      expect(seen.viewports).toBeLessThanOrEqual(2);
    }
    // Calls, tokens, cost and time in one line, from a run that finds nothing to change to the upper bound.
    expect(await estimate.innerText()).toMatch(/^[\d,]+–[\d,]+ calls · [\d.]+K–[\d.]+K tokens · cost unknown \(no price for a role: set it on Connect\) · about \d+(–\d+)? s$/);
    expect(await page.getByRole('table').filter({ hasText: 'Rollouts (train)' }).isVisible()).toBe(false);
    // What validation can tell apart, beside the batch size it depends on.
    expect(await page.getByRole('note', { name: 'What validation can tell apart' }).innerText()).toMatch(/^20 validation items: one item is 5\.0 points\./);
    await shootTrain(page, 'before');

    // The demo's settings are Standard's with a few changed; a preset sets its knobs and says which.
    const inUse = page.getByLabel('Preset in use');
    expect(await inUse.innerText()).toBe('Custom (based on Standard)');
    await page.getByRole('radio', { name: 'Quick look' }).check();
    expect(await inUse.innerText()).toBe('Quick look');
    await page.getByText('Quick look sets Epochs 1 · Repair rounds 1 · Noise probe 8 · Score no skill on test off').waitFor();
    expect(await page.getByLabel('Epochs', { exact: true }).inputValue()).toBe('1');
    // The user's own settings stay (the demo's concurrency); each folded section counts its changed settings.
    expect(await page.getByLabel('Target concurrency').inputValue()).toBe('4');
    const section = (title: string) => page.locator('details.knob-section > summary').filter({ hasText: title });
    expect(await section('Noisy targets and the test').innerText()).toMatch(/12 settings\s*2 changed/);
    expect(await section('Calls and budget').innerText()).toMatch(/3 settings\s*2 changed/);
    await page.getByLabel('Epochs', { exact: true }).fill('3');
    expect(await inUse.innerText()).toBe('Custom (based on Quick look)');
    await page.getByText('Changed since Quick look: Epochs. Pick a preset to start from it again.').waitFor();
    await (await knob(page, 'Repair rounds')).fill('2');
    expect(await section('Safeguards').innerText()).toMatch(/^▸?\s*Safeguards\s*10 settings$/);
    // The search finds a folded setting by its help, and only it.
    await page.getByLabel('Find a setting').fill('winner’s curse');
    expect(await page.getByLabel('Re-check a new best').isVisible()).toBe(true);
    expect(await page.getByLabel('Epochs', { exact: true }).count()).toBe(0);
    await page.getByLabel('Find a setting').fill('no such setting');
    await page.getByText('No setting matches “no such setting”.').waitFor();
    await page.getByLabel('Find a setting').fill('');
    await page.getByRole('radio', { name: 'Standard' }).check();
    expect(await inUse.innerText()).toBe('Standard');
  }, 60_000);

  it('trains on a simulated model in the page, labelled as a simulation, with no request leaving it', async () => {
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Try without a key' }).click();
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    const banner = page.getByRole('note').filter({ hasText: 'Simulation.' });
    await banner.waitFor();
    expect(await banner.innerText()).toMatch(/not a real LLM/);
    await page.getByText(/Demo: specimen codes \(simulated\): 40 train, 20 validation, 40 test items/).waitFor();
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, /Completed/);
    await page.getByText(/^Done: the best skill scored/).waitFor();
    await page.screenshot({ path: 'test-results/demo-train-light.png', fullPage: true });
    await shootTrain(page, 'after');
    const [run] = await readRuns(page);
    expect(run.state!.gate.bestScore).toBeGreaterThan(0.5);
    // The demo trains the description too (the activation track), on its simulated trigger queries.
    expect(run.state!.activation!.epochs).toHaveLength(2);
    expect(run.state!.activation!.description).not.toBe(run.state!.activation!.initialDescription);
    // Steering: the optimizer turns feedback into edits, shown as a diff, taken only on request.
    await page.getByRole('link', { name: 'Skill' }).click();
    const skillBefore = await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill as string);
    await page.getByLabel('Your feedback').fill('Answers carry extra words.\n- Give the code alone, nothing else.');
    await page.getByRole('button', { name: 'Improve with my feedback' }).click();
    await page.getByText(/^1 of 1 proposed edit applied\./).waitFor();
    expect(await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill as string)).toBe(skillBefore);
    await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: 'test-results/skill-feedback-light.png', fullPage: true });
    await page.getByRole('button', { name: 'Use this version' }).click();
    const skillAfter = await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill as string);
    expect(skillAfter).toContain('- Give the code alone, nothing else.');
    expect(skillAfter.startsWith(skillBefore.trimEnd())).toBe(true);
    expect(requests.filter((u) => !u.startsWith(appUrl) && !u.startsWith('data:') && !u.startsWith('blob:'))).toEqual([]);
  }, 120_000);
});

// Its own page: steering pauses the run and reloads it. On the page the demo's trainings had used, the
// Connect screen's "Try without a key" did not show within 30 s in a busy CI run (cause not seen).
describe.skipIf(Boolean(skip))('steering the zero-key demo', () => {
  const app = appSession(() => []);
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('steering: each step waits for approval before the gate, the pause survives a reload, and only approved edits are gated', async () => {
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByRole('button', { name: 'Try without a key' }).click();
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    await (await knob(page, 'Review edits before the gate')).check();
    await page.getByRole('button', { name: 'Start training' }).click();
    const panel = (step: number) => page.locator('section.card').filter({ has: page.getByRole('heading', { name: `Review step ${step} before the gate` }) });
    await panel(1).waitFor({ timeout: 30_000 });
    const boxes = panel(1).getByRole('list', { name: 'Proposed changes' }).getByRole('checkbox');
    const n = await boxes.count();
    expect(n).toBeGreaterThan(1);
    await boxes.nth(n - 1).uncheck();
    await panel(1).getByText(`${n - 1} of ${n} approved.`).waitFor();
    await panel(1).getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    await page.screenshot({ path: 'test-results/train-review-light.png', fullPage: true });
    await panel(1).getByRole('button', { name: 'Gate the approved changes and continue' }).click();
    await panel(2).waitFor({ timeout: 30_000 });
    const runs = await readRuns(page);
    const reviewed = runs.find((r) => r.status === 'paused')!;
    const step1 = await page.evaluate(
      (runId) =>
        new Promise<unknown>((resolve) => {
          const open = indexedDB.open('skillwright');
          open.onsuccess = () => {
            const req = open.result.transaction('artifacts').objectStore('artifacts').get([runId, 's0001/candidate_edits']);
            req.onsuccess = () => resolve(req.result?.value);
          };
        }),
      reviewed.id,
    );
    expect(step1).toHaveLength(n - 1);
    // A reload: the run still waits for the review of step 2.
    await page.reload();
    await page.getByRole('link', { name: 'Train' }).click();
    await panel(2).waitFor({ timeout: 20_000 });
    // The worker supplies the demo's own key after a reload too: veto step 2 and approve the rest.
    await panel(2).getByRole('button', { name: 'Veto all and continue' }).click();
    // Approve the rest as proposed until the run completes.
    const next = async () => ((await readRuns(page)).find((r) => r.id === reviewed.id)?.status === 'completed' ? 'done' : (await page.getByRole('button', { name: 'Gate the approved changes and continue' }).count()) ? 'review' : 'busy');
    for (;;) {
      await expect.poll(next, { timeout: 30_000 }).not.toBe('busy');
      if ((await next()) === 'done') break;
      await page.getByRole('button', { name: 'Gate the approved changes and continue' }).click();
      await expect.poll(() => page.getByRole('button', { name: 'Gate the approved changes and continue' }).count(), { timeout: 30_000 }).toBe(0);
    }
    const done = (await readRuns(page)).find((r) => r.id === reviewed.id)!;
    expect(done.status).toBe('completed');
    await (await knob(page, 'Review edits before the gate')).uncheck();
  }, 180_000);
});

// Issue #39 "Also": Standard read as Custom when it was chosen before the dataset's size reached the
// Train screen, because the defaults it is measured against follow the dataset. A preset follows the data.
describe.skipIf(Boolean(skip))('a preset chosen before the dataset’s size arrives, in Chromium', () => {
  const app = appSession();
  let page: Page;
  beforeAll(() => {
    ({ page } = app);
  });

  it('stays the preset, its batch sizes scaled to the dataset', async () => {
    await uploadDataset(page, 'world.json', WORLD);
    await useDataset(page, [2, 1, 2]);
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByText(/^world\.json: 40 train/).waitFor();
    await page.getByRole('radio', { name: 'Quick look' }).check();
    await page.getByRole('link', { name: 'Connect' }).click();
    // Standard is clicked the moment the Train screen appears: in the same task as its first render, so
    // before the worker can have answered which dataset it is (a message is a later task).
    await page.evaluate(() => {
      const seen = new MutationObserver(() => {
        const standard = [...document.querySelectorAll<HTMLInputElement>('input[name="preset"]')].find((r) =>
          r.closest('label')?.textContent?.startsWith('Standard'),
        );
        if (!standard) return;
        seen.disconnect();
        const w = window as unknown as { clickedBeforeData: boolean };
        w.clickedBeforeData = !document.querySelector('main')!.textContent!.includes('world.json: 40 train');
        standard.click();
      });
      seen.observe(document.body, { childList: true, subtree: true });
    });
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByText(/^world\.json: 40 train/).waitFor();
    expect(await page.evaluate(() => (window as unknown as { clickedBeforeData: boolean }).clickedBeforeData)).toBe(true);
    await expect.poll(() => page.getByLabel('Batch size', { exact: true }).inputValue()).toBe('20');
    expect(await page.getByLabel('Preset in use').innerText()).toBe('Standard');
    expect(await page.getByRole('radio', { name: 'Standard' }).isChecked()).toBe(true);
  }, 60_000);
});
