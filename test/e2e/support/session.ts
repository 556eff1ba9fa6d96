// What the screen files of the e2e suite share: one browser on the app per describe block, the
// settings the trainings use, the Train screen's screenshots, and the starting points that a
// block's tests build on (the zero-key demo, the hard world).
import { afterAll, afterEach, beforeAll, expect, inject } from 'vitest';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { launchBrowser } from './chromium';
// Not a React hook: named apart so the hooks lint does not take it for one here.
import { connect, setKnobs, uploadDataset, useDataset as storeDataset, waitForStatus } from './app';
import type { LlmTestServer } from '../../support/llm-server';
import { HARD_INITIAL_SKILL, makeHardWorldItems, makeWorldItems } from '../../support/rule-world';

export const appUrl = inject('appUrl');
export const distDir = inject('distDir');
export const skip = inject('e2eSkipReason');

/** The rule world the trainings on the test server use, and the settings that keep them short. */
export const WORLD = JSON.stringify(makeWorldItems(100));
export const KNOBS = { Epochs: '2', 'Batch size': '20', 'Minibatch size': '5', 'Merge batch size': '3', 'Target concurrency': '4', 'Optimizer concurrency': '4' };

export interface AppSession {
  ctx: BrowserContext;
  page: Page;
  /** Console errors and warnings, and uncaught page errors. */
  consoleProblems: string[];
  /** Requests to any host but the app's and the block's test servers. */
  foreign: string[];
}

/**
 * A fresh browser profile on the app for one describe block, opened before its tests and closed
 * after them. `servers` names the block's test servers (read at each request: a test may start
 * more); with `quiet`, the block fails if the page logged an error or warning or asked another
 * host. `start` brings the fresh page to where the block's tests begin (the demo, a demo run). The
 * page records its long tasks and long animation frames (the frame-time checks); a failed test
 * leaves a full-page screenshot.
 */
export function appSession(
  servers: () => (LlmTestServer | undefined)[] = () => [],
  options: { quiet?: boolean; start?: (page: Page) => Promise<void> } = {},
): AppSession {
  const s = { consoleProblems: [] as string[], foreign: [] as string[] } as AppSession;
  beforeAll(async () => {
    mkdirSync('test-results', { recursive: true });
    s.ctx = await launchBrowser();
    s.page = await s.ctx.newPage();
    s.page.on('console', (m) => {
      if (m.type() === 'error' || m.type() === 'warning') s.consoleProblems.push(m.text());
    });
    s.page.on('pageerror', (e) => s.consoleProblems.push(e.message));
    s.page.on('request', (r) => {
      const u = r.url();
      const ours = servers().some((x) => x && u.startsWith(x.url.replace(/\/v1$/, '')));
      if (!u.startsWith(appUrl) && !ours && !u.startsWith('data:') && !u.startsWith('blob:')) s.foreign.push(u);
    });
    await s.page.addInitScript(() => {
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
    await s.page.goto(appUrl);
    await options.start?.(s.page);
  });
  afterEach(async (t) => {
    if (t.task.result?.state === 'fail') await s.page?.screenshot({ path: `test-results/failed-${t.task.name.slice(0, 40).replace(/\W+/g, '-')}.png`, fullPage: true });
  });
  afterAll(async () => {
    await s.ctx?.close();
    if (options.quiet && s.page) {
      expect(s.consoleProblems, 'console errors and warnings').toEqual([]);
      expect(s.foreign, 'requests to other hosts').toEqual([]);
    }
  });
  return s;
}

/** Figures the suite measures, merged into test-results/e2e-figures.json (each screen file adds its own). */
export function recordFigures(figures: Record<string, unknown>): void {
  const path = 'test-results/e2e-figures.json';
  const before = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : {};
  writeFileSync(path, JSON.stringify({ ...before, ...figures }, null, 2));
  console.log('e2e figures', JSON.stringify(figures));
}

/** Into the zero-key demo from Connect: its simulated endpoints, dataset and settings. */
export async function startDemo(page: Page): Promise<void> {
  await page.getByRole('link', { name: 'Connect' }).click();
  await page.getByRole('button', { name: 'Try without a key' }).click();
  await page.getByRole('heading', { name: 'Train the skill' }).waitFor();
}

/** The zero-key demo with one run trained to its end, for blocks that look at a finished run. */
export async function demoRun(page: Page): Promise<void> {
  await startDemo(page);
  await page.getByRole('button', { name: 'Start training' }).click();
  await waitForStatus(page, /Completed/);
  await page.getByText(/^Done: the best skill scored/).waitFor();
}

/** Connected to the test server with the rule world stored and chosen, the Standard preset with KNOBS. */
export async function chooseWorld(page: Page, srv: LlmTestServer): Promise<void> {
  await connect(page, srv.url, 'sk-e2e-key');
  await uploadDataset(page, 'world.json', WORLD);
  await storeDataset(page, [2, 1, 2]);
  await page.getByRole('link', { name: 'Train' }).click();
  await page.getByRole('radio', { name: 'Standard' }).check();
  await setKnobs(page, KNOBS);
}

/**
 * The hard world (rule-world.ts) on its server: its starting skill, its dataset with exact answers
 * and the plain template, the Standard preset with KNOBS and seed 7 (which repairs bundles and
 * accepts a tie on the noisy optimizer).
 */
export async function chooseHardWorld(page: Page, hardSrv: LlmTestServer): Promise<void> {
  await chooseRuleWorld(page, hardSrv, { name: 'hard', skill: HARD_INITIAL_SKILL, items: makeHardWorldItems(), splits: '54 train · 18 validation · 48 test', seed: '7' });
}

/** A rule world's starting skill and dataset (its items carry their splits), the Standard preset and a seed. */
export async function chooseRuleWorld(page: Page, srv: LlmTestServer, w: { name: string; skill: string; items: readonly object[]; splits: string; seed: string }): Promise<void> {
  await connect(page, srv.url, 'sk-e2e-key');
  await page.getByRole('link', { name: 'Skill' }).click();
  await page.getByLabel('Open skill file').setInputFiles({ name: `${w.name}-skill.md`, mimeType: 'text/markdown', buffer: Buffer.from(w.skill) });
  await page.waitForFunction((want) => JSON.parse(localStorage.getItem('skillwright-ui')!).state.skill === want, w.skill);
  await uploadDataset(page, `${w.name}-world.json`, JSON.stringify(w.items));
  await page.getByText(w.splits).waitFor();
  await page.getByRole('button', { name: 'Use this dataset' }).click();
  await page.getByText(/Training will use/).waitFor();
  // The multiple-choice example may be the last dataset loaded: back to exact answers.
  await page.getByLabel('Scorer').selectOption('exact');
  await page.getByLabel('Rollout template').selectOption('qa');
  await page.getByRole('link', { name: 'Train' }).click();
  await page.getByRole('radio', { name: 'Standard' }).check();
  await setKnobs(page, { ...KNOBS, Seed: w.seed });
}

/** What a newcomer meets on Train (issue #33): the form controls in view, whether Start training is, the page's height. */
export function trainFirstView(page: Page) {
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
export async function shootTrain(page: Page, moment: string): Promise<void> {
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
