// The web app end to end, in Debian's Chromium, against `vite preview` and the test LLM server.
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './support/chromium';
import { seriousViolations } from './support/axe';
import { connect, countStore, knob, readRuns, setKnobs, uploadDataset, useDataset, waitForStatus, waitForStatusQuietly } from './support/app';
import { startLlmServer, type LlmTestServer } from '../support/llm-server';
import { HARD_INITIAL_SKILL, makeHardWorldItems, makeWorldItems, ruleText } from '../support/rule-world';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import { TRIGGER_START_DESCRIPTION, triggerWorldQueries } from '../support/trigger-world';
import { withDescription } from '../../src/core/skill/skill-file';

const appUrl = inject('appUrl');
const distDir = inject('distDir');
const skip = inject('e2eSkipReason');
const WORLD = JSON.stringify(makeWorldItems(100));
const KNOBS = { Epochs: '2', 'Batch size': '20', 'Minibatch size': '5', 'Merge batch size': '3', 'Target concurrency': '4', 'Optimizer concurrency': '4' };
const figures: Record<string, unknown> = {};

/** What a newcomer meets on Train (issue #33): the form controls in view, whether Start training is, the page's height. */
function trainFirstView(page: Page) {
  return page.evaluate(() => {
    const start = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Start training')!.getBoundingClientRect();
    return {
      controls: [...document.querySelectorAll('input, select, textarea')].filter((e) => e.checkVisibility({ visibilityProperty: true })).length,
      startInView: start.top >= 0 && start.bottom <= window.innerHeight,
      viewports: document.documentElement.scrollHeight / window.innerHeight,
    };
  });
}

/** The Train screen as it looks now: light and dark at 1280 px, and dark at 390 px with nothing wider than the phone. */
async function shootTrain(page: Page, moment: string): Promise<void> {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await page.screenshot({ path: `test-results/train-${moment}-${scheme}.png`, fullPage: moment !== 'running' });
  }
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth), `Train ${moment} at 390 px`).toBeLessThanOrEqual(0);
  await page.screenshot({ path: `test-results/train-${moment}-phone-dark.png`, fullPage: moment !== 'running' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe.skipIf(Boolean(skip))('Skillwright in Chromium', () => {
  let srv: LlmTestServer;
  let hardSrv: LlmTestServer;
  let ctx: BrowserContext;
  let page: Page;
  const consoleProblems: string[] = [];
  const foreign: string[] = [];
  let firstBest = '';
  let firstTests: unknown;
  /** Servers a single test starts: their requests are ours too. */
  const extraServers: LlmTestServer[] = [];

  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    srv = await startLlmServer({ latencyMs: 20 });
    hardSrv = await startLlmServer({ world: 'hard', noise: 2 });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') consoleProblems.push(m.text());
    });
    page.on('pageerror', (e) => consoleProblems.push(e.message));
    page.on('request', (r) => {
      const u = r.url();
      const ours = [srv, hardSrv, ...extraServers].some((x) => x && u.startsWith(x.url.replace(/\/v1$/, '')));
      if (!u.startsWith(appUrl) && !ours && !u.startsWith('data:') && !u.startsWith('blob:')) foreign.push(u);
    });
    await page.addInitScript(() => {
      const w = window as unknown as { __longtasks: { start: number; duration: number }[] };
      w.__longtasks = [];
      new PerformanceObserver((list) => list.getEntries().forEach((e) => w.__longtasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
      // Long animation frames name the scripts behind a long task (figures.longFrameScripts).
      const f = window as unknown as { __longframes: { start: number; duration: number; scripts: string[] }[] };
      f.__longframes = [];
      new PerformanceObserver((list) =>
        list.getEntries().forEach((e) => {
          const scripts = ((e as unknown as { scripts?: { invoker?: string; sourceFunctionName?: string; duration: number }[] }).scripts ?? []).map((x) => `${x.invoker ?? ''} ${x.sourceFunctionName ?? ''} ${Math.round(x.duration)}ms`);
          f.__longframes.push({ start: e.startTime, duration: e.duration, scripts });
        }),
      ).observe({ type: 'long-animation-frame', buffered: true });
    });
    await page.goto(appUrl);
  });

  afterEach(async (t) => {
    if (t.task.result?.state === 'fail') await page.screenshot({ path: `test-results/failed-${t.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true });
  });

  afterAll(async () => {
    writeFileSync('test-results/e2e-figures.json', JSON.stringify(figures, null, 2));
    console.log('e2e figures', JSON.stringify(figures));
    await ctx?.close();
    await srv?.close();
    await hardSrv?.close();
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
    await page.getByRole('button', { name: 'Start training' }).click();
    await page.waitForFunction(() => document.querySelector('.steps li') !== null, null, { polling: 100, timeout: 60_000 });
    figures.startToFirstChartPointMs = Date.now() - started;
    // A full-page screenshot relayouts the page at another size: its own work is not the app's.
    const shotFrom = await page.evaluate(() => performance.now());
    await page.screenshot({ path: 'test-results/train-running-light.png', fullPage: true });
    // The page is laid out again at its own size in the frames after the screenshot: still the screenshot's work.
    const shotTo = await page.evaluate(
      () => new Promise<number>((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(performance.now())))),
    );
    await waitForStatusQuietly(page, 'Completed');
    const longtasks = (await page.evaluate(() => (window as unknown as { __longtasks: { start: number; duration: number }[] }).__longtasks))
      .filter((t) => t.start + t.duration < shotFrom || t.start > shotTo)
      .map((t) => t.duration);
    figures.longFrameScripts = (await page.evaluate(() => (window as unknown as { __longframes: { start: number; duration: number; scripts: string[] }[] }).__longframes))
      .filter((t) => t.duration > 50 && (t.start + t.duration < shotFrom || t.start > shotTo))
      .map((t) => `${Math.round(t.duration)}ms: ${t.scripts.join('; ') || '(no script: style, layout or paint)'}`);
    figures.longestTaskDuringRunMs = Math.max(0, ...longtasks);
    figures.longTaskDurations = longtasks.map(Math.round);
    figures.longTasksDuringRun = longtasks.length;
    expect(figures.longestTaskDuringRunMs).toBeLessThanOrEqual(50);
    expect(await page.locator('.chart circle').count()).toBeGreaterThan(0);
    await page.screenshot({ path: 'test-results/train-done-light.png', fullPage: true });
    await page.screenshot({ path: 'test-results/readme-train.png' });

    const [run] = await readRuns(page);
    firstBest = run.state!.gate.bestSkill;
    firstTests = run.state!.summary!.tests.map((t) => [t.skill, t.hard]);
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

  it('exports a run, deletes it, and imports it back', async () => {
    page.on('dialog', (d) => void d.accept());
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Runs in this browser').waitFor();
    const before = (await readRuns(page)).length;
    await page.getByRole('button', { name: /world\.json/ }).last().click();
    await page.getByRole('button', { name: 'Export run' }).waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export run' }).click();
    const bundle = readFileSync(await (await download).path(), 'utf8');
    expect(bundle).not.toContain('sk-e2e-key');
    await page.getByRole('button', { name: 'Delete' }).click();
    await page.waitForFunction((n) => document.querySelectorAll('.card table.clickable tbody tr').length === n - 1, before);
    expect(await readRuns(page)).toHaveLength(before - 1);
    await page.getByLabel('Import run file').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(bundle) });
    await page.getByText('Run imported.').waitFor();
    expect(await readRuns(page)).toHaveLength(before);
    // Imported runs are read-only until bound to the user's own connection (issue #9).
    await page.getByRole('button', { name: /world\.json/ }).last().click();
    const note = page.getByRole('note').filter({ hasText: 'Imported from a file: read-only' });
    await note.waitFor();
    expect(await page.getByRole('button', { name: /^Resume/ }).count()).toBe(0);
    await note.screenshot({ path: 'test-results/runs-imported-note.png' });
    await page.getByRole('button', { name: 'Use my connection for this run' }).click();
    await page.getByText(/This run now uses your connection \(http:\/\/127\.0\.0\.1:\d+\)/).waitFor();
    expect(await note.count()).toBe(0);
    await page.getByLabel('Import run file').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"skillwright-run","version":1}') });
    await page.getByRole('alert').filter({ hasText: 'broken.json was not imported' }).waitFor();
    expect(await readRuns(page)).toHaveLength(before);
  });

  it('lists every problem of a bad dataset and stores nothing', async () => {
    const before = await countStore(page, 'datasets');
    const bad = JSON.stringify([{ question: 'fine', answer: 'yes' }, { question: '', answer: 'x' }, { id: 7, question: 'no answer' }, { question: 'dup', answer: 'a', id: 'd' }, { question: 'dup2', answer: 'b', id: 'd' }]);
    await uploadDataset(page, 'bad.json', bad);
    const alert = page.getByRole('alert').filter({ hasText: 'bad.json was not loaded' });
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toContain('Row 2, field "question": the question is missing or empty');
    expect(text).toContain('Row 3, field "answer": the expected answer is missing');
    expect(text).toContain('Row 5, field "id": duplicate id "d" (also used by row 4)');
    expect(text).toContain('Nothing was stored');
    expect(await page.getByRole('button', { name: 'Use this dataset' }).count()).toBe(0);
    expect(await countStore(page, 'datasets')).toBe(before);
    await page.screenshot({ path: 'test-results/data-errors-light.png', fullPage: true });
  });

  it('loads a bundled example with its starter skill', async () => {
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByLabel('Example').selectOption('capitals');
    await page.getByRole('button', { name: 'Load example' }).click();
    await page.getByText(/capitals-mcq\.json/).first().waitFor();
    await page.getByText(/\d+ train · \d+ validation · \d+ test/).waitFor();
    expect(await page.getByLabel('Scorer').inputValue()).toBe('mcq');
  });

  it('the step inspector shows edits dropped before ranking, the train check, a bundle repair and a validation tie-break', async () => {
    // The hard world with a noisy optimizer (rule-world.ts): seed 7 repairs bundles and accepts a tie.
    await connect(page, hardSrv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill file').setInputFiles({ name: 'hard-skill.md', mimeType: 'text/markdown', buffer: Buffer.from(HARD_INITIAL_SKILL) });
    await page.waitForFunction((want) => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill === want, HARD_INITIAL_SKILL);
    await uploadDataset(page, 'hard-world.json', JSON.stringify(makeHardWorldItems()));
    await page.getByText(/54 train · 18 validation · 48 test/).waitFor();
    await page.getByRole('button', { name: 'Use this dataset' }).click();
    await page.getByText(/Training will use/).waitFor();
    // An earlier test loaded the multiple-choice example: back to exact answers.
    await page.getByLabel('Scorer').selectOption('exact');
    await page.getByLabel('Rollout template').selectOption('qa');
    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('radio', { name: 'Standard' }).check();
    await setKnobs(page, { ...KNOBS, Seed: '7' });
    for (const label of ['Screen edits before ranking', 'Train-batch check', 'Repair bundles', 'Validation tie-break']) expect(await page.getByLabel(label).isChecked(), label).toBe(true);
    expect(await page.getByLabel('Carry promising edits').isChecked()).toBe(false);
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const seen = new Set<string>();
    let droppedText = '';
    for (let step = 1; step <= 6; step++) {
      await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
      await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
      for (const title of ['Dropped before ranking', 'Train-batch check', 'Bundle repaired', 'Validation tie-break']) {
        if (await page.getByRole('heading', { name: new RegExp(`^${title}`) }).count()) seen.add(title);
      }
      if (await page.getByRole('heading', { name: 'Bundle repaired' }).count()) {
        await page.getByRole('heading', { name: 'Bundle repaired' }).scrollIntoViewIfNeeded();
        await page.screenshot({ path: 'test-results/runs-step-repair-light.png', fullPage: true });
        const card = (title: string) => page.locator('section.card', { has: page.getByRole('heading', { name: new RegExp(`^${title}`) }) });
        await card('Dropped before ranking').screenshot({ path: 'test-results/runs-step-dropped-card.png' });
        await card('Bundle repaired').screenshot({ path: 'test-results/runs-step-repair-card.png' });
      }
      for (const t of await page.getByRole('table', { name: 'Edits dropped before ranking' }).all()) droppedText += await t.innerText();
    }
    expect([...seen].sort()).toEqual(['Bundle repaired', 'Dropped before ranking', 'Train-batch check', 'Validation tie-break']);
    expect(droppedText).toMatch(/target not in the skill/);
    expect(droppedText).toMatch(/the skill already says this/);
  }, 180_000);

  it('trains under the no-regression gate rule and shows its verdict in the step inspector', async () => {
    // The hard world from the previous test is still the chosen dataset, on the hard-world server.
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('no_regression');
    expect(await page.getByLabel('Significance k').count()).toBe(0);
    await (await knob(page, 'Gate rule')).selectOption('significance');
    expect(await page.getByLabel('Significance k').inputValue()).toBe('1');
    await (await knob(page, 'Gate rule')).selectOption('no_regression');
    await page.getByRole('button', { name: 'Start training' }).click();
    await waitForStatus(page, 'Completed');
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const verdicts: string[] = [];
    for (let step = 1; step <= 6; step++) {
      await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
      await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
      for (const p of await page.getByText(/^Gate rule “Higher mean, no item regresses”/).all()) verdicts.push(await p.innerText());
    }
    expect(verdicts.length).toBeGreaterThan(0);
    for (const v of verdicts) expect(v).toMatch(/held — No item regresses over \d+ items\.|refused the candidate — \d+ items? that passed would fail/);
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
  }, 180_000);

  it('trains through a stochastic target: the dashboard measures its noise, the inspector shows each verdict with its statistics, the lift card an interval', async () => {
    // The hard world (still the chosen dataset and skill) behind a target that misses 10% of the answers it knows and guesses 5%.
    const noisy = await startLlmServer({ world: 'hard', targetNoise: { miss: 0.1, guess: 0.05 }, noiseSeed: 1, latencyMs: 5 });
    extraServers.push(noisy);
    try {
      await connect(page, noisy.url, 'sk-e2e-key');
      await page.getByRole('link', { name: 'Train' }).click();
      const advice = page.getByRole('note', { name: 'What validation can tell apart' });
      await advice.waitFor();
      expect(await advice.innerText()).toMatch(/18 validation items: one item is 5\.6 points\..*cannot tell a gain below 3 items \(16\.7 points\) from noise/s);
      for (const label of ['Settle noisy verdicts', 'Leave-one-out blame']) expect(await page.getByLabel(label).isChecked(), label).toBe(true);
      expect(await page.getByLabel('Re-check a new best').isChecked()).toBe(false);
      await setKnobs(page, { ...KNOBS, Seed: '1' });
      await advice.screenshot({ path: 'test-results/train-noise-advice-light.png' });
      await page.getByRole('button', { name: 'Start training' }).click();
      const noise = page.getByLabel('Target noise');
      await noise.waitFor({ timeout: 60_000 });
      expect(await noise.innerText()).toMatch(/of \d+ repeated answers changed \(at most [\d.]+% at 90% confidence\)/);
      await waitForStatus(page, 'Completed');
      expect(await noise.innerText()).toMatch(/Verdicts ask again where the two skills disagree, until one answer leads by \d votes\./);
      await page.locator('section.dashboard').screenshot({ path: 'test-results/train-noise-light.png' });
      await page.getByRole('link', { name: 'Runs' }).click();
      const lift = page.locator('section.card', { has: page.getByRole('heading', { name: 'Lift on the test split' }) });
      await lift.waitFor();
      const liftText = await lift.innerText();
      expect(liftText).toMatch(/Over the starting skill \(training\): \+[\d.]+ points, 95% interval [+−][\d.]+ points to \+[\d.]+ points/);
      expect(liftText).toMatch(/a real gain/);
      expect(liftText).toMatch(/this target missed about \d+% of answers it knew and guessed about \d+% of the others/);
      await lift.screenshot({ path: 'test-results/runs-lift-noise-light.png' });
      let settled = '';
      for (let step = 1; step <= 6 && !settled; step++) {
        await page.getByRole('button', { name: `Inspect step ${step}`, exact: true }).click();
        await page.getByText(new RegExp(`^Step ${step} — `)).waitFor();
        const verdict = page.getByLabel('Gate verdict');
        if ((await verdict.count()) && /asked again \(where the two disagreed, until one answer led by [2-9] votes/.test(await verdict.innerText())) settled = await verdict.innerText();
      }
      expect(settled).toMatch(/Item by item: \d+ won \d+ lost \(sign test, p [=<] [\d.]+ of winning this often by chance\)/);
      await page.getByLabel('Gate verdict').scrollIntoViewIfNeeded();
      await page.locator('.inspector section.card').first().screenshot({ path: 'test-results/runs-step-verdict-light.png' });
    } finally {
      // The tests after this one train on the hard-world server.
      await connect(page, hardSrv.url, 'sk-e2e-key');
      await noisy.close();
    }
  }, 180_000);

  it('opens a SKILL.md, trains only its body, and exports SKILL.md and AGENTS.md from the Train screen', async () => {
    const front = '---\nname: specimen-codes\ndescription: "Answer: the specimen code."\n---\n\n';
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill file').setInputFiles({ name: 'SKILL.md', mimeType: 'text/markdown', buffer: Buffer.from(front + HARD_INITIAL_SKILL) });
    // The frontmatter is set aside: the editor holds the body, the package fields the metadata.
    await page.waitForFunction((want) => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill === want, HARD_INITIAL_SKILL);
    expect(await page.getByLabel('Skill name').inputValue()).toBe('specimen-codes');
    expect(await page.getByLabel('Skill description').inputValue()).toBe('Answer: the specimen code.');
    await page.getByText('from SKILL.md (frontmatter set aside)').waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    // The previous run also ended "Completed": wait for this run's own end.
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    await page.getByText(/^Done: the best skill scored/).waitFor();
    const save = async (format: string) => {
      await page.getByLabel('Skill file format').selectOption(format);
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: 'Export best skill' }).click();
      const d = await download;
      return { name: d.suggestedFilename(), text: readFileSync(await d.path(), 'utf8') };
    };
    const skillMd = await save('skill_md');
    expect(skillMd.name).toBe('SKILL.md');
    expect(skillMd.text.startsWith(front)).toBe(true);
    const body = skillMd.text.slice(front.length);
    expect(body).not.toContain('---\nname:');
    expect(body).toContain('# Specimen codes');
    const agents = await save('agents_md');
    expect(agents).toEqual({ name: 'AGENTS.md', text: body });
    await page.screenshot({ path: 'test-results/train-done-export-light.png', fullPage: true });

    // Issue #23: the run's dataset as evals/evals.json, named after the skill, with its split and lift…
    const latest = (await readRuns(page)).sort((a, b) => b.updatedAt - a.updatedAt)[0];
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('button', { name: latest.name, exact: true }).first().click();
    const evalsDownload = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export evals.json' }).click();
    const evalsFile = await evalsDownload;
    expect(evalsFile.suggestedFilename()).toBe('evals.json');
    const evals = JSON.parse(readFileSync(await evalsFile.path(), 'utf8')) as {
      skill_name: string;
      evals: { id: string; prompt: string; expected_output: string }[];
      metadata: { run: string; splits: Record<string, string[]>; lift?: { estimate: number }; test?: Record<string, number> };
    };
    expect(evals.skill_name).toBe('specimen-codes');
    expect(evals.metadata.run).toBe(latest.name);
    const splitIds = Object.values(evals.metadata.splits).flat();
    expect(new Set(splitIds)).toEqual(new Set(evals.evals.map((e) => e.id)));
    expect(evals.metadata.lift?.estimate).toBe(latest.state!.summary!.lift!.estimate);
    expect(evals.metadata.test?.best).toBe(latest.state!.summary!.tests.find((t) => t.skill === 'best')!.hard);
    // …which imports as a dataset of the same items and trains (then the previous dataset is chosen again).
    const datasetId = () => page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.datasetId as string);
    const previousDataset = await datasetId();
    await uploadDataset(page, 'evals.json', JSON.stringify(evals));
    await useDataset(page, [2, 1, 2]);
    await page.getByText(/Training will use evals/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    const done = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(done + 1);
    const evalRun = (await readRuns(page)).sort((a, b) => b.updatedAt - a.updatedAt)[0];
    expect(evalRun.state!.summary!.tests.find((t) => t.skill === 'best')!.hard).toBeGreaterThan(0);
    await page.getByRole('link', { name: 'Data' }).click();
    const rows = page.locator('ul.list li');
    for (let i = 0; i < (await rows.count()) && (await datasetId()) !== previousDataset; i++) await rows.nth(i).getByRole('radio').check();
    expect(await datasetId()).toBe(previousDataset);
  }, 240_000);

  it('says why a run accepted no step, with the evidence, on Train and on Runs', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('significance');
    await (await knob(page, 'Significance k')).fill('10');
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    const card = page.locator('section.card', { has: page.getByRole('heading', { name: 'Why no step was accepted' }) });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/No step was accepted\. In \d+ steps?, the candidate beat the mean but the gate rule refused it\./);
    expect(await card.innerText()).toMatch(/Refused by the gate rule \(steps? [\d, ]+\)/);
    await card.screenshot({ path: 'test-results/train-diagnosis-card.png' });
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('heading', { name: 'Why no step was accepted' }).waitFor();
    // Steering: branch a new run from a candidate the gate refused.
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    await page.getByText(/^Step 1 — reject/).waitFor();
    await page.getByRole('button', { name: 'New run from the refused candidate' }).click();
    await page.getByText(/from .*, step 1 candidate \(refused by the gate\)/).waitFor();
    const branched = await page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill as string);
    // The run accepted nothing, so its best skill is the starting one; the refused candidate carries its edits.
    expect(branched).not.toBe(HARD_INITIAL_SKILL);
    expect(branched).toContain('# Specimen codes');
    // The branch trains as a new run that names where it came from; the parent lists it.
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
    const done = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const doneBefore = await done();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(done, { timeout: 120_000 }).toBe(doneBefore + 1);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByRole('table').getByRole('button').first().click(); // the newest run: the branch
    await page.getByText(/^Branched from hard-world\.json · sim-target \(step 1 candidate \(refused by the gate\)\)\./).waitFor();
    await page.locator('.lineage').getByRole('button', { name: 'hard-world.json · sim-target' }).click();
    await page.getByText(/Branches: hard-world\.json · sim-target \(from step 1 candidate/).waitFor();
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Gate rule')).selectOption('mean');
  }, 180_000);


  it('remembers keys only while asked to, and forgets them on request', async () => {
    const stored = () =>
      page.evaluate(
        () =>
          new Promise<string>((resolve, reject) => {
            const open = indexedDB.open('skillwright');
            open.onerror = () => reject(open.error);
            open.onsuccess = () => {
              const req = open.result.transaction('settings').objectStore('settings').getAll();
              req.onsuccess = () => {
                resolve(JSON.stringify(req.result));
                open.result.close();
              };
            };
          }),
      );
    await connect(page, srv.url, 'sk-remember-me-123');
    const remember = page.getByLabel('Remember on this device');
    await remember.check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    expect(await stored()).toContain('sk-remember-me-123');
    await remember.uncheck();
    await expect.poll(stored).not.toContain('sk-remember-me-123');
    await remember.check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await expect.poll(stored).toContain('sk-remember-me-123');
    await page.getByRole('button', { name: 'Forget keys on this device' }).click();
    await page.getByText(/Keys forgotten/).waitFor();
    expect(await stored()).not.toContain('sk-remember-me-123');
    expect(await page.getByLabel('Target API key').inputValue()).toBe('');
    await remember.uncheck();
  });

  // Issue #28 "Also": Monaco's diff editor reported "no diff result available" when a diff it was
  // still computing lost its models — a diff closed while Monaco's worker was still starting (as on
  // a freshly loaded page), with another editor on the page (which keeps the worker going). The
  // worker's script is held back until the diff has been closed: no timing is guessed.
  it('a diff closed while it is still being computed logs no error', async () => {
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    let asked!: () => void;
    const requested = new Promise<void>((r) => (asked = r));
    const workerScript = /editor\.worker-[^/]*\.js$/;
    await page.route(workerScript, async (route) => {
      asked();
      await held;
      await route.continue().catch(() => {}); // a page that moved on no longer wants it
    });
    const propose = async () => {
      await page.getByLabel('Your feedback').fill('Answers carry extra words.\n- Give the code alone, nothing else.');
      await page.getByRole('button', { name: 'Improve with my feedback' }).click();
      await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    };
    try {
      // A freshly loaded page: Monaco's worker starts with the first editor.
      await page.goto(`${appUrl}#/connect`);
      await page.reload();
      await connect(page, srv.url, 'sk-e2e-key');
      await page.getByRole('link', { name: 'Skill' }).click();
      await page.locator('.monaco-editor').first().waitFor({ timeout: 20_000 });
      await requested; // the skill's editor asked for the worker: it is starting
      await propose();
      await page.getByRole('button', { name: 'Discard' }).click();
      await page.getByTestId('skill-diff').waitFor({ state: 'detached' });
    } finally {
      release();
    }
    await page.unroute(workerScript);
    // A new proposal, until its diff is drawn: the worker answers in order, so the closed diff's answer is in.
    await propose();
    await page.locator('[data-testid="skill-diff"] .char-insert, [data-testid="skill-diff"] .line-insert').first().waitFor({ timeout: 20_000 });
    await page.getByRole('button', { name: 'Discard' }).click();
    expect(consoleProblems.filter((p) => /diff/i.test(p))).toEqual([]);
  }, 120_000);

  it('every screen in light and dark, readable on a phone, no console errors, no other hosts', async () => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const section of ['connect', 'data', 'skill', 'train', 'runs']) {
        await page.goto(`${appUrl}#/${section}`);
        await page.getByRole('heading', { level: 1 }).waitFor();
        await page.waitForTimeout(section === 'skill' ? 1500 : 300);
        await page.screenshot({ path: `test-results/${section}-${scheme}.png`, fullPage: true });
      }
    }
    await page.setViewportSize({ width: 390, height: 844 });
    for (const section of ['connect', 'data', 'skill', 'train', 'runs']) {
      await page.goto(`${appUrl}#/${section}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, section).toBeLessThanOrEqual(0);
    }
    await page.screenshot({ path: 'test-results/runs-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(consoleProblems).toEqual([]);
    expect(foreign).toEqual([]);
  }, 120_000);

  it('records the initial JavaScript size of the build', () => {
    const html = readFileSync(join(distDir, 'index.html'), 'utf8');
    const scripts = [...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]);
    const gzip = scripts.reduce((a, f) => a + gzipSync(readFileSync(join(distDir, f)), { level: 9 }).length, 0);
    figures.initialJsFiles = scripts;
    figures.initialJsGzipBytes = gzip;
    figures.distJsFiles = readdirSync(join(distDir, 'assets')).filter((f) => f.endsWith('.js')).length;
    expect(gzip).toBeLessThan(150 * 1024);
  });
});

describe.skipIf(Boolean(skip))('connection diagnoses in Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  let guarded: LlmTestServer;
  let noCors: LlmTestServer;
  let strictProxy: LlmTestServer;
  beforeAll(async () => {
    guarded = await startLlmServer({ apiKey: 'the-right-key' });
    noCors = await startLlmServer({ cors: 'none' });
    strictProxy = await startLlmServer({ cors: 'basic' });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
    await guarded?.close();
    await noCors?.close();
    await strictProxy?.close();
  });

  it('says the key was rejected', async () => {
    await connect(page, guarded.url, 'sk-wrong-key');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/target API key was rejected \(401\)/);
    await page.screenshot({ path: 'test-results/connect-error-light.png', fullPage: true });
  });

  it('says CORS blocks a server that does not allow this page, and what to change', async () => {
    await connect(page, noCors.url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    const text = await alert.innerText();
    expect(text).toMatch(/does not allow requests from this page \(CORS\)/);
    expect(text).toMatch(/Access-Control-Allow-Origin/);
  });

  it('tests a separate judge endpoint with its own key', async () => {
    await connect(page, guarded.url, 'the-right-key');
    await page.getByLabel('Separate judge endpoint').check();
    await page.getByLabel('Judge base URL').fill(guarded.url);
    await page.getByLabel('Judge API key').fill('the-right-key');
    await page.getByLabel('Judge model').fill('sim-optimizer');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const ok = page.getByText(/connected\.$/);
    await ok.waitFor();
    // The roles that answer in JSON say which structured output their endpoint keeps to (issue #23).
    const line = await ok.innerText();
    expect(line).toMatch(/^Target sim-target: \d+ ms · /);
    expect(line).toMatch(/ · Optimizer sim-optimizer: \d+ ms \(structured output: json schema\) · /);
    expect(line).toMatch(/ · Judge sim-optimizer: \d+ ms \(structured output: json schema\) — connected\.$/);
    await ok.screenshot({ path: 'test-results/connect-structured-output.png' });
    await page.getByLabel('Separate judge endpoint').uncheck();
  });

  it('finds a CORS preflight that refuses the SDK headers, and connects with minimal headers', async () => {
    await connect(page, strictProxy.url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/refuses the extra x-stainless-\* headers the OpenAI SDK sends.*Tick “Minimal headers”/);
    await page.screenshot({ path: 'test-results/connect-doctor-light.png', fullPage: true });
    await page.getByText('Options: sampling, limits, prices').click();
    await page.getByLabel('Minimal headers').check();
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByText(/connected\.$/).waitFor();
    await page.getByLabel('Minimal headers').uncheck();
  });

  it('says nothing answers at an address where no server listens', async () => {
    const closed = await startLlmServer({});
    const url = closed.url;
    await closed.close();
    await connect(page, url, 'sk-any');
    await page.getByRole('button', { name: 'Test connection' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Connection test failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toMatch(/Nothing answers at 127\.0\.0\.1:\d+\. Is the local server running/);
  });
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

describe.skipIf(Boolean(skip))('zero-key demo in Chromium', () => {
  let ctx: BrowserContext;
  let page: Page;
  const requests: string[] = [];
  beforeAll(async () => {
    ctx = await launchBrowser();
    page = await ctx.newPage();
    page.on('request', (r) => requests.push(r.url()));
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
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
    expect(await estimate.innerText()).toMatch(/^[\d,]+–[\d,]+ calls · [\d.]+K–[\d.]+K tokens · cost: set prices on Connect · about \d+(–\d+)? s$/);
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
    expect(await section('Noisy targets and the test').innerText()).toMatch(/8 settings\s*2 changed/);
    expect(await section('Calls and budget').innerText()).toMatch(/3 settings\s*2 changed/);
    await page.getByLabel('Epochs', { exact: true }).fill('3');
    expect(await inUse.innerText()).toBe('Custom (based on Quick look)');
    await page.getByText('Changed since Quick look: Epochs. Pick a preset to start from it again.').waitFor();
    await (await knob(page, 'Repair rounds')).fill('2');
    expect(await section('Safeguards').innerText()).toMatch(/^▸?\s*Safeguards\s*7 settings$/);
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

  it('every screen passes an accessibility scan in both themes after a run: no serious or critical violation (issue #33)', async () => {
    const found: string[] = [];
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      for (const section of ['Connect', 'Data', 'Skill', 'Train', 'Runs']) {
        await page.getByRole('link', { name: section }).click();
        await page.getByRole('heading', { level: 1 }).waitFor();
        if (section === 'Train') {
          // Every folded part of Train opened: its settings are scanned too.
          const folded = page.locator('details:not([open]) > summary');
          while (await folded.count()) await folded.first().click();
        }
        if (section === 'Runs') await page.getByText('Test report').waitFor();
        found.push(...(await seriousViolations(page)).map((v) => `${section}, ${scheme}: ${v}`));
      }
    }
    await page.emulateMedia({ colorScheme: 'light' });
    expect(found).toEqual([]);
  }, 120_000);

  it('trains in rewrite mode and shows the suggestions and the rewrite in the step inspector', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Update mode')).selectOption('rewrite');
    const estimate = page.locator('table').filter({ hasText: 'Update (rewrite)' });
    await estimate.waitFor({ state: 'attached' }); // in the folded table per stage
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(async () => (await readRuns(page)).filter((r) => r.status === 'completed').length, { timeout: 60_000 }).toBe(2);
    const runs = await readRuns(page);
    const latest = runs.find((r) => r.state?.config.updateMode === 'rewrite')!;
    expect(latest.state!.gate.bestScore).toBeGreaterThan(0.5);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Rewrite from suggestions' }) });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Suggestions \(\d+ of \d+ chosen for the rewrite\)/);
    expect(await card.innerText()).toMatch(/What the rewrite changed\s+added - /);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-rewrite-step-light.png' });
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Update mode')).selectOption('patch');
  }, 120_000);

  it('skill-aware reflection writes reminders into the appendix and shows the re-scored skill in the step inspector', async () => {
    await page.getByRole('link', { name: 'Train' }).click();
    expect(await page.getByLabel('Reminders from').count()).toBe(0);
    await (await knob(page, 'Skill-aware reflection')).check();
    expect(await page.getByLabel('Reminders from').inputValue()).toBe('failure_only');
    await (await knob(page, 'Compact reminders above')).fill('3');
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(async () => (await readRuns(page)).filter((r) => r.status === 'completed').length, { timeout: 60_000 }).toBe(3);
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    await page.getByRole('button', { name: 'Inspect step 1', exact: true }).click();
    const card = page.locator('section.card').filter({ has: page.getByRole('heading', { name: 'Execution notes appendix' }) });
    await card.waitFor();
    const text = await card.innerText();
    expect(text).toMatch(/\d+ reminders? from the analysts · notes 0 → \d+ · compacted \d+ → \d+/);
    expect(text).toMatch(/scored again on validation: \d+\.\d% → \d+\.\d%/);
    await card.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-appendix-step-light.png' });
    await page.getByRole('link', { name: 'Train' }).click();
    await (await knob(page, 'Skill-aware reflection')).uncheck();
  }, 120_000);

  it('edit blame: the Skill screen traces each line of a run version to its step, in the gutter, on hover and in a list', async () => {
    await page.getByRole('link', { name: 'Runs' }).click();
    await page.getByText('Test report').waitFor();
    const bestRow = page.getByRole('row').filter({ has: page.locator('.badge', { hasText: 'best' }) }).last();
    // On the Runs screen: any stored version, read-only, with its blame.
    await bestRow.getByRole('button', { name: 'Where lines came from' }).click();
    const versionList = page.locator('.version-blame').getByRole('list', { name: 'Edit blame' });
    await versionList.waitFor();
    expect((await versionList.getByRole('listitem').allInnerTexts()).some((e) => /· Step \d+ · accept/.test(e))).toBe(true);
    await expect.poll(() => page.locator('.version-blame .blame-step').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.locator('.version-blame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-version-blame-light.png' });
    await bestRow.getByRole('button', { name: 'New run from this version' }).click();
    await page.getByRole('heading', { name: 'Write the starting skill' }).waitFor();
    await page.getByLabel(/Show where each line came from/).check();
    const list = page.getByRole('list', { name: 'Edit blame' });
    await list.waitFor();
    const entries = await list.getByRole('listitem').allInnerTexts();
    expect(entries.some((e) => /^Lines? \d+(–\d+)? · Step \d+ · accept/.test(e))).toBe(true);
    expect(entries.join('\n')).toMatch(/Analyst: The skill has no rule for/);
    expect(entries.join('\n')).toMatch(/Failing train items: /);
    // The gutter marks each line; hovering a rule line names its step.
    await expect.poll(() => page.locator('[data-testid="skill-editor"] .blame-step').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    const ruleLine = page.locator('[data-testid="skill-editor"] .view-line').filter({ hasText: 'specimens, use the prefix' }).first();
    await ruleLine.hover();
    await page.locator('.monaco-hover').filter({ hasText: /Step \d+/ }).first().waitFor({ timeout: 10_000 });
    await page.screenshot({ path: 'test-results/skill-blame-light.png', fullPage: true });
    await page.getByLabel(/Show where each line came from/).uncheck();
  }, 120_000);

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

  it('the demo sets the user’s own drafts and keys aside and puts them back; its dataset is stored once (issue #20 item 2)', async () => {
    const state = () => page.evaluate(() => JSON.parse(localStorage.getItem('skillwright-ui')!).state as { skill: string; connection: { target: { baseURL: string } }; parked: unknown });
    // Leave the demo the earlier tests started: the drafts from before it (the defaults here) return.
    await page.getByRole('button', { name: 'Leave the demo and restore my settings' }).click();
    expect((await state()).connection.target.baseURL).toBe('https://api.openai.com/v1');
    expect((await state()).parked).toBeNull();
    // The user's own work: a custom endpoint with a key held by the worker, and a skill draft.
    await page.getByRole('link', { name: 'Connect' }).click();
    await page.getByLabel('Provider').selectOption('custom');
    await page.getByLabel('Target base URL').fill('http://127.0.0.1:9/v1');
    await page.getByLabel('Target API key').fill('sk-my-own-key-123');
    await page.getByLabel('Target model').click();
    await expect.poll(() => page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    await page.evaluate(() => {
      const raw = JSON.parse(localStorage.getItem('skillwright-ui')!);
      raw.state.skill = '# My own skill\n\n- A rule I wrote.\n';
      localStorage.setItem('skillwright-ui', JSON.stringify(raw));
    });
    await page.reload();
    await page.getByLabel('Target API key').fill('sk-my-own-key-123');
    await page.getByLabel('Target model').click();
    await expect.poll(() => page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    const datasets = await countStore(page, 'datasets');
    await page.getByRole('button', { name: 'Try without a key' }).click();
    await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
    expect((await state()).skill).not.toContain('A rule I wrote');
    // The demo's dataset is the one stored before: not another copy.
    expect(await countStore(page, 'datasets')).toBe(datasets);
    await page.getByRole('button', { name: 'Leave the demo and restore my settings' }).click();
    expect((await state()).skill).toBe('# My own skill\n\n- A rule I wrote.\n');
    expect((await state()).connection.target.baseURL).toBe('http://127.0.0.1:9/v1');
    // The key the worker held for the user's endpoint is still held.
    await page.getByRole('link', { name: 'Connect' }).click();
    expect(await page.getByLabel('Target API key').getAttribute('placeholder')).toMatch(/Key held/);
    await page.screenshot({ path: 'test-results/demo-left-light.png', fullPage: true });
  }, 60_000);
});

describe.skipIf(Boolean(skip))('skill packages in Chromium', () => {
  let srv: LlmTestServer;
  let ctx: BrowserContext;
  let page: Page;
  beforeAll(async () => {
    srv = await startLlmServer({ latencyMs: 5, describerSlip: 0 });
    ctx = await launchBrowser();
    page = await ctx.newPage();
    await page.goto(appUrl);
  });
  afterAll(async () => {
    await ctx?.close();
    await srv?.close();
  });

  it('opens a skill package with two reference files, trains it (an edit to a reference file is applied and shown), and exports a zip whose layout round-trips (issue #23)', async () => {
    const topics = ['amber', 'basalt', 'cobalt', 'dune'];
    const code = (t: string) => ruleText(t).match(/prefix ([A-Z]{3}\d)/)![1];
    const wrong = (t: string) => `${code(t).slice(0, 3)}${(Number(code(t).slice(3)) + 1) % 10}`;
    const front = `---\nname: specimen-codes\ndescription: ${TRIGGER_START_DESCRIPTION}\nlicense: MIT\n---\n`;
    const triggers = triggerWorldQueries().map((q) => ({ query: q.query, should_trigger: q.shouldTrigger }));
    const codes = `# Codes\n\n${topics.map((t) => `- For ${t} specimens, use the prefix ${wrong(t)}: answer ${wrong(t)}-<specimen number>.`).join('\n')}\n`;
    const style = '# Style\n\nWrite the code in capitals.\n';
    const script = new Uint8Array([35, 33, 0, 255, 10]);
    const evals = makeWorldItems(60).map((w) => ({ id: w.id, prompt: w.question, expected_output: w.answers[0], files: [], assertions: [] }));
    const zip = zipSync({
      'specimen-codes/SKILL.md': strToU8(`${front}\n# Specimen codes\n\nAnswer with the specimen code only.\n`),
      'specimen-codes/references/codes.md': strToU8(codes),
      'specimen-codes/references/style.md': strToU8(style),
      'specimen-codes/scripts/check.sh': script,
      'specimen-codes/evals/evals.json': strToU8(JSON.stringify({ skill_name: 'specimen-codes', evals })),
      'specimen-codes/evals/trigger-evals.json': strToU8(JSON.stringify(triggers)),
    });
    await connect(page, srv.url, 'sk-e2e-key');
    await page.getByRole('link', { name: 'Skill' }).click();
    await page.getByLabel('Open skill package', { exact: true }).setInputFiles({ name: 'specimen-codes.zip', mimeType: 'application/zip', buffer: Buffer.from(zip) });
    const files = page.getByRole('region', { name: 'Package files' });
    await files.getByText('references/codes.md').waitFor();
    expect(await files.innerText()).toMatch(/scripts\/check\.sh\s*kept, read-only/);
    expect(await page.getByLabel('Skill name').inputValue()).toBe('specimen-codes');
    await page.getByText(/from specimen-codes\.zip \(package: SKILL\.md \+ 2 references, 3 other kept\)/).waitFor();
    // The package's trigger queries are the activation track's (issue #23 item 4).
    const triggerGroup = page.getByRole('group', { name: 'Trigger queries' });
    expect(await triggerGroup.innerText()).toMatch(/40 trigger queries from specimen-codes\/evals\/trigger-evals\.json: 16 should load the skill, 24 should not/);
    // A bad file is named with its row and field, and the queries already there stay.
    const bad = JSON.stringify([{ query: 'a', should_trigger: true }, { query: 'b', should_trigger: 'yes' }]);
    await page.getByLabel('Open trigger queries').setInputFiles({ name: 'bad-triggers.json', mimeType: 'application/json', buffer: Buffer.from(bad) });
    await page.getByText(/bad-triggers\.json holds no usable trigger queries: query 2, field "should_trigger": must be true or false/).waitFor();
    expect(await triggerGroup.innerText()).toMatch(/40 trigger queries from specimen-codes\/evals\/trigger-evals\.json/);
    await page.waitForTimeout(1000); // Monaco's first paint
    await page.screenshot({ path: 'test-results/skill-package-light.png', fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: 'test-results/skill-package-dark.png', fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/skill-package-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });

    // The package's own eval cases are the dataset.
    await page.getByRole('link', { name: 'Data' }).click();
    await page.getByRole('button', { name: 'Use the package’s evals/evals.json' }).click();
    await page.getByText('Preview — specimen-codes/evals/evals.json').waitFor();
    await page.screenshot({ path: 'test-results/data-package-evals.png', fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    await page.screenshot({ path: 'test-results/data-package-evals-phone-dark.png', fullPage: true });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    await useDataset(page, [2, 1, 2]);
    expect(await page.getByText(/Training will use/).innerText()).toContain('specimen-codes/evals/evals.json');

    await page.getByRole('link', { name: 'Train' }).click();
    await page.getByRole('radio', { name: 'Standard' }).check();
    await setKnobs(page, { ...KNOBS, Epochs: '1' });
    await (await knob(page, 'Train the description (activation track)')).check();
    const completed = async () => (await readRuns(page)).filter((r) => r.status === 'completed').length;
    const before = await completed();
    await page.getByRole('button', { name: 'Start training' }).click();
    await expect.poll(completed, { timeout: 120_000 }).toBe(before + 1);
    await page.getByText(/^Done: the best skill scored/).waitFor();
    // The export defaults to the package: the same layout, frontmatter and untrained files as they were.
    expect(await page.getByLabel('Skill file format').inputValue()).toBe('package');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export best skill' }).click();
    const d = await download;
    expect(d.suggestedFilename()).toBe('specimen-codes.zip');
    const out = unzipSync(new Uint8Array(readFileSync(await d.path())));
    expect(Object.keys(out).sort()).toEqual([
      'specimen-codes/SKILL.md',
      'specimen-codes/evals/evals.json',
      'specimen-codes/evals/trigger-evals.json',
      'specimen-codes/references/codes.md',
      'specimen-codes/references/style.md',
      'specimen-codes/scripts/check.sh',
    ]);
    const skillMd = strFromU8(out['specimen-codes/SKILL.md']);
    // The activation track kept a new description: the frontmatter is as read but for that field.
    const trained = /^description: (.*)$/m.exec(skillMd)![1];
    expect(JSON.parse(trained)).toMatch(/^Gives the specimen code for .*Only for specimen codes/);
    expect(skillMd.startsWith(`${withDescription(front, JSON.parse(trained))}\n# Specimen codes`)).toBe(true);
    expect(skillMd).not.toContain('<!-- FILE:');
    const trainedCodes = strFromU8(out['specimen-codes/references/codes.md']);
    const fixed = topics.filter((t) => trainedCodes.includes(`prefix ${code(t)}`));
    expect(fixed.length).toBeGreaterThan(0);
    for (const t of fixed) expect(trainedCodes).not.toContain(`prefix ${wrong(t)}`);
    expect(strFromU8(out['specimen-codes/references/style.md'])).toBe(style);
    expect(out['specimen-codes/scripts/check.sh']).toEqual(script);

    // The Runs screen shows the description before and after, with how often each was decided right.
    await page.getByRole('link', { name: 'Runs' }).click();
    const activationCard = page.locator('section.card', { has: page.getByRole('heading', { name: 'Activation track — the description' }) });
    await activationCard.waitFor();
    expect(await page.getByTestId('activation-initial').innerText()).toBe(TRIGGER_START_DESCRIPTION);
    expect(await page.getByTestId('activation-best').innerText()).toBe(JSON.parse(trained));
    expect(await activationCard.innerText()).toMatch(/Kept a new description: decided right on \d+\.\d% of the validation queries/);
    await activationCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-activation-light.png' });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.setViewportSize({ width: 390, height: 844 });
    await activationCard.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-activation-phone-dark.png' });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    // The step inspector names the file an accepted edit changed.
    await page.getByRole('button', { name: 'Inspect step 1' }).click();
    await page.getByText(/^Step 1 — /).waitFor();
    const changed = page.getByTestId('changed-files');
    await changed.waitFor({ timeout: 20_000 });
    expect(await changed.innerText()).toContain('references/codes.md');
    const report = page.locator('section.card', { has: page.getByRole('heading', { name: 'Edit-apply report' }) });
    expect(await report.getByRole('cell', { name: 'references/codes.md' }).count()).toBeGreaterThan(0);
    await page.getByTestId('skill-diff').waitFor({ timeout: 20_000 });
    await changed.scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-package-step-light.png' });

    // The best version's blame names the file each changed line lives in, and its line there.
    const bestRow = page.getByRole('row').filter({ has: page.locator('.badge', { hasText: 'best' }) }).last();
    await bestRow.getByRole('button', { name: 'Where lines came from' }).click();
    const blame = page.locator('.version-blame').getByRole('list', { name: 'Edit blame' });
    await blame.waitFor();
    await expect.poll(async () => (await blame.getByRole('listitem').allInnerTexts()).join('\n'), { timeout: 20_000 }).toMatch(/^references\/codes\.md, lines? \d+(–\d+)? · Step \d+ · accept/m);
    await page.locator('.version-blame').scrollIntoViewIfNeeded();
    await page.screenshot({ path: 'test-results/runs-package-blame-light.png' });
  }, 240_000);
});
